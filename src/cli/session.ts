// What `list` and `call` share: connecting a client to a TARGET, asking on the terminal, and writing messages
// (every one passes through terminalText: they quote what servers chose).

import { createInterface } from 'node:readline';
// The client's own files, not its index: list and call over stdio never load the OAuth client. The client itself,
// the pins and the era memory load in connect(), after a stdio server has been started (see early-start.ts).
import type { McpClient } from '../client/client.js';
import { McpError, ProtocolError } from '../client/errors.js';
import type { ApprovalHook } from '../client/policy.js';
import type { Transport } from '../protocol/index.js';
import { startedEarly } from './early-start.js';
import { UsageError } from './errors.js';
import { ConnectError, explain } from './explain.js';
import { resolveTarget, type ResolvedTarget } from './target.js';
import { terminalText } from './terminal-text.js';
import type { UserPins } from './user-pins.js';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  version: string;
}

export interface CommonOptions {
  header?: string[];
  timeout?: string;
  json?: boolean;
  config?: string;
  trust?: boolean;
}

export function parseTimeout(value: string | undefined): number {
  if (value === undefined) return 60_000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new UsageError(`--timeout expects milliseconds (a positive integer), got ${JSON.stringify(value)}`);
  return ms;
}

export interface Connected {
  client: McpClient;
  target: ResolvedTarget;
  /** Whether the server's annotations count (--trust, or "trusted": true in its config entry). */
  trusted: boolean;
  /** The user's tool pins the client checks listed tools against (close after the client). */
  pins?: UserPins;
}

export async function connect(
  targetText: string,
  options: CommonOptions,
  io: CliIo,
  approve: ApprovalHook | 'always' | undefined,
): Promise<Connected> {
  const timeoutMs = parseTimeout(options.timeout); // a usage error before any server is started
  const target = await resolveTarget(targetText, {
    headers: options.header ?? [],
    ...(options.config !== undefined && { config: options.config }),
    cwd: io.cwd,
    env: io.env,
  });
  // A stdio server starts now, while the client's modules load below.
  let early: Transport | undefined = target.url === undefined ? startedEarly(target.create()) : undefined;
  const loading = Promise.all([
    import('../client/client.js'),
    import('./era-memory.js'),
    import('./user-pins.js'),
  ]);
  const [{ McpClient }, { eraMemory }, { pinServerKey, userPins }] = await loading.catch(
    async (error: unknown) => {
      await early?.close();
      throw error;
    },
  );
  const trusted = options.trust === true || target.trusted;
  const pins = userPins(target, io.env, io.cwd);
  // A stdio server that spoke only legacy last time is greeted with initialize at once (no server/discover first).
  const memory = target.url === undefined ? eraMemory(pinServerKey(target, io.cwd), io.env) : undefined;
  const open = async (era: 'legacy' | undefined): Promise<McpClient> => {
    const transport = early ?? target.create(); // the early one for the first try, a new process after
    early = undefined;
    let client: McpClient | undefined;
    try {
      client = new McpClient(
        { name: 'toolwire', version: io.version },
        {
          timeoutMs,
          trusted,
          logger: { warn: (message) => say(io, `warning: ${message}`) },
          retry: {
            onRetry: ({ method, attempt, maxAttempts, delayMs, reason }) =>
              say(
                io,
                `${method} failed (${reason}); retrying in ${delayMs} ms (attempt ${attempt} of ${maxAttempts})`,
              ),
          },
          ...(era !== undefined && { era }),
          ...(approve !== undefined && { approve }),
          ...(pins !== undefined && { pins: pins.hook }),
        },
      );
      await client.connect(transport);
      return client;
    } catch (error) {
      await (client?.close() ?? transport.close()).catch(() => undefined);
      throw error;
    }
  };
  for (const warning of target.warnings) say(io, `warning: ${warning}`);
  let client: McpClient;
  try {
    try {
      client = await open(memory?.remembered);
    } catch (error) {
      // The server answered but refused the legacy handshake: it changed since; negotiate afresh (a new process).
      const refused = error instanceof McpError || error instanceof ProtocolError;
      if (memory?.remembered === undefined || !refused) throw error;
      memory.settled('modern');
      client = await open(undefined);
    }
  } catch (error) {
    throw new ConnectError(error, target); // the target's stderr and exit explain why, and it is not returned
  }
  memory?.settled(client.era);
  return { client, target, trusted, ...(pins !== undefined && { pins }) };
}

/** Asks yes/no on the terminal; anything but y/yes is no. */
export function askYesNo(io: CliIo, question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
    rl.question(question, (answer) => {
      resolve(/^(y|yes)$/i.test(answer.trim())); // before close(): its handler resolves "no"
      rl.close();
    });
    rl.on('close', () => resolve(false));
  });
}

/** `toolwire: MESSAGE` on stderr, made safe for a terminal. */
export function say(io: CliIo, message: string): void {
  io.stderr.write(`toolwire: ${terminalText(message)}\n`);
}

/** Says what went wrong (with the target's stderr and exit where they explain it) and returns the exit code. */
export function fail(io: CliIo, error: unknown, connected: Connected | undefined, label: string): number {
  const { message, code } = explain(error, connected?.target, label);
  say(io, message);
  return code;
}
