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
import { Catalog, type CatalogEntry, type CatalogSettings, type ListVariant } from './catalog.js';
import { makeTarget, type ToolTarget } from './targets.js';
import { checkToolConfig, checkToolName, type ToolConfig } from './tool-definition.js';

export interface ToolRecord extends CatalogEntry {
  readonly name: string;
  readonly config: ToolConfig;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  /** Arguments mirrored into Mcp-Param-* headers on the modern HTTP wire (x-mcp-header), found at registration. */
  readonly mcpHeaders: readonly XMcpHeader[];
  /** What visibility rules and middleware see of this tool. */
  readonly target: ToolTarget;
}

/** The default input schema: a tool without arguments accepts only {} (MCP's recommendation). */
const NO_ARGUMENTS = Object.freeze({ type: 'object', additionalProperties: false });

function serialise(
  config: ToolConfig,
  input: CompiledSchema,
  output: CompiledSchema | undefined,
): Record<ListVariant, string> {
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
  const json = serialise(config, input, output);
  return {
    key: config.name,
    name: config.name,
    config,
    input,
    output,
    enabled: true,
    mcpHeaders: collectXMcpHeaders(input.jsonSchema),
    json,
    target: makeTarget<ToolTarget>('tool', config.name, json.modern, config.timeoutMs),
  };
}

/** The tools of a server: a catalog of compiled tool records, keyed by name. */
export class ToolRegistry extends Catalog<ToolRecord> {
  constructor(settings: Omit<CatalogSettings, 'listKey' | 'noun'>, onChange: () => void) {
    super({ ...settings, listKey: 'tools', noun: 'Tool' }, onChange);
  }

  addTool(config: ToolConfig): ToolRecord {
    return this.add(compileTool(config));
  }

  replaceTool(name: string, config: ToolConfig): ToolRecord {
    checkToolName(name);
    return this.replace(name, compileTool(config));
  }
}
