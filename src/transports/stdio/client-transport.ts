// The client side of stdio: launches the server as a child process and speaks newline-delimited JSON-RPC with it.

import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { MessageExtra, SendOptions, Transport } from '../../protocol/index.js';
import { StderrTail } from './client-stderr-tail.js';
import { LineSplitter } from './line-splitter.js';
import { DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_QUEUED_BYTES } from './server-transport.js';
import { TurnBatch } from './turn-batch.js';

export const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
export const DEFAULT_CLOSE_TIMEOUT_MS = 2000;
/** After 'exit', how long to wait for the pipes to close (a grandchild may hold them) before giving up on them. */
const PIPE_GRACE_MS = 500;
/**
 * How long a SIGKILLed child may take to be reported gone, at least. SIGKILL always works (bar a process stuck in
 * the kernel), but on a loaded machine the exit can take longer than a short close timeout; giving up then would
 * report a kill that did succeed as a failure.
 */
const MIN_KILL_WAIT_MS = 2000;

export interface StdioClientTransportOptions {
  /** The program to run. Never passed through a shell; use parseCommandLine to split a user's command line. */
  command: string;
  args?: readonly string[];
  /** The child's whole environment (not merged with process.env). Defaults to inheriting process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /** Largest accepted line from the server, in bytes; a longer line is skipped and reported through onerror. */
  maxLineBytes?: number;
  /** What to do with the server's stderr: keep its tail (and call onstderr), pass it through, or drop it. */
  stderr?: 'capture' | 'inherit' | 'ignore';
  /** Size of the stderr tail kept in 'capture' mode. */
  maxStderrBytes?: number;
  /** Outgoing bytes held back while the child's stdin is not draining; past this, send() throws. */
  maxQueuedBytes?: number;
  /** close(): how long to wait after closing stdin, and again after SIGTERM, before escalating. */
  closeTimeoutMs?: number;
}

type Exit = { code: number | null; signal: NodeJS.Signals | null };

export class StdioClientTransport implements Transport {
  onmessage?: (message: string | unknown, extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Each piece of the server's stderr as it arrives ('capture' mode), decoded without splitting characters. */
  onstderr?: (chunk: string) => void;
  /** Cancellation on stdio is a notifications/cancelled message, not a closed stream. */
  readonly closesStreamToCancel = false;

  readonly #command: string;
  readonly #args: readonly string[];
  readonly #env: Readonly<Record<string, string | undefined>> | undefined;
  readonly #cwd: string | undefined;
  readonly #stderrMode: 'capture' | 'inherit' | 'ignore';
  readonly #maxLineBytes: number;
  readonly #maxQueuedBytes: number;
  readonly #closeTimeoutMs: number;
  readonly #splitter: LineSplitter;
  readonly #stderrTail: StderrTail;
  readonly #stderrDecoder = new StringDecoder('utf8');
  #child: ChildProcess | undefined;
  #started = false;
  /** True from the moment the child is known to be gone (or never came up): no more input is delivered. */
  #ended = false;
  #exit: Exit | undefined;
  #closing: Promise<void> | undefined;
  readonly #finished: Promise<void>;
  #resolveFinished!: () => void;
  /** True from a write that returned false until 'drain': further output waits in #queue. */
  #congested = false;
  #queue: string[] = [];
  #queuedBytes = 0;
  /**
   * Lines sent during this event-loop turn, written once right after it: a gateway with 16 calls in flight wakes its
   * child once, not 16 times. Empty while congested: send() then queues directly, so the byte limit is enforced
   * where the caller sees it.
   */
  readonly #batch = new TurnBatch((data) => {
    if (!this.#ended) this.#write(data, false);
  });

  constructor(options: StdioClientTransportOptions) {
    if (typeof options.command !== 'string' || options.command === '') {
      throw new TypeError('StdioClientTransport: command must be a non-empty string');
    }
    this.#command = options.command;
    this.#args = [...(options.args ?? [])];
    this.#env = options.env;
    this.#cwd = options.cwd;
    this.#stderrMode = options.stderr ?? 'capture';
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.#closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    this.#stderrTail = new StderrTail(options.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES);
    this.#splitter = new LineSplitter({
      maxLineBytes: this.#maxLineBytes,
      onLine: (line) => this.#deliver(line),
      onOversize: ({ bytes }) =>
        this.#report(
          new Error(
            `stdio: skipped a ${bytes}-byte line from the server over the ${this.#maxLineBytes}-byte limit`,
          ),
        ),
    });
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
  }

  /** The child's process id once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The exit code once the child has exited normally; null if a signal ended it; undefined while running. */
  get exitCode(): number | null | undefined {
    return this.#exit?.code;
  }

  /** The signal that ended the child, if one did; undefined while running. */
  get signal(): NodeJS.Signals | null | undefined {
    return this.#exit?.signal;
  }

  /** The last maxStderrBytes of the server's stderr ('capture' mode), for error messages and diagnostics. */
  get stderrText(): string {
    return this.#stderrTail.text;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioClientTransport already started');
    this.#started = true;
    if (this.#closing) throw new Error('transport closed');
    let child: ChildProcess;
    try {
      child = spawn(this.#command, this.#args, {
        shell: false,
        stdio: ['pipe', 'pipe', this.#stderrMode === 'capture' ? 'pipe' : this.#stderrMode],
        // Spread because spawn's type wants a mutable record; the caller's object is never touched.
        ...(this.#env !== undefined && { env: { ...this.#env } }),
        ...(this.#cwd !== undefined && { cwd: this.#cwd }),
        windowsHide: true,
      });
    } catch (error) {
      // Invalid arguments (a NUL byte in the command, say) throw synchronously instead of emitting 'error'.
      this.#giveUp();
      throw new Error(`cannot start "${this.#command}": ${messageOf(error)}`, { cause: error });
    }
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      const onSpawn = (): void => {
        child.off('error', onStartError);
        resolve();
      };
      const onStartError = (error: NodeJS.ErrnoException): void => {
        child.off('spawn', onSpawn);
        this.#giveUp();
        reject(startError(this.#command, this.#cwd, error));
      };
      child.once('spawn', onSpawn);
      child.once('error', onStartError);
    });
    this.#attach(child);
  }

  send(message: string, _options?: SendOptions): void {
    if (this.#child === undefined) throw new Error('StdioClientTransport not started');
    if (this.#ended || this.#closing) throw new Error('transport closed');
    if (message.includes('\n')) throw new Error('stdio: a message must not contain a raw line break');
    if (this.#congested) {
      this.#write(message + '\n');
      return;
    }
    this.#batch.add(message);
  }

  /** Closes stdin, waits for the child to exit, then sends SIGTERM and finally SIGKILL. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  #attach(child: ChildProcess): void {
    child.on('error', this.#onChildError);
    child.once('exit', this.#onExit);
    child.once('close', this.#finish);
    child.stdout?.on('data', this.#onStdout);
    child.stdout?.once('end', () => this.#splitter.end());
    child.stdout?.on('error', this.#onChildError);
    child.stdin?.on('error', this.#onStdinError);
    child.stderr?.on('data', this.#onStderr);
    child.stderr?.on('error', this.#onChildError);
  }

  #onStdout = (chunk: Buffer): void => {
    this.#splitter.push(chunk);
  };

  #onStderr = (chunk: Buffer): void => {
    this.#stderrTail.push(chunk);
    if (this.onstderr === undefined) return;
    const text = this.#stderrDecoder.write(chunk);
    if (text === '') return;
    try {
      this.onstderr(text);
    } catch (error) {
      this.#report(error);
    }
  };

  #onChildError = (error: Error): void => this.#report(error);

  #onStdinError = (error: NodeJS.ErrnoException): void => {
    // EPIPE: the child stopped reading, usually because it exited; 'exit' reports that.
    if (error.code !== 'EPIPE') this.#report(error);
  };

  #onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.#exit = { code, signal };
    // 'close' normally follows once the pipes drain; a grandchild that inherited them can hold them open forever.
    setTimeout(this.#finish, PIPE_GRACE_MS).unref();
  };

  #onDrain = (): void => {
    this.#congested = false;
    if (this.#ended || this.#queue.length === 0) return;
    const data = this.#queue.join('');
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#write(data);
  };

  /** The child is gone and its output is read (or given up on): stop everything and fire onclose once. */
  #finish = (): void => {
    if (this.#ended) return;
    this.#ended = true;
    const child = this.#child;
    if (child !== undefined) {
      child.stdout?.off('data', this.#onStdout);
      child.stderr?.off('data', this.#onStderr);
      child.stdin?.off('drain', this.#onDrain);
      // Only matters when a grandchild still holds the pipes: stop waiting on them.
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    }
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#batch.take();
    this.#resolveFinished();
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  };

  async #shutdown(): Promise<void> {
    const child = this.#child;
    if (child === undefined) this.#giveUp();
    if (child === undefined || this.#ended) return this.#finished;
    // Messages sent before close still go out; ending stdin is the graceful signal (spec: stdio shutdown).
    const rest = this.#queue.join('') + this.#batch.take();
    this.#queue = [];
    this.#queuedBytes = 0;
    child.stdin?.off('drain', this.#onDrain);
    child.stdin?.end(rest);
    if (await this.#exitedWithin(this.#closeTimeoutMs)) return this.#finished;
    child.kill('SIGTERM');
    if (await this.#exitedWithin(this.#closeTimeoutMs)) return this.#finished;
    child.kill('SIGKILL');
    // SIGKILL cannot be caught; only a process stuck in the kernel survives it, and that is not worth hanging for.
    if (!(await this.#exitedWithin(Math.max(this.#closeTimeoutMs, MIN_KILL_WAIT_MS)))) {
      this.#report(new Error(`stdio: "${this.#command}" (pid ${child.pid}) did not exit after SIGKILL`));
      this.#finish();
    }
    return this.#finished;
  }

  /** Resolves true once the child has exited and its pipes are done, false after `ms`. */
  #exitedWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.#finished.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  #giveUp(): void {
    this.#ended = true;
    this.#resolveFinished();
  }

  #deliver(line: string): void {
    if (this.#ended) return;
    try {
      this.onmessage?.(line);
    } catch (error) {
      this.#report(error);
    }
  }

  /** Writes now, or queues while the child is not draining (`limited`: past maxQueuedBytes, throw instead). */
  #write(data: string, limited = true): void {
    const stdin = this.#child?.stdin;
    if (stdin == null) return;
    if (!this.#congested) {
      if (!stdin.write(data)) {
        this.#congested = true;
        stdin.once('drain', this.#onDrain);
      }
      return;
    }
    const bytes = Buffer.byteLength(data);
    if (limited && this.#queuedBytes + bytes > this.#maxQueuedBytes) {
      throw new Error(
        `stdio: the server is not reading its stdin; more than ${this.#maxQueuedBytes} bytes are queued`,
      );
    }
    this.#queue.push(data);
    this.#queuedBytes += bytes;
  }

  #report(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The Error start() rejects with: says which command and why, in words a user can act on. */
function startError(command: string, cwd: string | undefined, error: NodeJS.ErrnoException): Error {
  let reason: string;
  if (error.code === 'ENOENT') {
    // spawn reports a missing working directory as a missing command.
    reason = cwd !== undefined && !isDirectory(cwd) ? `working directory "${cwd}" not found` : 'not found';
  } else if (error.code === 'EACCES') reason = 'permission denied';
  else reason = error.message;
  return new Error(`cannot start "${command}": ${reason}`, { cause: error });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
