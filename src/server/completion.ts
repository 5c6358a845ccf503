// completion/complete: suggestions for prompt arguments and resource-template variables.

import { ErrorCode, RpcError, isJsonObject } from '../jsonrpc/index.js';
import type { RequestScope } from './request-scope.js';

import type { Completer } from './completer.js';

/** At most this many values go back (the spec's limit); `total` and `hasMore` tell the rest. */
const MAX_VALUES = 100;
const COMPLETION_TIMEOUT_MS = 5000;

const invalid = (message: string): RpcError =>
  new RpcError(ErrorCode.InvalidParams, `Invalid params: ${message}`);

export async function complete(scope: RequestScope): Promise<object> {
  const params = scope.params ?? {};
  const ref = params.ref;
  const argument = params.argument;
  if (!isJsonObject(ref) || typeof ref.type !== 'string') throw invalid('ref must be an object with a type');
  if (!isJsonObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalid('argument must be { name: string, value: string }');
  }
  const context =
    isJsonObject(params.context) && isJsonObject(params.context.arguments) ? params.context.arguments : {};
  const chosen: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) if (typeof value === 'string') chosen[key] = value;

  let completer: Completer | undefined;
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string') throw invalid('ref.name must be a string');
    const prompt = scope.services.prompts.getFor(ref.name, scope.caller, scope.services.visibility.prompts);
    if (prompt === undefined) throw invalid(`unknown prompt "${ref.name}"`);
    if (!(prompt.config.arguments ?? []).some((declared) => declared.name === argument.name)) {
      throw invalid(`prompt "${ref.name}" has no argument "${argument.name}"`);
    }
    completer = prompt.config.complete?.[argument.name];
  } else if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') throw invalid('ref.uri must be a string');
    const { resources, visibility } = scope.services;
    const template = resources.templates.getFor(ref.uri, scope.caller, visibility.templates);
    if (template === undefined) {
      if (resources.statics.getFor(ref.uri, scope.caller, visibility.resources) !== undefined) {
        return emptyCompletion();
      }
      throw invalid(`unknown resource template "${ref.uri}"`);
    }
    if (!template.parsed.variables.includes(argument.name)) {
      throw invalid(`resource template "${ref.uri}" has no variable "${argument.name}"`);
    }
    completer = template.config.complete?.[argument.name];
  } else {
    throw invalid(`ref.type must be "ref/prompt" or "ref/resource", got "${ref.type}"`);
  }
  if (completer === undefined) return emptyCompletion();
  let timer: NodeJS.Timeout | undefined;
  const values = await Promise.race([
    Promise.resolve().then(() => completer(argument.value as string, { arguments: chosen })),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('completion timed out')), COMPLETION_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  const strings = Array.isArray(values)
    ? values.filter((value): value is string => typeof value === 'string')
    : [];
  return {
    completion: {
      values: strings.slice(0, MAX_VALUES),
      total: strings.length,
      hasMore: strings.length > MAX_VALUES,
    },
  };
}

const emptyCompletion = (): object => ({ completion: { values: [], total: 0, hasMore: false } });
