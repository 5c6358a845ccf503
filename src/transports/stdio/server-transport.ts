// The server side of stdio: newline-delimited JSON-RPC read from stdin and written to stdout, bounded both ways.

import type { Readable, Writable } from 'node:stream';
import { encodeError, ErrorCode } from '../../jsonrpc/index.js';
import {
  LOCAL_CALLER,
  STDIO_TRANSPORT,
  type Caller,
  type MessageExtra,
  type SendOptions,
  type Transport,
} from '../../protocol/index.js';
import { LineSplitter } from './line-splitter.js';
import { PacedLines } from './paced-lines.js';
import { TurnBatch } from './turn-batch.js';

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;

export interface StdioServerTransportOptions {
  /** Defaults to process.stdin. Never ended or destroyed by the transport: it only stops reading. */
  stdin?: Readable;
  /** Defaults to process.stdout. Never ended or destroyed by the transport: it only stops writing. */
  stdout?: Writable;
  /** Largest incoming message in bytes; a longer line is answered with -32600 and skipped. */
  maxLineBytes?: number;
  /** Outgoing bytes held back while stdout is not draining; past this the transport reports an error and closes. */
  maxQueuedBytes?: number;
  /**
   * Who is calling: every message carries it as `extra.auth`. Default LOCAL_CALLER, the process that started this
   * one (a stdio server trusts its parent as the local user).
   */
  caller?: Caller;
}

export class StdioServerTransport implements Transport {
  onmessage?: (message: string | unknown, extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxLineBytes: number;
  readonly #maxQueuedBytes: number;
  readonly #splitter: LineSplitter;
  /** Lines read, handed on a slice per turn (paced-lines.ts). */
  readonly #paced: PacedLines;
  /** What every incoming message carries: one frozen object for the transport's life, nothing per message. */
  readonly #extra: MessageExtra;
  #started = false;
  #closed = false;
  /** True from a write that returned false until 'drain': further output waits in #queue. */
  #congested = false;
  #queue: string[] = [];
  #queuedBytes = 0;
  /** Answers produced by one turn of the event loop (many requests in flight), written once right after it. */
  readonly #batch = new TurnBatch((data) => {
    if (!this.#closed) this.#write(data);
  });

  constructor(options: StdioServerTransportOptions = {}) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.#extra = Object.freeze({ auth: options.caller ?? LOCAL_CALLER, transport: STDIO_TRANSPORT });
    this.#paced = new PacedLines({
      deliver: (line) => this.#deliver(line),
      oversize: (bytes) => this.#rejectOversize(bytes),
      between: () => this.#batch.flush(),
      pause: () => this.#stdin.pause(),
      resume: () => {
        if (!this.#closed) this.#stdin.resume();
      },
    });
    this.#splitter = new LineSplitter({
      maxLineBytes: this.#maxLineBytes,
      onLine: (line) => this.#paced.line(line),
      onOversize: ({ bytes }) => this.#paced.oversize(bytes),
    });
  }

  async start(): Promise<void> {
    if (this.#closed) throw new Error('transport closed');
    if (this.#started) throw new Error('StdioServerTransport already started');
    this.#started = true;
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onStdinClose);
    this.#stdin.on('error', this.#onStdinError);
    this.#stdout.on('error', this.#onStdoutError);
    // A 'data' listener does not restart a stream that was paused explicitly (say, by an earlier transport).
    this.#stdin.resume();
  }

  send(message: string, _options?: SendOptions): void {
    if (this.#closed) throw new Error('transport closed');
    this.#batch.add(message);
  }

  async close(): Promise<void> {
    this.#shutdown(false);
  }

  #onData = (chunk: Buffer | string): void => {
    // Strings only arrive if someone called setEncoding on stdin; the splitter wants bytes.
    this.#splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    this.#paced.pump();
  };

  #onEnd = (): void => {
    this.#splitter.end();
    this.#paced.drain();
    this.#shutdown(false);
  };

  #onStdinClose = (): void => this.#shutdown(false);

  #onStdinError = (error: Error): void => {
    this.#report(error);
    this.#shutdown(false);
  };

  #onStdoutError = (error: NodeJS.ErrnoException): void => {
    // After close the listener only stays to keep a late write error from becoming an uncaught exception.
    if (this.#closed) return;
    // EPIPE means the client went away: an ordinary end of the session, not an error worth reporting.
    if (error.code !== 'EPIPE') this.#report(error);
    this.#shutdown(true);
  };

  #onDrain = (): void => {
    this.#congested = false;
    if (this.#closed || this.#queue.length === 0) return;
    const data = this.#queue.join('');
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#write(data);
  };

  #deliver(line: string): void {
    if (this.#closed) return;
    try {
      this.onmessage?.(line, this.#extra);
    } catch (error) {
      this.#report(error);
    }
  }

  #rejectOversize(bytes: number): void {
    if (this.#closed) return;
    const limit = this.#maxLineBytes;
    this.#batch.flush(); // keeps answers in the order their requests came
    this.#write(
      encodeError(
        undefined,
        ErrorCode.InvalidRequest,
        `Invalid Request: message exceeds the ${limit}-byte line limit`,
      ) + '\n',
    );
    this.#report(new Error(`stdio: skipped a ${bytes}-byte line over the ${limit}-byte limit`));
  }

  #write(data: string): void {
    if (!this.#congested) {
      if (!this.#stdout.write(data)) {
        this.#congested = true;
        this.#stdout.once('drain', this.#onDrain);
      }
      return;
    }
    const bytes = Buffer.byteLength(data);
    if (this.#queuedBytes + bytes > this.#maxQueuedBytes) {
      this.#report(
        new Error(`stdio: stdout is not draining; more than ${this.#maxQueuedBytes} bytes are queued`),
      );
      this.#shutdown(false, true);
      return;
    }
    this.#queue.push(data);
    this.#queuedBytes += bytes;
  }

  /** Stops using both streams (never ends them) and fires onclose once. */
  #shutdown(stdoutFailed: boolean, dropQueue = false): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#paced.stop();
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onStdinClose);
    this.#stdin.off('error', this.#onStdinError);
    // Pausing lets the process exit once nothing else reads stdin; another reader keeps it flowing.
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#stdout.off('drain', this.#onDrain);
    const pending = this.#batch.take();
    const rest = dropQueue ? '' : this.#queue.join('') + pending;
    this.#queue = [];
    this.#queuedBytes = 0;
    if (stdoutFailed || this.#stdout.destroyed || (rest === '' && this.#stdout.writableLength === 0)) {
      this.#stdout.off('error', this.#onStdoutError);
    } else {
      // Messages sent before close still go out. Write callbacks run in order, so this one (even for '') tells
      // when stdout has taken everything; until then a late EPIPE is swallowed instead of crashing the process.
      this.#stdout.write(rest, (error) => {
        if (error == null) this.#stdout.off('error', this.#onStdoutError);
      });
    }
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}
