// Prompts: definitions checked at registration, prompts/list from the catalog, prompts/get with argument checks.

import { ErrorCode, RpcError, isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import {
  CONTENT_TYPES,
  type GetPromptResult,
  type Icon,
  type PromptArgument,
  type PromptMessage,
} from '../protocol/index.js';
import { Catalog, type CatalogEntry, type CatalogSettings } from './catalog.js';
import type { Completer } from './completion.js';
import type { ToolContext } from './context.js';
import { DefinitionError, newReference } from './errors.js';
import { execute, protocolOutcome } from './execute.js';
import type { RequestScope } from './request-scope.js';
import { checkIcons, checkTimeout } from './tool-definition.js';

export interface PromptConfig {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: JsonObject;
  arguments?: PromptArgument[];
  /** Completion of argument values, by argument name. */
  complete?: Record<string, Completer>;
  timeoutMs?: number;
  /** Builds the messages: a string (one user message), messages, or a full result. */
  get: (
    args: Record<string, string>,
    ctx: ToolContext,
  ) => string | PromptMessage[] | GetPromptResult | Promise<string | PromptMessage[] | GetPromptResult>;
}

export interface PromptRecord extends CatalogEntry {
  readonly config: PromptConfig;
}

const NAME = /^\P{Cc}{1,128}$/u; // 1–128 characters, none of them a control character

export function compilePrompt(config: PromptConfig): PromptRecord {
  if (typeof config !== 'object' || config === null)
    throw new DefinitionError('A prompt definition must be an object');
  if (typeof config.name !== 'string' || !NAME.test(config.name)) {
    throw new DefinitionError(
      `Invalid prompt name ${JSON.stringify(config.name)}: use 1–128 characters, no control characters`,
    );
  }
  const owner = `prompt "${config.name}"`;
  if (typeof config.get !== 'function') throw new DefinitionError(`${owner}: get must be a function`);
  const names = new Set<string>();
  for (const argument of config.arguments ?? []) {
    if (typeof argument?.name !== 'string' || argument.name.length === 0) {
      throw new DefinitionError(`${owner}: every argument needs a non-empty name`);
    }
    if (names.has(argument.name))
      throw new DefinitionError(`${owner}: argument "${argument.name}" is declared twice`);
    names.add(argument.name);
  }
  for (const key of Object.keys(config.complete ?? {})) {
    if (!names.has(key)) throw new DefinitionError(`${owner}: complete.${key} names no declared argument`);
  }
  checkIcons(config.icons, owner);
  checkTimeout(config.timeoutMs, owner);
  const wire: JsonObject = { name: config.name };
  if (config.title !== undefined) wire.title = config.title;
  if (config.description !== undefined) wire.description = config.description;
  if (config.arguments !== undefined) wire.arguments = config.arguments;
  if (config.icons !== undefined) wire.icons = config.icons;
  if (config._meta !== undefined) wire._meta = config._meta;
  const json = JSON.stringify(wire);
  return {
    key: config.name,
    enabled: true,
    config,
    json: { modern: json, legacy: json, 'legacy-old': json },
  };
}

export class PromptCatalog extends Catalog<PromptRecord> {
  constructor(settings: Omit<CatalogSettings, 'listKey' | 'noun'>, onChange: () => void) {
    super({ ...settings, listKey: 'prompts', noun: 'Prompt' }, onChange);
  }
}

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
  const record = scope.server.prompts.get(name);
  if (record === undefined)
    throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: "${name}"`, { name });
  const args = readArguments(record, scope.params?.arguments);
  const execution = await execute(scope, {
    binding: `prompt:${name}`,
    args,
    timeoutMs: record.config.timeoutMs ?? scope.server.defaultTimeoutMs,
    run: (ctx) => record.config.get(args, ctx),
  });
  const outcome = protocolOutcome(execution, `Prompt "${name}"`);
  if ('reply' in outcome) return outcome.reply;
  const result = normalise(outcome.value);
  if (result !== undefined) return result;
  const reference = newReference();
  scope.server.logger.error(
    `prompt "${name}" returned something that is not prompt messages (reference ${reference})`,
  );
  throw new RpcError(
    ErrorCode.InternalError,
    `Prompt "${name}" produced invalid messages (reference ${reference})`,
  );
}
