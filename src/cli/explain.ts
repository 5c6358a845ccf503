// Turning whatever a command throws into one clear message (with what to do next) and the exit code.

import {
  ApprovalDeniedError,
  ConnectionClosedError,
  McpError,
  OutputValidationError,
  ProtocolError,
  RequestAbortedError,
  RequestTimeoutError,
} from '../client/errors.js'; // not the client's index: that loads OAuth too
import { TransportError } from '../protocol/index.js';
import { ExitCode, NEEDS_LOGIN, RefusedError, UsageError } from './errors.js';
import type { ResolvedTarget } from './target.js';
import { terminalLine } from './terminal-text.js';
import { fitWidth } from './terminal-width.js';

/** How much of a crashed server's stderr is quoted: the last lines, each cut to a screen-friendly width. */
const TAIL_LINES = 10;
const TAIL_LINE_WIDTH = 300;

/** connect() failed: the failure, and the target it was for (its stderr and exit say why a server died). */
export class ConnectError extends Error {
  readonly target: ResolvedTarget;
  constructor(failure: unknown, target: ResolvedTarget) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
    this.name = 'ConnectError';
    this.target = target;
  }
}

/** How a stdio server ended and the end of its stderr, as lines to add to a message ('' when nothing is known). */
function serverEnd(target: ResolvedTarget | undefined): string {
  const exit = target?.exit?.();
  const text = target?.stderr?.().trim() ?? '';
  const how =
    exit === undefined
      ? undefined
      : exit.signal !== null
        ? `the server was killed by ${exit.signal}`
        : `the server exited with code ${exit.code}`;
  if (text === '') return how === undefined ? '' : `\n${how} (it wrote nothing to stderr)`;
  const lines = text
    .split('\n')
    .slice(-TAIL_LINES)
    .map((line) => fitWidth(terminalLine(line.replace(/\r$/, '')), TAIL_LINE_WIDTH));
  return `\n${how === undefined ? "the server's stderr" : `${how}; its stderr`} ended with:\n${lines.join('\n')}`;
}

const AUTH_HINT = '--header "Authorization: Bearer <token>" (or "headers" in its mcpServers entry)';

/** What to do about an HTTP status that is about credentials, or '' for any other status. */
function statusHint(status: number | undefined): string {
  if (status === 401) return `\nthe server wants credentials: pass them with ${AUTH_HINT}`;
  if (status === 403)
    return `\nthe server refused the credentials sent, or they do not allow this: check ${AUTH_HINT}`;
  return '';
}

/** OpenSSL's own words ("…:SSL routines:ssl3_get_record:wrong version number:…") in plain terms, or undefined. */
function tlsProblem(message: string, where: string): string | undefined {
  const reason = /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1];
  if (reason === undefined) return undefined;
  if (/wrong version number|packet length too long|http request/i.test(reason) && /^https:/i.test(where)) {
    return `the server did not answer with TLS; if it serves plain HTTP, use ${where.replace(/^https:/i, 'http:')}`;
  }
  return `the TLS handshake failed (${reason}); check the URL's scheme and port`;
}

const startedButMissing = (error: unknown): boolean =>
  error instanceof Error && (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** One clear message (with what to do next) and the exit code, for anything a command throws. */
export function explain(
  error: unknown,
  target: ResolvedTarget | undefined,
  label: string,
): { message: string; code: number } {
  if (error instanceof ConnectError) return explain(error.cause, error.target, label);
  const where = target?.label ?? label;
  if (error instanceof UsageError)
    return { message: `${error.message}\nrun "toolwire --help" for usage`, code: ExitCode.Usage };
  if (error instanceof RefusedError || error instanceof ApprovalDeniedError)
    return { message: error.message, code: ExitCode.Usage };
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
  if (error instanceof McpError) {
    return {
      message: `${where}: ${error.message}${statusHint(error.httpStatus)}`,
      code: ExitCode.Connection,
    };
  }
  // The OAuth client's "log in first" reaches us as a failed POST; its message already says what to do.
  if (error instanceof TransportError && error.message.includes(NEEDS_LOGIN))
    return { message: `${where}: ${error.message}`, code: ExitCode.Connection };
  if (error instanceof TransportError) {
    const tls = tlsProblem(error.message, where);
    if (tls !== undefined) return { message: `${where}: ${tls}`, code: ExitCode.Connection };
    const hint = statusHint(error.status);
    return {
      message: `${where}: ${error.message}${hint === '' ? '; check the URL and that the server is running' : hint}`,
      code: ExitCode.Connection,
    };
  }
  if (error instanceof ConnectionClosedError || error instanceof ProtocolError) {
    return { message: `${where}: ${error.message}${serverEnd(target)}`, code: ExitCode.Connection };
  }
  const text = error instanceof Error ? error.message : String(error);
  if (target?.notFoundHint !== undefined && startedButMissing(error))
    return { message: `${where}: ${text}\n${target.notFoundHint}`, code: ExitCode.Connection };
  return { message: `${where}: ${text}${serverEnd(target)}`, code: ExitCode.Connection };
}
