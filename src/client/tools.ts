// The client's view of the server's tools: all pages (bounded), cached as ttlMs allows, invalidated on change;
// tools whose x-mcp-header annotations break the rules are dropped with a warning.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { Method, type Tool } from '../protocol/index.js';
import {
  collectXMcpHeaders,
  compileSchema,
  validateXMcpHeaders,
  type CompiledSchema,
  type XMcpHeader,
} from '../schema/index.js';
import { ProtocolError } from './errors.js';
import { ListBounds } from './list-limits.js';
import type { ClientSession } from './session.js';
import { checkPins } from './tool-pins.js';

/** What the client keeps per tool: the definition, its header paths, and its output validator (built lazily). */
export interface KnownTool {
  tool: Tool;
  mcpHeaders: readonly XMcpHeader[];
  output: CompiledSchema | null | undefined;
}

export class ToolCache {
  readonly #client: ClientSession;
  #tools = new Map<string, KnownTool>();
  #list: Tool[] | undefined;
  #freshUntil = 0;
  #loading: Promise<Tool[]> | undefined;

  constructor(client: ClientSession) {
    this.#client = client;
  }

  invalidate(): void {
    this.#list = undefined;
    this.#freshUntil = 0;
  }

  async list(options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<Tool[]> {
    if (options.refresh !== true && this.#list !== undefined && Date.now() < this.#freshUntil)
      return this.#list;
    this.#loading ??= this.#fetch(options.signal).finally(() => (this.#loading = undefined));
    return this.#loading;
  }

  /** A tool's definition: from the cache (even if stale: it is only used to shape the call), else listed now. */
  async get(name: string): Promise<KnownTool | undefined> {
    if (!this.#tools.has(name) || this.#list === undefined) await this.list();
    return this.#tools.get(name);
  }

  async #fetch(signal: AbortSignal | undefined): Promise<Tool[]> {
    const bounds = new ListBounds(Method.ToolsList, this.#client.options);
    const tools: Tool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let ttlMs = Infinity;
    let full = false;
    do {
      bounds.page();
      const params: JsonObject = cursor === undefined ? {} : { cursor };
      const page = await this.#client.request(
        Method.ToolsList,
        params,
        signal === undefined ? {} : { signal },
      );
      if (!Array.isArray(page.tools)) throw new ProtocolError('tools/list answered without a tools array');
      ttlMs = Math.min(ttlMs, typeof page.ttlMs === 'number' && page.ttlMs > 0 ? page.ttlMs : 0);
      for (const tool of page.tools) {
        if (!isJsonObject(tool) || typeof tool.name !== 'string' || !isJsonObject(tool.inputSchema)) {
          this.#client.logger.warn(
            `dropped a tool without a name or inputSchema: ${JSON.stringify(tool).slice(0, 120)}`,
          );
          continue;
        }
        if (seen.has(tool.name)) continue;
        const problem = validateXMcpHeaders(tool.inputSchema);
        if (problem !== undefined) {
          this.#client.logger.warn(`dropped tool "${tool.name}": invalid x-mcp-header: ${problem}`);
          continue;
        }
        if (tools.length >= bounds.maxItems) {
          full = true;
          break;
        }
        seen.add(tool.name);
        tools.push(tool as unknown as Tool); // checked: name and inputSchema
      }
      cursor = full ? undefined : bounds.next(page.nextCursor);
    } while (cursor !== undefined);
    if (full) this.#client.logger.warn(bounds.truncated());
    const known = new Map<string, KnownTool>();
    for (const tool of tools) {
      const previous = this.#tools.get(tool.name);
      const sameOutput =
        previous !== undefined &&
        JSON.stringify(previous.tool.outputSchema) === JSON.stringify(tool.outputSchema);
      known.set(tool.name, {
        tool,
        mcpHeaders: collectXMcpHeaders(tool.inputSchema),
        output: sameOutput ? previous.output : undefined,
      });
    }
    checkPins(this.#client, tools);
    this.#tools = known;
    this.#list = tools;
    this.#freshUntil = Date.now() + (Number.isFinite(ttlMs) ? ttlMs : 0);
    return tools;
  }

  /** The compiled outputSchema of a tool, or null when it has none or it cannot be compiled (never fetched). */
  outputValidator(known: KnownTool): CompiledSchema | null {
    if (known.output !== undefined) return known.output;
    const schema = known.tool.outputSchema;
    if (schema === undefined) return (known.output = null);
    try {
      // The server's own schema on its own output: untrusted, so a pattern that backtracks (C5: (a+)+$), which
      // would hang this process whatever the call's time limit, is refused rather than compiled.
      known.output = compileSchema(schema, {
        role: 'output',
        owner: `tool "${known.tool.name}"`,
        untrusted: true,
      });
    } catch (error) {
      this.#client.logger.warn(
        `cannot validate the output of "${known.tool.name}": ${(error as Error).message}`,
      );
      known.output = null;
    }
    return known.output;
  }
}
