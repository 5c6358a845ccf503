// Running the `authenticate` hook on a request to the MCP endpoint, before its body is read: a Caller goes on with
// the request; a challenge (401 + WWW-Authenticate, 403…) or a failure is answered here.

import { ErrorCode } from '../../jsonrpc/index.js';
import type { Caller } from '../../protocol/index.js';
import type { HttpAuthenticate, HttpRequestView } from './edge.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';
import { callHook, hookHeaders, sendHookFailure } from './hook-call.js';
import type { ResolvedHttpOptions } from './options.js';
import { sendError } from './respond.js';

const MAX_MESSAGE = 1_000;

const isStringArray = (value: unknown): boolean =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Frozen Callers already found sound: an authenticator answers the same frozen object for the same credential
 * (its caches key on it), so the checks below run once per credential, not once per request.
 */
const soundCallers = new WeakSet<object>();

/** What is wrong with a value offered as a Caller, or undefined when it is one. */
function callerProblem(value: Record<string, unknown>): string | undefined {
  if (soundCallers.has(value)) return undefined;
  if (typeof value.subject !== 'string' || value.subject === '') return 'subject is not a non-empty string';
  if (typeof value.via !== 'string' || value.via === '') return 'via is not a non-empty string';
  if (!isStringArray(value.scopes)) return 'scopes is not an array of strings';
  if (value.clientId !== undefined && typeof value.clientId !== 'string') return 'clientId is not a string';
  const claims = value.claims;
  if (claims !== undefined && (typeof claims !== 'object' || claims === null || Array.isArray(claims))) {
    return 'claims is not an object';
  }
  // Frozen deeply enough that the checked members cannot change (a frozen array of scopes cannot gain a number).
  if (Object.isFrozen(value) && Object.isFrozen(value.scopes)) soundCallers.add(value);
  return undefined;
}

function defaultMessage(status: number, headers: OutgoingHeaders): string {
  switch (status) {
    case 401:
      return 'www-authenticate' in headers
        ? 'Unauthorized: this server needs valid credentials (see the WWW-Authenticate header)'
        : 'Unauthorized: this server needs valid credentials';
    case 403:
      return 'Forbidden: the credentials do not allow this request';
    case 503:
      return 'Service Unavailable: credentials cannot be checked right now; retry later';
    default:
      return `Refused (HTTP ${status})`;
  }
}

/** A request that declared a body we will not read: the connection closes after the answer instead of draining it. */
const bodyPending = (exchange: HttpExchange): boolean => {
  const length = exchange.header('content-length');
  return (
    (length !== undefined && length.trim() !== '0') || exchange.header('transfer-encoding') !== undefined
  );
};

/** Answers a challenge, or returns what is wrong with it. */
function answerChallenge(
  exchange: HttpExchange,
  cors: OutgoingHeaders,
  value: Record<string, unknown>,
): string | undefined {
  const { status, message } = value;
  // 503: the authority that vouches for credentials (a key set, an introspection endpoint) cannot be reached now.
  if (
    typeof status !== 'number' ||
    !Number.isInteger(status) ||
    ((status < 400 || status > 499) && status !== 503)
  ) {
    return `status ${typeof status === 'number' ? status : `(a ${typeof status})`} is not a client-error status (400-499) or 503`;
  }
  if (message !== undefined && (typeof message !== 'string' || message.length > MAX_MESSAGE)) {
    return `message is not a string of at most ${MAX_MESSAGE} characters`;
  }
  const headers = hookHeaders(value.headers);
  if (typeof headers === 'string') return headers;
  // CORS last: a challenge cannot widen who may read it.
  const out: OutgoingHeaders = { ...headers, ...cors };
  if (bodyPending(exchange)) out.connection = 'close';
  sendError(
    exchange,
    status,
    out,
    undefined,
    ErrorCode.InvalidRequest,
    message ?? defaultMessage(status, headers),
  );
  return undefined;
}

/**
 * The caller of a request to the MCP endpoint. Undefined when the request was answered here (a challenge, or a
 * hook that failed). Synchronous when the hook is.
 */
export function authenticateRequest(
  authenticate: HttpAuthenticate,
  view: HttpRequestView,
  exchange: HttpExchange,
  cors: OutgoingHeaders,
  options: Pick<ResolvedHttpOptions, 'logger'>,
): Caller | undefined | Promise<Caller | undefined> {
  const { logger } = options;
  return callHook(
    () => authenticate(view),
    (value): Caller | undefined => {
      let problem: string;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problem = `it returned ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
      } else {
        const record = value as Record<string, unknown>; // a non-null, non-array object, checked just above
        if ('status' in record && !('subject' in record)) {
          const wrong = answerChallenge(exchange, cors, record);
          if (wrong === undefined) return undefined;
          problem = `it returned a challenge: ${wrong}`;
        } else {
          const wrong = callerProblem(record);
          if (wrong === undefined) return record as unknown as Caller; // every Caller member checked above
          problem = `it returned a Caller: ${wrong}`;
        }
      }
      sendHookFailure(
        exchange,
        cors,
        logger,
        `the authenticate hook answered neither a Caller nor a challenge: ${problem}`,
        undefined,
      );
      return undefined;
    },
    (error): undefined => {
      sendHookFailure(exchange, cors, logger, 'the authenticate hook failed', error);
      return undefined;
    },
  );
}
