// The modern HTTP wire's Mcp-Name and Mcp-Param-* checks: the headers a router or gateway reads must say what the
// body says. They run in the request pipeline, once the target (the tool and its x-mcp-header arguments) is known.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { decodeHeaderValue, headerMismatch, previewHeaderValue } from '../protocol/header-values.js';

/** Where request headers are read from: the request facts the transport gives (`extra.transport`). */
export interface HeaderSource {
  header(lowerCaseName: string): string | undefined;
}

/** One argument a tool mirrors into an `Mcp-Param-<header>` header (its x-mcp-header annotation). */
export interface MirroredArgument {
  readonly header: string;
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

/** The body member each method's Mcp-Name mirrors (tasks/*: the tasks extension, SEP-2663). */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isJsonObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** Header text against a body value; integers compare numerically ("42.0" equals 42). */
function sameValue(type: MirroredArgument['type'], text: string, value: unknown): boolean {
  if (type === 'integer' && typeof value === 'number') return NUMERIC.test(text) && Number(text) === value;
  return text === String(value);
}

function checkNameHeader(request: HeaderSource, method: string, params: JsonObject | undefined): void {
  const source = NAME_SOURCE[method];
  if (source === undefined) return;
  const bodyName = params?.[source];
  if (typeof bodyName !== 'string') return; // a missing or non-string member is the handler's to report
  const nameHeader = request.header('mcp-name');
  if (nameHeader === undefined) {
    throw headerMismatch(`the Mcp-Name header is missing; it must mirror params.${source}`);
  }
  const name = decodeHeaderValue('Mcp-Name', nameHeader);
  if (name !== bodyName) {
    throw headerMismatch(
      `Mcp-Name header value ${previewHeaderValue(name)} does not match params.${source} ${previewHeaderValue(bodyName)}`,
    );
  }
}

function checkParamHeaders(
  request: HeaderSource,
  params: JsonObject | undefined,
  mirrored: readonly MirroredArgument[],
): void {
  const args = params?.arguments;
  for (const { header: suffix, path, type } of mirrored) {
    const headerName = `Mcp-Param-${suffix}`;
    const raw = request.header(`mcp-param-${suffix.toLowerCase()}`);
    const value = valueAt(args, path);
    const where = `arguments.${path.join('.')}`;
    if (value === undefined || value === null) {
      if (raw !== undefined) throw headerMismatch(`${headerName} is present but ${where} has no value`);
      continue;
    }
    if (raw === undefined) throw headerMismatch(`${headerName} is missing; it must mirror ${where}`);
    const text = decodeHeaderValue(headerName, raw);
    if (!sameValue(type, text, value)) {
      throw headerMismatch(`${headerName} value ${previewHeaderValue(text)} does not match ${where}`);
    }
  }
}

/**
 * Throws RpcError -32020 unless Mcp-Name mirrors the body's name, uri or taskId (tools/call, prompts/get,
 * resources/read, tasks/*) and, for tools/call, every Mcp-Param-* header mirrors its argument. `mcpHeaders` are
 * the called tool's x-mcp-header arguments (undefined when the tool is unknown: that is the handler's to report).
 * Only for the modern HTTP wire: legacy clients and other transports send no such headers.
 */
export function checkMirroredHeaders(
  request: HeaderSource,
  method: string,
  params: JsonObject | undefined,
  mcpHeaders: readonly MirroredArgument[] | undefined,
): void {
  checkNameHeader(request, method, params);
  if (method === 'tools/call' && mcpHeaders !== undefined && mcpHeaders.length > 0) {
    checkParamHeaders(request, params, mcpHeaders);
  }
}
