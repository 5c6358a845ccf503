// The tool module behind `toolwire dev`: each version runs in its own child process (dev-child.ts) with a client on
// it, and the live server's tools are kept in step with the newest version that loaded — tools added, changed and
// removed in one turn, so clients get one list_changed. A version that fails to load changes nothing.
//
// Why a child per version rather than import(`file?v=N`): an ES module can never be unloaded, so every reload would
// keep its code and state in this process for good, and the files it imports would not reload at all (they stay
// cached under their own URLs). A child is a fresh module graph each time, its memory goes when it exits, and a
// module that loops or exits while loading cannot take the server down. The cost is a Node start per save.

import { AsyncLocalStorage } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';
import {
  ConnectionClosedError,
  McpClient,
  McpError,
  ProtocolError,
  RequestTimeoutError,
  type InputHandlers,
} from '../client/index.js';
import type { JsonObject } from '../jsonrpc/index.js';
import { MetaKey, type CallToolResult, type Tool } from '../protocol/index.js';
import { ToolError, type McpServer, type ToolConfig, type ToolContext } from '../server/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { ownModule } from '../own-files.js';

/** A stuck child is given up on after this; the module's own time limits (60 s by default) apply first. */
const PROXY_TIMEOUT_MS = 600_000;
/** A module that takes longer than this to load is reported as not loading. */
const LOAD_TIMEOUT_MS = 30_000;

export type LoadResult =
  | { ok: true; added: string[]; changed: string[]; removed: string[]; failed: string[] }
  | { ok: false; reason: string };

export interface ModuleHostOptions {
  /** The module file (absolute). */
  file: string;
  /** The live server whose tools follow the module. */
  server: McpServer;
  /** toolwire's version, for the client's name. */
  version: string;
  /** Where the module's stderr and the host's warnings go. */
  stderr: (text: string) => void;
  /** The current version's process ended on its own (a tool called process.exit, say). */
  onExit: (how: string) => void;
}

interface Version {
  client: McpClient;
  transport: StdioClientTransport;
  inFlight: number;
  retired: boolean;
}

/** How to start dev-child for this build: from source under a TypeScript loader, from dist/ otherwise. */
function childCommand(file: string): { command: string; args: string[] } {
  const entry = ownModule('cli/dev-child');
  // The parent's Node flags (a TypeScript loader, say) go along, so a .ts module loads in the child as here.
  return { command: process.execPath, args: [...process.execArgv, fileURLToPath(entry), file] };
}

/** The useful part of a failed child's stderr: no Node-internal stack frames, no version banner. */
export function loadFailureText(stderr: string, error: unknown): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => !/^\s+at .*node:internal\//.test(line) && !/^Node\.js v\d/.test(line));
  const text = lines.join('\n').trim();
  if (text !== '') return text;
  if (error instanceof RequestTimeoutError)
    return `it did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s`;
  return error instanceof Error ? error.message : String(error);
}

export class ModuleHost {
  readonly #options: ModuleHostOptions;
  /** Tool name → the definition it was served with (JSON), to tell changed tools from unchanged ones. */
  readonly #served = new Map<string, string>();
  readonly #retired = new Set<Version>();
  /** The context of the tool call a child's input request belongs to (its requests come inside the call). */
  readonly #calls = new AsyncLocalStorage<ToolContext>();
  #current: Version | undefined;
  #closing = false;

  constructor(options: ModuleHostOptions) {
    this.#options = options;
  }

  /** The tools served now. */
  get tools(): string[] {
    return [...this.#served.keys()];
  }

  /** Starts a new version; when it loads, the server's tools become its tools and the old version retires. */
  async load(): Promise<LoadResult> {
    const { command, args } = childCommand(this.#options.file);
    const transport = new StdioClientTransport({ command, args, stderr: 'capture' });
    let serving = false;
    transport.onstderr = (chunk) => {
      if (serving) this.#options.stderr(chunk);
    };
    const client = new McpClient(
      { name: 'toolwire-dev', version: this.#options.version },
      {
        era: 'modern',
        approve: 'always',
        trusted: true,
        listenForChanges: false,
        validateOutput: 'off', // the live server checks structuredContent against the same outputSchema
        timeoutMs: PROXY_TIMEOUT_MS,
        discoverTimeoutMs: LOAD_TIMEOUT_MS,
        handlers: this.#inputHandlers(),
        logger: { warn: (message) => this.#options.stderr(`toolwire: dev: ${message}\n`) },
      },
    );
    let tools: Tool[];
    try {
      await client.connect(transport);
      tools = await client.listTools();
    } catch (error) {
      await client.close().catch(() => undefined);
      return { ok: false, reason: loadFailureText(transport.stderrText, error) };
    }
    const version: Version = { client, transport, inFlight: 0, retired: false };
    // What the module wrote while loading (its own debugging output) is shown once it is known to be good.
    const early = transport.stderrText;
    serving = true;
    if (early !== '') this.#options.stderr(early);
    const channelClosed = transport.onclose;
    transport.onclose = () => {
      channelClosed?.();
      if (!this.#closing && !version.retired && version === this.#current) {
        this.#current = undefined;
        const how =
          transport.signal != null
            ? `killed by ${transport.signal}`
            : `exit code ${String(transport.exitCode)}`;
        this.#options.onExit(how);
      }
    };
    const changes = this.#apply(tools);
    const previous = this.#current;
    this.#current = version;
    if (previous !== undefined) this.#retire(previous);
    return { ok: true, ...changes };
  }

  /** Makes the server's tools match `tools`, synchronously, so the changes go out as one list_changed. */
  #apply(tools: readonly Tool[]): {
    added: string[];
    changed: string[];
    removed: string[];
    failed: string[];
  } {
    const server = this.#options.server;
    const next = new Set(tools.map((tool) => tool.name));
    const added: string[] = [];
    const changed: string[] = [];
    const removed: string[] = [];
    const failed: string[] = [];
    for (const name of [...this.#served.keys()]) {
      if (next.has(name)) continue;
      server.tools.remove(name);
      this.#served.delete(name);
      removed.push(name);
    }
    for (const tool of tools) {
      const json = JSON.stringify(tool);
      const known = this.#served.get(tool.name);
      if (known === json) continue;
      try {
        if (known === undefined) server.tool(this.#proxy(tool));
        else server.tools.replaceTool(tool.name, this.#proxy(tool));
      } catch (error) {
        failed.push(`${tool.name} (${error instanceof Error ? error.message : String(error)})`);
        continue;
      }
      this.#served.set(tool.name, json);
      (known === undefined ? added : changed).push(tool.name);
    }
    return { added, changed, removed, failed };
  }

  /** A tool on the live server that forwards each call to whichever version is current when the call starts. */
  #proxy(tool: Tool): ToolConfig {
    return {
      name: tool.name,
      ...(tool.title !== undefined && { title: tool.title }),
      ...(tool.description !== undefined && { description: tool.description }),
      ...(tool.icons !== undefined && { icons: tool.icons }),
      ...(tool.annotations !== undefined && { annotations: tool.annotations }),
      ...(tool._meta !== undefined && { _meta: tool._meta }),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
      timeoutMs: PROXY_TIMEOUT_MS,
      handler: (args, ctx) => this.#call(tool.name, args as JsonObject, ctx), // args: checked by inputSchema
    };
  }

  async #call(name: string, args: JsonObject, ctx: ToolContext): Promise<CallToolResult> {
    const version = this.#current;
    if (version === undefined)
      throw new ToolError(`the tool module is not running; fix ${this.#options.file} and save it`);
    version.inFlight++;
    try {
      const result = await this.#calls.run(ctx, () =>
        version.client.callTool(name, args, {
          signal: ctx.signal,
          onProgress: ({ progress, total, message }) => ctx.progress(progress, total, message),
          timeoutMs: PROXY_TIMEOUT_MS,
        }),
      );
      const { taskId: _task, _meta, ...rest } = result;
      const meta = { ...(_meta ?? {}) };
      delete meta[MetaKey.ServerInfo]; // the child's identity; the live server adds its own
      return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
    } catch (error) {
      if (error instanceof ConnectionClosedError)
        throw new ToolError(`the tool module's process ended during the call to "${name}"`);
      if (error instanceof McpError || error instanceof ProtocolError || error instanceof RequestTimeoutError)
        throw new ToolError(error.message);
      throw error; // the live server's own signals (an input request, a cancellation) pass through as they are
    } finally {
      version.inFlight--;
      if (version.retired && version.inFlight === 0) void this.#close(version);
    }
  }

  /** The child's input requests are the live call's: forwarded through its context (MRTR or legacy alike). */
  #inputHandlers(): InputHandlers {
    const context = (method: string): ToolContext => {
      const ctx = this.#calls.getStore();
      if (ctx === undefined) throw new McpError({ code: -32601, message: `${method} outside a tool call` });
      return ctx;
    };
    return {
      elicitation: (params) => context('elicitation/create').elicit(params),
      sampling: (params) => context('sampling/createMessage').sample(params),
      roots: () => context('roots/list').listRoots(),
    };
  }

  /** An old version serves the calls it has started, then ends. */
  #retire(version: Version): void {
    version.retired = true;
    this.#retired.add(version);
    if (version.inFlight === 0) void this.#close(version);
  }

  async #close(version: Version): Promise<void> {
    this.#retired.delete(version);
    await version.client.close().catch(() => undefined);
  }

  /** Ends every version. */
  async close(): Promise<void> {
    this.#closing = true;
    const versions = [...this.#retired, ...(this.#current === undefined ? [] : [this.#current])];
    this.#current = undefined;
    await Promise.all(versions.map((version) => this.#close(version)));
  }
}
