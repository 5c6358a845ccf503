// Plain fetch helpers for policy tests over real HTTP: a modern (2026-07-28) request with its envelope and mirrored
// headers, a legacy session opened with initialize, and the answer as status, headers and parsed JSON-RPC body.

import type { JsonObject } from '../../src/jsonrpc/index.js';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

export const modernMeta = (capabilities: JsonObject = {}): JsonObject => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'policy-test', version: '1.0.0' },
});

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The JSON-RPC message (the last one of an SSE stream), or undefined for an empty body. */
  body:
    | { id?: unknown; result?: JsonObject; error?: { code: number; message: string; data?: unknown } }
    | undefined;
  text: string;
}

function lastMessage(text: string, contentType: string | null): HttpAnswer['body'] {
  if (text === '') return undefined;
  if (contentType?.startsWith('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter((line) => line !== '');
    return data.length === 0 ? undefined : (JSON.parse(data[data.length - 1]!) as HttpAnswer['body']);
  }
  return JSON.parse(text) as HttpAnswer['body'];
}

let nextId = 1;

/** POSTs one JSON-RPC message. `headers` are added to the JSON/SSE Accept and Content-Type. */
export async function postMcp(
  url: string,
  message: JsonObject,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: lastMessage(text, response.headers.get('content-type')),
    text,
  };
}

export const bearer = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

/** A modern request: `_meta` envelope in params and the mirrored MCP headers. */
export function modernRequest(
  url: string,
  method: string,
  params: JsonObject,
  headers: Record<string, string> = {},
  capabilities: JsonObject = {},
): Promise<HttpAnswer> {
  const name = method === 'tools/call' || method === 'prompts/get' ? (params.name as string) : undefined;
  const uri = method === 'resources/read' ? (params.uri as string) : undefined;
  const taskId = method.startsWith('tasks/') ? (params.taskId as string | undefined) : undefined;
  return postMcp(
    url,
    { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: modernMeta(capabilities) } },
    {
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...((name ?? uri ?? taskId) !== undefined && { 'mcp-name': (name ?? uri ?? taskId) as string }),
      ...headers,
    },
  );
}

export const callTool = (
  url: string,
  name: string,
  args: JsonObject = {},
  headers: Record<string, string> = {},
  extra: JsonObject = {},
  capabilities: JsonObject = {},
): Promise<HttpAnswer> =>
  modernRequest(url, 'tools/call', { name, arguments: args, ...extra }, headers, capabilities);

/** A legacy session: initialize, then notifications/initialized; requests carry its Mcp-Session-Id. */
export async function legacySession(
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  sessionId: string;
  request(method: string, params?: JsonObject, more?: Record<string, string>): Promise<HttpAnswer>;
}> {
  const init = await postMcp(
    url,
    {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY,
        capabilities: {},
        clientInfo: { name: 'policy-test', version: '1.0.0' },
      },
    },
    headers,
  );
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || sessionId === null) {
    throw new Error(`initialize answered ${init.status}: ${init.text.slice(0, 300)}`);
  }
  const sessionHeaders = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
  await postMcp(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders);
  return {
    sessionId,
    request: (method, params = {}, more = {}) =>
      postMcp(url, { jsonrpc: '2.0', id: nextId++, method, params }, { ...sessionHeaders, ...more }),
  };
}
