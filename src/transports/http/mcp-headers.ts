// Modern (2026-07-28) request metadata headers: MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-*
// must mirror the body. Any difference, absence or malformed value is -32020 (HTTP 400).

import { ErrorCode, RpcError, isJsonObject, type JsonRpcRequest } from '../../jsonrpc/index.js';
import { MODERN_REVISIONS, MetaKey } from '../../protocol/index.js';
import type { McpServer } from '../../server/index.js';

/** Reads a request header by lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

/** The body member each method's Mcp-Name mirrors (tasks/*: the tasks extension, SEP-2663). */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const OWS = /^[ \t]+|[ \t]+$/g;
/** Visible ASCII plus space and tab: what a header value may hold before Base64 decoding. */
const VISIBLE = /^[\t\x20-\x7e]*$/;
/** Canonical padded Base64 only: lenient decoders would accept "SGVsbG8" or skip "!!!". */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const utf8 = new TextDecoder('utf-8', { fatal: true });

const mismatch = (message: string): RpcError =>
  new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);

const preview = (value: string): string =>
  JSON.stringify(value.length > 80 ? value.slice(0, 80) + '…' : value);

/** Trims optional whitespace and checks the characters. */
function plainValue(name: string, raw: string): string {
  const value = raw.replace(OWS, '');
  if (!VISIBLE.test(value)) {
    throw mismatch(`${name} contains characters other than visible ASCII, space and tab (use =?base64?…?=)`);
  }
  return value;
}

/** A header value as the client meant it: trimmed, checked, and decoded from the =?base64?…?= sentinel form. */
export function decodeHeaderValue(name: string, raw: string): string {
  const value = plainValue(name, raw);
  if (
    value.length < SENTINEL_START.length + SENTINEL_END.length ||
    !value.startsWith(SENTINEL_START) ||
    !value.endsWith(SENTINEL_END)
  ) {
    return value;
  }
  const inner = value.slice(SENTINEL_START.length, -SENTINEL_END.length);
  if (!BASE64.test(inner)) throw mismatch(`${name} is not valid padded Base64 inside =?base64?…?=`);
  try {
    return utf8.decode(Buffer.from(inner, 'base64'));
  } catch {
    throw mismatch(`${name} does not decode to UTF-8 text`);
  }
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isJsonObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** Header text against a body value; integers compare numerically ("42.0" equals 42). */
function sameValue(type: 'string' | 'integer' | 'boolean', text: string, value: unknown): boolean {
  if (type === 'integer' && typeof value === 'number') return NUMERIC.test(text) && Number(text) === value;
  return text === String(value);
}

function checkParamHeaders(header: HeaderReader, request: JsonRpcRequest, server: McpServer): void {
  const name = request.params?.name;
  const record = typeof name === 'string' ? server.tools.get(name) : undefined;
  if (record === undefined || record.mcpHeaders.length === 0) return; // unknown tools are the core's to report
  const args = request.params?.arguments;
  for (const { header: suffix, path, type } of record.mcpHeaders) {
    const headerName = `Mcp-Param-${suffix}`;
    const raw = header(`mcp-param-${suffix.toLowerCase()}`);
    const value = valueAt(args, path);
    const where = `arguments.${path.join('.')}`;
    if (value === undefined || value === null) {
      if (raw !== undefined) throw mismatch(`${headerName} is present but ${where} has no value`);
      continue;
    }
    if (raw === undefined) throw mismatch(`${headerName} is missing; it must mirror ${where}`);
    const text = decodeHeaderValue(headerName, raw);
    if (!sameValue(type, text, value)) {
      throw mismatch(`${headerName} value ${preview(text)} does not match ${where}`);
    }
  }
}

/** Throws RpcError -32020 unless the headers mirror the request body. */
export function checkModernHeaders(header: HeaderReader, request: JsonRpcRequest, server: McpServer): void {
  const versionHeader = header('mcp-protocol-version');
  if (versionHeader === undefined) {
    // Often a legacy client at a modern-only endpoint: name what is spoken here.
    throw mismatch(
      `the MCP-Protocol-Version header is missing (this endpoint speaks ${MODERN_REVISIONS.join(', ')} with per-request _meta)`,
    );
  }
  const version = plainValue('MCP-Protocol-Version', versionHeader);
  const meta = request.params?._meta;
  const metaVersion = isJsonObject(meta) ? meta[MetaKey.ProtocolVersion] : undefined;
  // A missing _meta version is the envelope's error (-32602), reported after the headers.
  if (typeof metaVersion === 'string' && metaVersion !== version) {
    throw mismatch(
      `MCP-Protocol-Version header value ${preview(version)} does not match _meta["${MetaKey.ProtocolVersion}"] ${preview(metaVersion)}`,
    );
  }
  const methodHeader = header('mcp-method');
  if (methodHeader === undefined) throw mismatch('the Mcp-Method header is missing');
  const method = plainValue('Mcp-Method', methodHeader);
  if (method !== request.method) {
    throw mismatch(
      `Mcp-Method header value ${preview(method)} does not match body method ${preview(request.method)}`,
    );
  }
  const source = NAME_SOURCE[request.method];
  if (source === undefined) return;
  const bodyName = request.params?.[source];
  if (typeof bodyName === 'string') {
    const nameHeader = header('mcp-name');
    if (nameHeader === undefined)
      throw mismatch(`the Mcp-Name header is missing; it must mirror params.${source}`);
    const name = decodeHeaderValue('Mcp-Name', nameHeader);
    if (name !== bodyName) {
      throw mismatch(
        `Mcp-Name header value ${preview(name)} does not match params.${source} ${preview(bodyName)}`,
      );
    }
  }
  if (request.method === 'tools/call') checkParamHeaders(header, request, server);
}
