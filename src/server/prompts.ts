// Prompts: definitions checked at registration and the catalog prompts/list pages (prompts/get: prompt-handlers.ts).

import type { JsonObject } from '../jsonrpc/index.js';
import type { GetPromptResult, Icon, PromptArgument, PromptMessage } from '../protocol/index.js';
import { Catalog, type CatalogEntry, type CatalogSettings } from './catalog.js';
import type { Completer } from './completer.js';
import type { ToolContext } from './context.js';
import { DefinitionError } from './errors.js';
import { makeTarget, type PromptTarget } from './targets.js';
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
  /** What visibility rules and middleware see of this prompt. */
  readonly target: PromptTarget;
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
    target: makeTarget<PromptTarget>('prompt', config.name, json, config.timeoutMs),
  };
}

export class PromptCatalog extends Catalog<PromptRecord> {
  constructor(settings: Omit<CatalogSettings, 'listKey' | 'noun'>, onChange: () => void) {
    super({ ...settings, listKey: 'prompts', noun: 'Prompt' }, onChange);
  }
}
