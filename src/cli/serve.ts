// `toolwire serve`: the ready server with its tool packs, over stdio (default) or Streamable HTTP.

import { Option, type Command } from 'commander';
import type { Policy } from '../policy/index.js';
import { McpServer, stderrLogger, type ToolConfig } from '../server/index.js';
import { HTTP_FIELDS, flagOf, type HttpField } from '../tools/http-config.js';
// Not the tools index: that loads every pack; serve-config loads the packs it serves.
import { ConfigError } from '../tools/pack.js';
import { loadServeConfig } from '../tools/serve-config.js';
import { serveStdio } from '../transports/stdio/index.js';
import { parseAddress } from './address.js';
import { listenApprovals, type ApprovalsListening } from './approvals-listener.js';
import { ExitCode } from './errors.js';
import { keepStdoutForProtocol } from './stdout-guard.js';
import { waitForSignal } from './wait-for-signal.js';

export interface ServeOptions {
  stdio?: boolean;
  http?: string;
  tools?: string[];
  root?: string[];
  config?: string;
  /** The HTTP flags (HTTP_FIELDS), by commander's attribute name: every value given, as typed. */
  [httpFlag: string]: unknown;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

const placeholder = (field: HttpField): string =>
  field.kind === 'list'
    ? '<values>'
    : field.kind === 'boolean'
      ? '<true|false>'
      : field.kind === 'integer'
        ? `<${field.unit === 'milliseconds' ? 'ms' : field.unit}>`
        : `<${field.path}>`;

/** " Default 4194304." for settings whose default the table knows (others say it in their description). */
const defaultNote = (field: HttpField): string =>
  field.fallback === undefined || (Array.isArray(field.fallback) && field.fallback.length === 0)
    ? ''
    : ` Default ${Array.isArray(field.fallback) ? field.fallback.join(',') : String(field.fallback)}.`;

/** One flag per setting of the config's "http" section, named after it: allowedHosts is --allowed-hosts. */
const HTTP_FLAGS = HTTP_FIELDS.map((field) => {
  const option = new Option(
    `${flagOf(field.path)} ${placeholder(field)}`,
    `${field.description}${defaultNote(field)}`,
  )
    .argParser(collect)
    .helpGroup('HTTP options (with --http; the same settings as "http" in the config file):');
  return { option, attribute: option.attributeName(), path: field.path };
});

/** Adds the HTTP flags to `toolwire serve`. */
export function addHttpFlags(command: Command): Command {
  for (const { option } of HTTP_FLAGS) command.addOption(option);
  return command;
}

export interface ServeIo {
  stderr: NodeJS.WritableStream;
  /** Only its isTTY is read: someone who starts `serve` by hand in a terminal gets a note saying what it is. */
  stdin?: { isTTY?: boolean };
  version: string;
  cwd: string;
}

/** Over stdio the server speaks JSON-RPC and says nothing; started by hand that looks like a hang. */
const STDIO_TTY_NOTE =
  "toolwire: serving MCP over stdio: this is for an MCP client, not a person (try: toolwire list 'toolwire serve'); " +
  'Ctrl-D or Ctrl-C stops it\n';

export function createReadyServer(version: string, tools: readonly ToolConfig[]): McpServer {
  const server = new McpServer(
    { name: 'toolwire', version, title: 'toolwire ready server' },
    { instructions: 'Tools served by toolwire. Each tool description has an example of use.' },
  );
  for (const tool of tools) server.tool(tool);
  return server;
}

/** One line on what guards the endpoint: the operator sees at startup that the policy is on, and which parts. */
function describePolicy(policy: Policy): string {
  const parts: string[] = [];
  if (policy.bearer !== undefined) parts.push(`OAuth (metadata at ${policy.bearer.resourceMetadataUrl})`);
  if (policy.apiKeys !== undefined) parts.push(`${policy.apiKeys.size} API key(s)`);
  if (policy.http.authenticate === undefined) parts.push('anonymous callers');
  parts.push('per-tool scopes');
  if (policy.rateLimiter !== undefined) parts.push('rate limits');
  if (policy.approvals !== undefined) parts.push('approvals');
  if (policy.audit !== undefined) parts.push(`audit (${policy.audit.store.description})`);
  parts.push(policy.sanitiser === undefined ? 'clean outputs OFF' : 'clean outputs');
  if (policy.telemetry !== undefined) parts.push('traces');
  return parts.join(', ');
}

/** Runs until the transport ends (stdio) or the process is told to stop (HTTP). Returns the exit code. */
export async function serve(options: ServeOptions, io: ServeIo): Promise<number> {
  if (options.stdio === true && options.http !== undefined) {
    io.stderr.write('toolwire: choose one of --stdio and --http\n');
    return ExitCode.Usage;
  }
  const httpFlags = new Map<string, string[]>();
  for (const { attribute, path } of HTTP_FLAGS) {
    const words = options[attribute];
    if (Array.isArray(words)) httpFlags.set(path, words as string[]); // collect() gives string[]
  }
  const [firstFlag] = httpFlags.keys();
  if (options.http === undefined && firstFlag !== undefined) {
    io.stderr.write(`toolwire: ${flagOf(firstFlag)} applies to --http only\n`);
    return ExitCode.Usage;
  }
  let server: McpServer;
  let policy: Policy | undefined;
  let approvals: ApprovalsListening | undefined;
  try {
    const address = options.http === undefined ? undefined : parseAddress(options.http);
    // Before the user's modules load: their console output at load time must not reach the protocol stream either.
    if (address === undefined) keepStdoutForProtocol();
    const loaded = await loadServeConfig({
      http: httpFlags,
      ...(options.tools !== undefined && { tools: options.tools }),
      ...(options.root !== undefined && { roots: options.root }),
      ...(options.config !== undefined && { config: options.config }),
      cwd: io.cwd,
      logger: stderrLogger,
    });
    server = createReadyServer(io.version, loaded.tools);
    if (loaded.policy !== undefined) {
      try {
        // Loaded only when a policy is configured: jose and the rate limiter cost startup time nobody else pays.
        const { loadPolicy } = await import('../policy/index.js');
        policy = await loadPolicy({ logger: stderrLogger, ...loaded.policy });
      } catch (error) {
        // The pieces check what the reader cannot (URLs, scope strings, globs, the keys file): a config mistake too.
        throw new ConfigError(`policy: ${error instanceof Error ? error.message : String(error)}`);
      }
      policy.install(server);
      const admin = loaded.policy.approvalsAdmin;
      if (admin !== undefined) {
        approvals = await listenApprovals(policy, admin);
        if (approvals !== undefined) io.stderr.write(`toolwire: approvals at ${approvals.url}\n`);
      }
    }
    if (address === undefined) {
      if (io.stdin?.isTTY === true) io.stderr.write(STDIO_TTY_NOTE);
      const serving = await serveStdio(server, policy?.stdio);
      await serving.closed;
      await approvals?.close();
      await policy?.close();
      return ExitCode.Success;
    }
    // The HTTP transport loads only for --http: a stdio server (what hosts start at launch) does not pay for it.
    const { listenHttp } = await import('../transports/http/index.js');
    const listening = await listenHttp(server, { ...loaded.http, ...policy?.http, ...address });
    io.stderr.write(`toolwire: listening on ${listening.url}\n`);
    if (policy !== undefined) io.stderr.write(`toolwire: policy: ${describePolicy(policy)}\n`);
    io.stderr.write(`toolwire: roots: ${loaded.roots.list.join(', ')}\n`);
    io.stderr.write(
      `toolwire: tools: ${
        server.tools
          .enabled()
          .map((tool) => tool.name)
          .join(', ') || '(none)'
      }\n`,
    );
    await waitForSignal();
    await server.close();
    await listening.close();
    await approvals?.close();
    await policy?.close();
    return ExitCode.Success;
  } catch (error) {
    await approvals?.close();
    await policy?.close().catch(() => undefined);
    const usage =
      error instanceof ConfigError || (error instanceof Error && error.message.startsWith('--http'));
    io.stderr.write(`toolwire: ${error instanceof Error ? error.message : String(error)}\n`);
    return usage ? ExitCode.Usage : ExitCode.Connection;
  }
}
