// How transport failures read: an HTTP status with a body snippet, an error with its cause.

import { TransportError } from '../../protocol/index.js';
import { snippet } from './body.js';

/** A status without a JSON-RPC body: the status, and the start of whatever the body was. */
export function httpError(method: string, response: Response, text: string): TransportError {
  const cut = snippet(text);
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const what = response.ok ? `${status} with a body that is not JSON-RPC` : status;
  return new TransportError(`${method} answered ${what}${cut ? `: ${cut}` : ''}`, response.status, cut);
}

/** An error's message plus its cause's (fetch puts the useful part, such as ECONNREFUSED, in the cause). */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  return cause instanceof Error && cause.message !== error.message
    ? `${error.message}: ${cause.message}`
    : error.message;
}
