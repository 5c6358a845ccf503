// prompts/get: argument checks, the prompt's function under its time limit, and its messages checked on the way out.

import { ErrorCode, RpcError, isJsonObject } from '../jsonrpc/index.js';
import { CONTENT_TYPES, type GetPromptResult, type PromptMessage } from '../protocol/index.js';
import { newReference } from './errors.js';
import { RunSpec, execute, protocolOutcome } from './execute.js';
import type { PromptRecord } from './prompts.js';
import type { RequestScope } from './request-scope.js';

const invalid = (message: string): RpcError =>
  new RpcError(ErrorCode.InvalidParams, `Invalid params: ${message}`);

function readArguments(record: PromptRecord, raw: unknown): Record<string, string> {
  const name = record.config.name;
  if (raw !== undefined && !isJsonObject(raw))
    throw invalid(`arguments of prompt "${name}" must be an object of strings`);
  const declared = record.config.arguments ?? [];
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    if (!declared.some((argument) => argument.name === key)) {
      const list = declared.length === 0 ? 'none' : declared.map((argument) => argument.name).join(', ');
      throw invalid(`prompt "${name}" has no argument "${key}" (its arguments: ${list})`);
    }
    if (typeof value !== 'string') throw invalid(`argument "${key}" of prompt "${name}" must be a string`);
    args[key] = value;
  }
  for (const argument of declared) {
    if (argument.required === true && args[argument.name] === undefined) {
      throw invalid(`missing required argument "${argument.name}" for prompt "${name}"`);
    }
  }
  return args;
}

const isMessage = (value: unknown): value is PromptMessage =>
  isJsonObject(value) &&
  (value.role === 'user' || value.role === 'assistant') &&
  isJsonObject(value.content) &&
  typeof value.content.type === 'string' &&
  CONTENT_TYPES.has(value.content.type);

function normalise(value: unknown): GetPromptResult | undefined {
  if (typeof value === 'string')
    return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value)) return value.every(isMessage) ? { messages: value } : undefined;
  if (isJsonObject(value) && Array.isArray(value.messages) && value.messages.every(isMessage)) {
    return value as unknown as GetPromptResult; // shape checked just above
  }
  return undefined;
}

export async function getPrompt(scope: RequestScope): Promise<object | undefined> {
  const name = scope.params?.name;
  if (typeof name !== 'string') throw invalid('prompts/get needs params.name (a string)');
  const record = scope.resolved?.kind === 'prompt' ? scope.resolved.record : undefined;
  if (record === undefined)
    throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: "${name}"`, { name });
  const args = readArguments(record, scope.params?.arguments);
  const execution = await execute(
    scope,
    new RunSpec(`prompt:${name}`, args, record.config.timeoutMs ?? scope.services.defaultTimeoutMs, (ctx) =>
      record.config.get(args, ctx),
    ),
  );
  const outcome = protocolOutcome(execution, `Prompt "${name}"`);
  if ('reply' in outcome) return outcome.reply;
  const result = normalise(outcome.value);
  if (result !== undefined) return result;
  const reference = newReference();
  scope.services.logger.error(
    `prompt "${name}" returned something that is not prompt messages (reference ${reference})`,
  );
  throw new RpcError(
    ErrorCode.InternalError,
    `Prompt "${name}" produced invalid messages (reference ${reference})`,
  );
}
