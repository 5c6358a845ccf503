// The tool registry: compiled tools in a deterministic order, and tools/list pages serialised once per change.

import {
  collectXMcpHeaders,
  compileSchema,
  validateXMcpHeaders,
  type CompiledSchema,
  type XMcpHeader,
} from '../schema/index.js';
import type { Tool } from '../protocol/index.js';
import { DefinitionError } from './errors.js';
import { encodeCursor } from './pagination.js';
import { checkToolConfig, checkToolName, type ToolConfig } from './tool-definition.js';

/** The three shapes a tool list takes on the wire. */
export type ListVariant = 'modern' | 'legacy' | 'legacy-old';

export interface ToolRecord {
  readonly name: string;
  readonly config: ToolConfig;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  enabled: boolean;
  /** Arguments mirrored into Mcp-Param-* headers on the modern HTTP wire (x-mcp-header), found at registration. */
  readonly mcpHeaders: readonly XMcpHeader[];
  /** This tool's JSON in each list variant, serialised at registration. */
  readonly json: Readonly<Record<ListVariant, string>>;
}

export interface ListSettings {
  pageSize: number;
  /** Extra members of every modern list result, as JSON text without braces (cache hints, _meta). */
  modernTail: string;
}

/** The default input schema: a tool without arguments accepts only {} (MCP's recommendation). */
const NO_ARGUMENTS = Object.freeze({ type: 'object', additionalProperties: false });

function serialise(
  config: ToolConfig,
  input: CompiledSchema,
  output: CompiledSchema | undefined,
): ToolRecord['json'] {
  const modern: Tool = { name: config.name } as Tool; // the schema is set below, in wire order
  if (config.title !== undefined) modern.title = config.title;
  if (config.description !== undefined) modern.description = config.description;
  if (config.icons !== undefined) modern.icons = config.icons;
  modern.inputSchema = input.jsonSchema;
  if (output !== undefined) modern.outputSchema = output.jsonSchema;
  if (config.annotations !== undefined) modern.annotations = config.annotations;
  if (config._meta !== undefined) modern._meta = config._meta;
  // Legacy revisions require an object root for outputSchema; others are left out there (the text block remains).
  const legacy: Tool = { ...modern };
  if (output !== undefined && output.rootType !== 'object') delete legacy.outputSchema;
  const old: Tool = { name: config.name } as Tool; // likewise
  if (config.description !== undefined) old.description = config.description;
  old.inputSchema = input.jsonSchema;
  if (config.annotations !== undefined) old.annotations = config.annotations;
  return {
    modern: JSON.stringify(modern),
    legacy: JSON.stringify(legacy),
    'legacy-old': JSON.stringify(old),
  };
}

/** Compiles a tool definition into a record; every mistake is a DefinitionError naming the tool. */
export function compileTool(config: ToolConfig): ToolRecord {
  checkToolConfig(config);
  const owner = `tool "${config.name}"`;
  let input: CompiledSchema;
  let output: CompiledSchema | undefined;
  try {
    input = compileSchema(config.inputSchema ?? NO_ARGUMENTS, { role: 'input', owner });
    output =
      config.outputSchema === undefined
        ? undefined
        : compileSchema(config.outputSchema, { role: 'output', owner });
  } catch (error) {
    throw new DefinitionError(error instanceof Error ? error.message : String(error));
  }
  const headerProblem = validateXMcpHeaders(input.jsonSchema);
  if (headerProblem !== undefined)
    throw new DefinitionError(`${owner}: invalid x-mcp-header: ${headerProblem}`);
  return {
    name: config.name,
    config,
    input,
    output,
    enabled: true,
    mcpHeaders: collectXMcpHeaders(input.jsonSchema),
    json: serialise(config, input, output),
  };
}

export class ToolRegistry {
  readonly #tools = new Map<string, ToolRecord>();
  readonly #settings: ListSettings;
  readonly #onChange: () => void;
  #enabled: ToolRecord[] | undefined;
  readonly #pages = new Map<string, string>();

  constructor(settings: ListSettings, onChange: () => void) {
    this.#settings = settings;
    this.#onChange = onChange;
  }

  get pageSize(): number {
    return this.#settings.pageSize;
  }

  add(config: ToolConfig): ToolRecord {
    const record = compileTool(config);
    if (this.#tools.has(record.name))
      throw new DefinitionError(`Tool "${record.name}" is already registered`);
    this.#tools.set(record.name, record);
    this.#changed();
    return record;
  }

  /** Replaces a tool's definition in place (same position in the list); a rename must not collide. */
  replace(name: string, config: ToolConfig): ToolRecord {
    const current = this.#require(name);
    const record = compileTool(config);
    if (record.name !== name && this.#tools.has(record.name)) {
      throw new DefinitionError(`Tool "${record.name}" is already registered`);
    }
    record.enabled = current.enabled;
    if (record.name === name) this.#tools.set(name, record);
    else {
      const entries = [...this.#tools].map(([key, value]): [string, ToolRecord] =>
        key === name ? [record.name, record] : [key, value],
      );
      this.#tools.clear();
      for (const [key, value] of entries) this.#tools.set(key, value);
    }
    this.#changed();
    return record;
  }

  remove(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#changed();
    return removed;
  }

  setEnabled(name: string, enabled: boolean): void {
    const record = this.#require(name);
    if (record.enabled === enabled) return;
    record.enabled = enabled;
    this.#changed();
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The enabled tool with this name, if any. */
  get(name: string): ToolRecord | undefined {
    const record = this.#tools.get(name);
    return record?.enabled ? record : undefined;
  }

  /** Enabled tools in registration order. */
  enabled(): readonly ToolRecord[] {
    this.#enabled ??= [...this.#tools.values()].filter((record) => record.enabled);
    return this.#enabled;
  }

  /** The result JSON of the page starting at `offset`, built once per change of the list. */
  page(offset: number, variant: ListVariant): string {
    const key = `${variant}:${offset}`;
    const cached = this.#pages.get(key);
    if (cached !== undefined) return cached;
    const tools = this.enabled();
    const end = Math.min(offset + this.#settings.pageSize, tools.length);
    let json = '{"tools":[';
    for (let i = offset; i < end; i++) {
      if (i > offset) json += ',';
      json += (tools[i] as ToolRecord).json[variant];
    }
    json += ']';
    if (end < tools.length) json += ',"nextCursor":' + JSON.stringify(encodeCursor(end));
    json += variant === 'modern' ? ',' + this.#settings.modernTail + '}' : '}';
    this.#pages.set(key, json);
    return json;
  }

  /** The tool with this name, enabled or not; throws if there is none. */
  record(name: string): ToolRecord {
    return this.#require(name);
  }

  #require(name: string): ToolRecord {
    checkToolName(name);
    const record = this.#tools.get(name);
    if (record === undefined) throw new DefinitionError(`Tool "${name}" is not registered`);
    return record;
  }

  #changed(): void {
    this.#enabled = undefined;
    this.#pages.clear();
    this.#onChange();
  }
}
