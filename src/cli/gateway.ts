// `toolwire gateway`: the servers of toolwire.json's "mcpServers" behind one endpoint (stdio by default, or Streamable
// HTTP with --http) with the policy layer in front; `toolwire gateway status` shows the health of each upstream.

import { Option, type Command } from 'commander';
import { loadGatewayConfig } from '../gateway/config.js';
import type { Gateway } from '../gateway/gateway.js';
import { NamingError } from '../gateway/naming/index.js';
import { UpstreamConfigError } from '../gateway/upstream/index.js';
import {
  isRunning,
  keepStatus,
  readStatus,
  writeStatus,
  type GatewayStatus,
} from '../gateway/status-file.js';
import { stderrLogger } from '../server/index.js';
import { HTTP_FIELDS, flagOf, mergeHttp, readHttpFlags, toHttpOptions } from '../tools/http-config.js';
import { ConfigError } from '../tools/index.js';
import { listenHttp } from '../transports/http/index.js';
import { serveStdio } from '../transports/stdio/index.js';
import { parseAddress } from './address.js';
import { listenApprovals, type ApprovalsListening } from './approvals-listener.js';
import { ExitCode } from './errors.js';
import { addHttpFlags } from './serve.js';
import { keepStdoutForProtocol } from './stdout-guard.js';
import { renderTable } from './table.js';
import { waitForSignal } from './wait-for-signal.js';

export interface GatewayCommandOptions {
  stdio?: boolean;
  http?: string;
  config?: string;
  json?: boolean;
  [httpFlag: string]: unknown;
}

export interface GatewayIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin?: { isTTY?: boolean };
  cwd: string;
  version: string;
}

const STDIO_TTY_NOTE =
  'toolwire: the gateway serves MCP over stdio: this is for an MCP client, not a person; Ctrl-D or Ctrl-C stops it\n';

/** Adds `toolwire gateway` and `toolwire gateway status`. */
export function addGatewayCommand(program: Command, io: GatewayIo, setExit: (code: number) => void): void {
  addHttpFlags(
    program
      .command('gateway')
      .description(
        'Serve the servers of "mcpServers" behind one endpoint (stdio by default, or --http); "gateway status" shows their health',
      )
      .argument(
        '[action]',
        '"status": the health of each upstream of a running gateway (from its status file)',
      )
      .option('--stdio', 'serve over stdin/stdout (the default)')
      .option(
        '--http <[host:]port>',
        'serve Streamable HTTP at http://HOST:PORT/mcp (port 0 picks a free port)',
      )
      .option(
        '--config <file>',
        'the toolwire.json with "mcpServers", "gateway" and "policy" (default: ./toolwire.json)',
      )
      .option('--json', 'status: the status file as JSON'),
  ).action(async (action: string | undefined, options: GatewayCommandOptions) => {
    if (action === undefined) setExit(await runGateway(options, io));
    else if (action === 'status') setExit(gatewayStatus(options, io));
    else {
      io.stderr.write(
        `toolwire: unknown gateway action ${JSON.stringify(action.slice(0, 40))}; the one action is "status"\n`,
      );
      setExit(ExitCode.Usage);
    }
  });
}

/** The HTTP flags as given, by the dotted path of the "http" setting each overrides. */
function httpFlags(options: GatewayCommandOptions): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  for (const field of HTTP_FIELDS) {
    const words = options[new Option(`${flagOf(field.path)} <value>`).attributeName()];
    if (Array.isArray(words)) flags.set(field.path, words as string[]); // commander's collect gives string[]
  }
  return flags;
}

export async function runGateway(options: GatewayCommandOptions, io: GatewayIo): Promise<number> {
  if (options.stdio === true && options.http !== undefined) {
    io.stderr.write('toolwire: choose one of --stdio and --http\n');
    return ExitCode.Usage;
  }
  const flags = httpFlags(options);
  const [firstFlag] = flags.keys();
  if (options.http === undefined && firstFlag !== undefined) {
    io.stderr.write(`toolwire: ${flagOf(firstFlag)} applies to --http only\n`);
    return ExitCode.Usage;
  }
  let gateway: Gateway | undefined;
  let stopStatus: (() => void) | undefined;
  let approvals: ApprovalsListening | undefined;
  try {
    const address = options.http === undefined ? undefined : parseAddress(options.http);
    if (address === undefined) keepStdoutForProtocol();
    const config = loadGatewayConfig(options.config ?? 'toolwire.json', io.cwd);
    const http = toHttpOptions(mergeHttp(config.http, readHttpFlags(flags)));
    const { createGateway } = await import('../gateway/gateway.js');
    gateway = await createGateway(config, { version: io.version, logger: stderrLogger });
    const admin = config.policy?.approvalsAdmin;
    if (admin !== undefined && gateway.policy !== undefined) {
      // Approvals need their page and API, as with `toolwire serve`: otherwise nobody could ever decide one.
      approvals = await listenApprovals(gateway.policy, admin);
      if (approvals !== undefined) io.stderr.write(`toolwire: approvals at ${approvals.url}\n`);
    }
    await gateway.start();
    const running = gateway;
    const started = new Date().toISOString();
    let url: string | undefined;
    const status = (): GatewayStatus => ({
      pid: process.pid,
      name: config.name,
      transport: address === undefined ? 'stdio' : 'http',
      ...(url !== undefined && { url }),
      startedAt: started,
      updatedAt: new Date().toISOString(),
      upstreams: running.status(),
    });
    const summary = running
      .status()
      .map((health) => `${health.name} (${health.state}, ${health.tools} tools)`)
      .join(', ');
    if (address === undefined) {
      if (io.stdin?.isTTY === true) io.stderr.write(STDIO_TTY_NOTE);
      stopStatus = keepStatus(config.statusFile, status, (error) =>
        io.stderr.write(`toolwire: status file: ${error.message}\n`),
      );
      io.stderr.write(`toolwire: gateway upstreams: ${summary}\n`);
      const serving = await serveStdio(running.server, running.policy?.stdio);
      await serving.closed;
    } else {
      const listening = await listenHttp(running.server, { ...http, ...running.policy?.http, ...address });
      url = listening.url;
      stopStatus = keepStatus(config.statusFile, status, (error) =>
        io.stderr.write(`toolwire: status file: ${error.message}\n`),
      );
      io.stderr.write(`toolwire: listening on ${listening.url}\n`);
      io.stderr.write(`toolwire: gateway upstreams: ${summary}\n`);
      io.stderr.write(`toolwire: status in ${config.statusFile} (toolwire gateway status)\n`);
      await waitForSignal();
      await listening.close();
    }
    stopStatus?.();
    stopStatus = undefined;
    // The last state the upstreams were in while serving (after close they are all "closed", which says nothing).
    const last = status();
    await running.close();
    await approvals?.close();
    try {
      writeStatus(config.statusFile, { ...last, stoppedAt: new Date().toISOString() });
    } catch (error) {
      io.stderr.write(`toolwire: status file: ${(error as Error).message}\n`);
    }
    return ExitCode.Success;
  } catch (error) {
    stopStatus?.();
    await approvals?.close().catch(() => undefined);
    await gateway?.close().catch(() => undefined);
    const usage =
      error instanceof ConfigError ||
      error instanceof NamingError ||
      error instanceof UpstreamConfigError ||
      (error instanceof Error && error.message.startsWith('--http'));
    io.stderr.write(`toolwire: ${error instanceof Error ? error.message : String(error)}\n`);
    return usage ? ExitCode.Usage : ExitCode.Connection;
  }
}

/** Exit 0 when the gateway runs and every upstream is ready, 1 when some upstream is not, 3 when it does not run. */
export function gatewayStatus(options: GatewayCommandOptions, io: GatewayIo): number {
  let file: string;
  let status: GatewayStatus | undefined;
  try {
    file = loadGatewayConfig(options.config ?? 'toolwire.json', io.cwd).statusFile;
    status = readStatus(file);
  } catch (error) {
    io.stderr.write(`toolwire: ${(error as Error).message}\n`);
    return error instanceof ConfigError ? ExitCode.Usage : ExitCode.Connection;
  }
  if (status === undefined) {
    io.stderr.write(`toolwire: no gateway status at ${file}: the gateway of this config has not run\n`);
    return ExitCode.Connection;
  }
  const running = status.stoppedAt === undefined && isRunning(status.pid);
  if (options.json === true) io.stdout.write(`${JSON.stringify({ ...status, running })}\n`);
  else {
    const where = status.url ?? status.transport;
    const state = running
      ? `running (pid ${status.pid}, ${where}), updated ${status.updatedAt}`
      : `not running (${status.stoppedAt === undefined ? `pid ${status.pid} is gone` : `stopped at ${status.stoppedAt}`}); last known state:`;
    io.stdout.write(`gateway ${status.name}: ${state}\n`);
    const rows = status.upstreams.map((health) => [
      health.name,
      health.state,
      health.era ?? '',
      String(health.tools),
      String(health.failures),
      String(health.restarts),
      health.lastError ?? (health.nextAttemptAt === undefined ? '' : `retry at ${health.nextAttemptAt}`),
    ]);
    io.stdout.write(
      `${renderTable(['UPSTREAM', 'STATE', 'ERA', 'TOOLS', 'FAILURES', 'RESTARTS', 'LAST ERROR'], rows)}\n`,
    );
  }
  if (!running) return ExitCode.Connection;
  return status.upstreams.every((health) => health.state === 'ready') ? ExitCode.Success : ExitCode.ToolError;
}
