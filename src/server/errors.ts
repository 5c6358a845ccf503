// Errors a tool author may throw on purpose, registration errors, and the neutral form of everything else.

import { randomBytes } from 'node:crypto';
import { RpcError } from '../jsonrpc/index.js';

/**
 * Throw this from a tool handler to tell the model what went wrong: its message becomes the text of an
 * `isError: true` result, so the model can correct itself. Any other thrown error is hidden behind a neutral
 * message with a reference id, and its details go to the server log.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** A mistake in a tool or server definition, reported at startup (registration), never at call time. */
export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
  }
}

/** A short random id that links a neutral client-facing message to the detailed log line. */
export const newReference = (): string => randomBytes(4).toString('hex');

/** Where the server writes its own diagnostics. Never stdout: on stdio that channel belongs to the protocol. */
export interface Logger {
  debug(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

const describe = (details: unknown): string => {
  if (details === undefined) return '';
  if (details instanceof Error) return `\n${details.stack ?? `${details.name}: ${details.message}`}`;
  try {
    return ` ${JSON.stringify(details)}`;
  } catch {
    return ` ${String(details)}`;
  }
};

/** The default logger: one line per event on stderr; debug lines only when TOOLWIRE_DEBUG is set. */
export const stderrLogger: Logger = {
  debug(message, details) {
    if (process.env.TOOLWIRE_DEBUG) process.stderr.write(`toolwire: debug: ${message}${describe(details)}\n`);
  },
  info(message, details) {
    process.stderr.write(`toolwire: ${message}${describe(details)}\n`);
  },
  warn(message, details) {
    process.stderr.write(`toolwire: warning: ${message}${describe(details)}\n`);
  },
  error(message, details) {
    process.stderr.write(`toolwire: error: ${message}${describe(details)}\n`);
  },
};

/** A logger that drops everything (for tests and embedders that log elsewhere). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** What the transport frames the answer with is never a policy's to set. */
const FRAMING_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'trailer',
  'mcp-session-id',
]);

/** How a refusal is answered on HTTP, where that matters: a status and headers beside the JSON-RPC error. */
export interface DenialOptions {
  /** JSON-RPC error data. */
  data?: unknown;
  /** The HTTP status (401, 403, 429…), when the request came over HTTP and its answer is not streaming yet. */
  httpStatus?: number;
  /** Headers to add on HTTP (WWW-Authenticate, Retry-After). */
  httpHeaders?: Readonly<Record<string, string>>;
}

/**
 * A policy's refusal: thrown (or returned through `request.deny()`) by middleware, answered as the JSON-RPC error it
 * carries, with its HTTP status and headers where the transport has them. The message reaches the client: say what
 * was refused and what would be allowed, never why internally.
 */
export class Denial extends RpcError {
  readonly httpStatus: number | undefined;
  readonly httpHeaders: Readonly<Record<string, string>> | undefined;

  constructor(code: number, message: string, options: DenialOptions = {}) {
    super(code, message, options.data);
    this.name = 'Denial';
    if (
      options.httpStatus !== undefined &&
      (!Number.isInteger(options.httpStatus) || options.httpStatus < 400 || options.httpStatus > 599)
    ) {
      throw new TypeError(
        `a denial's httpStatus must be an integer from 400 to 599, got ${String(options.httpStatus)}`,
      );
    }
    for (const [name, value] of Object.entries(options.httpHeaders ?? {})) {
      if (!HEADER_NAME.test(name) || FRAMING_HEADERS.has(name.toLowerCase())) {
        throw new TypeError(`a denial may not set the HTTP header ${JSON.stringify(name)}`);
      }
      if (typeof value !== 'string' || !HEADER_VALUE.test(value) || value.length > 8192) {
        throw new TypeError(
          `the denial's HTTP header ${JSON.stringify(name)} must be visible ASCII, space and tab (at most 8,192 characters)`,
        );
      }
    }
    this.httpStatus = options.httpStatus;
    this.httpHeaders = options.httpHeaders;
  }
}
