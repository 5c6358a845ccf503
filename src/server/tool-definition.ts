// What a tool author writes: the tool's metadata, schemas and handler, and the checks run on it at registration.

import type { JsonObject } from '../jsonrpc/index.js';
import type { CallToolResult, ContentBlock, Icon, ToolAnnotations } from '../protocol/index.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { InferSchema, SchemaInput } from '../schema/index.js';
import { DefinitionError } from './errors.js';
import type { ToolContext } from './context.js';

/** What a handler may return: text, content blocks, a full result, or a value that becomes structuredContent. */
export type ToolReturn<O> =
  string | ContentBlock | ContentBlock[] | CallToolResult | StructuredOutput<O> | undefined;

/**
 * The structured value a handler may return: the output type of a Standard Schema outputSchema; anything for a raw
 * JSON Schema or no outputSchema (the value is still validated at run time when a schema is given).
 */
export type StructuredOutput<O> = O extends StandardSchemaV1<unknown, infer Output> ? Output : unknown;

export interface ToolConfig<
  I extends SchemaInput | undefined = SchemaInput | undefined,
  O = SchemaInput | undefined,
> {
  /** 1–128 characters of A–Z a–z 0–9 _ - . ; unique within the server. */
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  annotations?: ToolAnnotations;
  _meta?: JsonObject;
  /** Input schema: Zod 4 (or any Standard Schema with JSON Schema export) or a JSON Schema object. Default: no arguments. */
  inputSchema?: I;
  /** Output schema for structuredContent. */
  outputSchema?: O;
  /** Per-tool time limit in milliseconds (default: the server's, 60 s; for tasks, the server's task limit, 1 h). */
  timeoutMs?: number;
  /**
   * Tasks extension (io.modelcontextprotocol/tasks), for clients that declare it on the modern wire:
   * 'optional' runs as a task for them and synchronously for others; 'required' refuses others (-32021).
   * `start: 'immediately'` (default) creates the task before the handler runs; 'when-asked' waits for
   * ctx.runAsTask(), so the handler can gather input synchronously first or answer fast calls directly.
   */
  task?: TaskSupport['support'] | TaskSupport;
  handler: (args: InferSchema<I>, ctx: ToolContext) => ToolReturn<O> | Promise<ToolReturn<O>>;
}

export interface TaskSupport {
  support: 'optional' | 'required';
  start?: 'immediately' | 'when-asked';
}

/** The tool's task support in its long form, or undefined. */
export function taskSupport(record: { config: Pick<ToolConfig, 'task'> }): Required<TaskSupport> | undefined {
  const task = record.config.task;
  if (task === undefined) return undefined;
  return typeof task === 'string'
    ? { support: task, start: 'immediately' }
    : { support: task.support, start: task.start ?? 'immediately' };
}

/** Identity function that lets TypeScript infer a tool's argument types from its schema. */
export const defineTool = <I extends SchemaInput | undefined = undefined, O = undefined>(
  config: ToolConfig<I, O>,
): ToolConfig<I, O> => config;

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const ANNOTATION_FLAGS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
/** Upper bound for timeouts: setTimeout cannot wait longer than this. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

export function checkToolName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new DefinitionError(
      `Invalid tool name ${JSON.stringify(name)}: use 1–128 characters from A–Z, a–z, 0–9, "_", "-" and "."`,
    );
  }
}

export function checkTimeout(value: unknown, owner: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
    throw new DefinitionError(
      `${owner}: timeoutMs must be a positive integer number of milliseconds (≤ ${MAX_TIMEOUT_MS})`,
    );
  }
}

export function checkIcons(icons: unknown, owner: string): void {
  if (icons === undefined) return;
  if (!Array.isArray(icons)) throw new DefinitionError(`${owner}: icons must be an array`);
  for (const icon of icons as unknown[]) {
    const src = (icon as { src?: unknown } | null)?.src;
    if (typeof src !== 'string' || !(src.startsWith('https://') || src.startsWith('data:'))) {
      throw new DefinitionError(`${owner}: every icon needs a src that is an https: URL or a data: URI`);
    }
  }
}

/** Checks everything about a tool definition that does not involve its schemas. */
export function checkToolConfig(config: ToolConfig): void {
  if (typeof config !== 'object' || config === null)
    throw new DefinitionError('A tool definition must be an object');
  checkToolName(config.name);
  const owner = `tool "${config.name}"`;
  if (typeof config.handler !== 'function') throw new DefinitionError(`${owner}: handler must be a function`);
  for (const key of ['title', 'description'] as const) {
    if (config[key] !== undefined && typeof config[key] !== 'string') {
      throw new DefinitionError(`${owner}: ${key} must be a string`);
    }
  }
  const annotations = config.annotations;
  if (annotations !== undefined) {
    if (typeof annotations !== 'object' || annotations === null) {
      throw new DefinitionError(`${owner}: annotations must be an object`);
    }
    for (const flag of ANNOTATION_FLAGS) {
      if (annotations[flag] !== undefined && typeof annotations[flag] !== 'boolean') {
        throw new DefinitionError(`${owner}: annotations.${flag} must be a boolean`);
      }
    }
  }
  if (config._meta !== undefined && (typeof config._meta !== 'object' || config._meta === null)) {
    throw new DefinitionError(`${owner}: _meta must be an object`);
  }
  checkIcons(config.icons, owner);
  checkTimeout(config.timeoutMs, owner);
  const task = config.task;
  if (task !== undefined) {
    const long = typeof task === 'string' ? { support: task } : task;
    if (long.support !== 'optional' && long.support !== 'required') {
      throw new DefinitionError(`${owner}: task must be "optional" or "required" (or { support, start })`);
    }
    if (
      typeof task === 'object' &&
      task.start !== undefined &&
      task.start !== 'immediately' &&
      task.start !== 'when-asked'
    ) {
      throw new DefinitionError(`${owner}: task.start must be "immediately" or "when-asked"`);
    }
  }
}
