// What `list` and `call` share: connecting a client to a TARGET, asking on the terminal, and writing messages
// (every one passes through terminalText: they quote what servers chose).

import { createInterface } from 'node:readline';
// The client's own files, not its index: list and call over stdio never load the OAuth client.
import { McpClient } from '../client/client.js';
import type { ApprovalHook } from '../client/policy.js';
import { UsageError } from './errors.js';
import { ConnectError, explain } from './explain.js';
import { resolveTarget, type ResolvedTarget } from './target.js';
import { terminalText } from './terminal-text.js';
import { userPins, type UserPins } from './user-pins.js';

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
  const target = await resolveTarget(targetText, {
    headers: options.header ?? [],
    ...(options.config !== undefined && { config: options.config }),
    cwd: io.cwd,
    env: io.env,
  });
  const trusted = options.trust === true || target.trusted;
  const pins = userPins(target, io.env, io.cwd);
  const client = new McpClient(
    { name: 'toolwire', version: io.version },
    {
      timeoutMs: parseTimeout(options.timeout),
      trusted,
      logger: { warn: (message) => say(io, `warning: ${message}`) },
      retry: {
        onRetry: ({ method, attempt, maxAttempts, delayMs, reason }) =>
          say(
            io,
            `${method} failed (${reason}); retrying in ${delayMs} ms (attempt ${attempt} of ${maxAttempts})`,
          ),
      },
      ...(approve !== undefined && { approve }),
      ...(pins !== undefined && { pins: pins.hook }),
    },
  );
  for (const warning of target.warnings) say(io, `warning: ${warning}`);
  try {
    await client.connect(target.create());
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new ConnectError(error, target); // the target's stderr and exit explain why, and it is not returned
  }
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
