// The values of the modern wire's mirrored request headers (2026-07-28): trimming, the visible-ASCII rule, the
// =?base64?…?= form, and the -32020 error every disagreement between a header and the body is answered with.

import { ErrorCode, RpcError } from '../jsonrpc/index.js';

/** Reads a request header by lower-case name. */
export type HeaderReader = (lowerCaseName: string) => string | undefined;

const OWS = /^[ \t]+|[ \t]+$/g;
/** Visible ASCII plus space and tab: what a header value may hold before Base64 decoding. */
const VISIBLE = /^[\t\x20-\x7e]*$/;
/** Canonical padded Base64 only: lenient decoders would accept "SGVsbG8" or skip "!!!". */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The -32020 error of a header that is missing, malformed or does not mirror the body. */
export const headerMismatch = (message: string): RpcError =>
  new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);

/** A value quoted for an error message, cut at 80 characters (it comes from the network). */
export const previewHeaderValue = (value: string): string =>
  JSON.stringify(value.length > 80 ? value.slice(0, 80) + '…' : value);

/** Trims optional whitespace and checks the characters; throws -32020 naming `name` otherwise. */
export function plainHeaderValue(name: string, raw: string): string {
  const value = raw.replace(OWS, '');
  if (!VISIBLE.test(value)) {
    throw headerMismatch(
      `${name} contains characters other than visible ASCII, space and tab (use =?base64?…?=)`,
    );
  }
  return value;
}

/** A header value as the client meant it: trimmed, checked, and decoded from the =?base64?…?= sentinel form. */
export function decodeHeaderValue(name: string, raw: string): string {
  const value = plainHeaderValue(name, raw);
  if (
    value.length < SENTINEL_START.length + SENTINEL_END.length ||
    !value.startsWith(SENTINEL_START) ||
    !value.endsWith(SENTINEL_END)
  ) {
    return value;
  }
  const inner = value.slice(SENTINEL_START.length, -SENTINEL_END.length);
  if (!BASE64.test(inner)) throw headerMismatch(`${name} is not valid padded Base64 inside =?base64?…?=`);
  try {
    return utf8.decode(Buffer.from(inner, 'base64'));
  } catch {
    throw headerMismatch(`${name} does not decode to UTF-8 text`);
  }
}
