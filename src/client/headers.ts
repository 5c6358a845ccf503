// Mirroring request fields into HTTP headers (modern wire): Mcp-Name and Mcp-Param-*, with the Base64 sentinel.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { XMcpHeader } from '../schema/index.js';

/** Visible ASCII with single inner spaces allowed; no leading or trailing whitespace, no tabs or controls. */
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** A header value as the spec encodes it: plain when safe, else `=?base64?<UTF-8 bytes>?=`. */
export function encodeHeaderValue(value: string | number | boolean): string {
  const text = typeof value === 'string' ? value : String(value);
  const looksEncoded = text.startsWith('=?base64?') && text.endsWith('?=');
  if (PLAIN.test(text) && !looksEncoded) return text;
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/** The argument value at a property path, or undefined. */
function valueAt(args: JsonObject, path: readonly string[]): unknown {
  let current: unknown = args;
  for (const key of path) {
    if (!isJsonObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/** Mcp-Param-* headers for a call: one per annotated argument that is present and not null. */
export function paramHeaders(
  mcpHeaders: readonly XMcpHeader[],
  args: JsonObject,
  into: Record<string, string>,
): void {
  for (const { header, path } of mcpHeaders) {
    const value = valueAt(args, path);
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      into[`Mcp-Param-${header}`] = encodeHeaderValue(value);
    }
  }
}

/** The body field Mcp-Name mirrors, by method. */
export function nameFor(method: string, params: JsonObject | undefined): string | undefined {
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return typeof params?.name === 'string' ? params.name : undefined;
    case 'resources/read':
      return typeof params?.uri === 'string' ? params.uri : undefined;
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel':
      return typeof params?.taskId === 'string' ? params.taskId : undefined;
    default:
      return undefined;
  }
}
