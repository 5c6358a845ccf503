// Checks on what the model asks http_request to send: the URL, the headers and the body.

import { ToolError } from '../../server/index.js';

export const MAX_URL_LENGTH = 8192;
export const MAX_HEADERS = 50;
export const MAX_HEADER_VALUE = 8192;
export const MAX_HEADER_BYTES = 32 * 1024;
export const MAX_BODY_BYTES = 1024 * 1024;

/** Headers the tool sets itself: overriding them would let a request smuggle a second one or lie about its body. */
const MANAGED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
  'accept-encoding', // the response is read as sent (no decompression), so the size limit is the real size
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const LINE_BREAK_OR_NUL = /[\r\n\0]/;

/** The URL as messages show it: without a password, should it have one. */
export function shownUrl(url: URL): string {
  if (url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.password = 'REDACTED';
  return copy.href;
}

/** The model's URL; it must be absolute. */
export function parseUrl(input: string): URL {
  if (!URL.canParse(input)) {
    throw new ToolError(`url "${input}" is not an absolute URL; give one like "https://example.com/path"`);
  }
  return new URL(input);
}

/** Only http: and https:, without credentials; `refused` starts the message ("Refused http://…"). */
export function checkScheme(url: URL, refused: string): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`${refused}: only http: and https: URLs are supported, not "${url.protocol}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ToolError(
      `${refused}: a user name or password in the URL is not supported; send an Authorization header instead`,
    );
  }
}

/** The model's headers, checked, with names in lower case. */
export function checkHeaders(input: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  let bytes = 0;
  for (const [name, value] of Object.entries(input ?? {})) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) throw new ToolError(`header name "${name}" is not a valid HTTP header name`);
    if (MANAGED_HEADERS.has(lower)) {
      throw new ToolError(
        `header "${name}" cannot be set: http_request sets it itself; remove it from "headers"`,
      );
    }
    if (LINE_BREAK_OR_NUL.test(value)) {
      throw new ToolError(`header "${name}" contains a line break or NUL; a header value must be one line`);
    }
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    headers[lower] = value;
  }
  if (bytes > MAX_HEADER_BYTES) {
    throw new ToolError(`headers add up to ${bytes} bytes; at most ${MAX_HEADER_BYTES} are allowed`);
  }
  return headers;
}

/** The body as bytes; only methods that carry one may have it. */
export function encodeBody(body: string | undefined, method: string): Buffer | undefined {
  if (body === undefined) return undefined;
  if (method === 'GET' || method === 'HEAD') {
    throw new ToolError(
      `a body cannot be sent with ${method}; use POST, PUT, PATCH or DELETE, or leave out "body"`,
    );
  }
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length > MAX_BODY_BYTES) {
    throw new ToolError(`body is ${bytes.length} bytes in UTF-8; at most ${MAX_BODY_BYTES} are allowed`);
  }
  return bytes;
}
