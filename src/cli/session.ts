// What `list` and `call` share: connecting a client to a TARGET, and turning failures into messages and exit codes.

import { createInterface } from 'node:readline';
import {
  ApprovalDeniedError,
  ConnectionClosedError,
  McpClient,
  McpError,
  OutputValidationError,
  ProtocolError,
  RequestAbortedError,
  RequestTimeoutError,
  type ApprovalHook,
} from '../client/index.js';
import { TransportError } from '../protocol/index.js';
import { ExitCode, UsageError } from './errors.js';
import { resolveTarget, type ResolvedTarget } from './target.js';

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
}

export async function connect(
  targetText: string,
  options: CommonOptions,
  io: CliIo,
  approve: ApprovalHook | 'always' | undefined,
): Promise<Connected> {
  const target = resolveTarget(targetText, {
    headers: options.header ?? [],
    ...(options.config !== undefined && { config: options.config }),
    cwd: io.cwd,
    env: io.env,
  });
  const client = new McpClient(
    { name: 'toolwire', version: io.version },
    {
      timeoutMs: parseTimeout(options.timeout),
      trusted: options.trust === true || target.trusted,
      logger: { warn: (message) => io.stderr.write(`toolwire: warning: ${message}\n`) },
      ...(approve !== undefined && { approve }),
    },
  );
  try {
    await client.connect(target.create());
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, target };
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

/** One clear line (with what to do next) and the exit code, for anything a command throws. */
export function explain(
  error: unknown,
  target: ResolvedTarget | undefined,
  label: string,
): { message: string; code: number } {
  const where = target?.label ?? label;
  const stderrTail = (): string => {
    const text = target?.stderr?.().trim();
    return text ? `\nthe server's stderr ended with:\n${text.split('\n').slice(-10).join('\n')}` : '';
  };
  if (error instanceof UsageError)
    return { message: `${error.message}\nrun "toolwire --help" for usage`, code: ExitCode.Usage };
  if (error instanceof ApprovalDeniedError) return { message: error.message, code: ExitCode.Usage };
  if (error instanceof RequestTimeoutError) {
    return {
      message: `${error.message}; raise --timeout if the tool needs longer`,
      code: ExitCode.Connection,
    };
  }
  if (error instanceof RequestAbortedError) return { message: error.message, code: ExitCode.Interrupted };
  if (error instanceof OutputValidationError) {
    return {
      message: `${error.message}\n(the server broke its own outputSchema; report it to the server's authors)`,
      code: ExitCode.Connection,
    };
  }
  if (error instanceof McpError) return { message: `${where}: ${error.message}`, code: ExitCode.Connection };
  if (error instanceof TransportError) {
    return {
      message: `${where}: ${error.message}; check the URL and that the server is running`,
      code: ExitCode.Connection,
    };
  }
  if (error instanceof ConnectionClosedError || error instanceof ProtocolError) {
    return { message: `${where}: ${error.message}${stderrTail()}`, code: ExitCode.Connection };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: `${where}: ${text}${stderrTail()}`, code: ExitCode.Connection };
}
