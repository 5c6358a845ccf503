// Wire helpers shared by the policy-scopes tests: a token → frozen Caller authenticate hook, modern POSTs with their
// mirrored headers, a legacy Streamable HTTP session, and a raw stdio peer with a caller. Real HTTP, no mocks.

import { PassThrough } from 'node:stream';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { Caller } from '../src/protocol/index.js';
import type { McpServer } from '../src/server/index.js';
import type { HttpChallenge, HttpRequestInfo } from '../src/transports/http/index.js';
import { StdioServerTransport } from '../src/transports/stdio/index.js';
import { modern, type WireMessage } from './support/harness.js';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

export const caller = (subject: string, ...scopes: string[]): Caller =>
  Object.freeze({ subject, via: 'bearer', scopes: Object.freeze(scopes) });

/** "Bearer <token>" → the same frozen Caller every time (caches key on the object); anything else → 401. */
export const authenticateWith =
  (tokens: Readonly<Record<string, Caller>>) =>
  (request: HttpRequestInfo): Caller | HttpChallenge => {
    const token = /^Bearer (\S+)$/.exec(request.header('authorization') ?? '')?.[1];
    return (
      (token !== undefined && Object.hasOwn(tokens, token) ? tokens[token] : undefined) ?? {
        status: 401,
        headers: { 'www-authenticate': 'Bearer' },
      }
    );
  };

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The JSON-RPC message text exactly as sent (the data line of an SSE answer). */
  text: string;
  message: WireMessage;
}

async function answer(response: Response): Promise<HttpAnswer> {
  let text = await response.text();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const data = text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6);
    text = (data.at(-1) ?? '').slice(6);
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    message: JSON.parse(text) as WireMessage,
  };
}

const NAME_MEMBER: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * A modern (2026-07-28) POST. Mcp-Method is the method; Mcp-Name mirrors params.name/uri unless `mcpName` says
 * otherwise (a string is sent as is, null sends none).
 */
export async function postModern(
  url: string,
  token: string,
  method: string,
  params: JsonObject = {},
  mcpName?: string | null,
): Promise<HttpAnswer> {
  const member = NAME_MEMBER[method];
  const mirrored = member === undefined ? undefined : (params[member] as string | undefined);
  const name = mcpName === undefined ? mirrored : (mcpName ?? undefined);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name !== undefined && { 'mcp-name': name }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: modern(params) }),
  });
  return answer(response);
}

/** A legacy Streamable HTTP session opened with initialize by `token`; `request` sends in that session. */
export async function openLegacy(
  url: string,
  token: string,
): Promise<{ request(method: string, params?: JsonObject): Promise<HttpAnswer> }> {
  let id = 0;
  const send = async (body: JsonObject, session?: string): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...(session !== undefined && { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY }),
      },
      body: JSON.stringify(body),
    });
  const opened = await send({
    jsonrpc: '2.0',
    id: ++id,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'scopes-test', version: '1' } },
  });
  const session = opened.headers.get('mcp-session-id') ?? undefined;
  if (opened.status !== 200 || session === undefined)
    throw new Error(`initialize: ${opened.status} ${await opened.text()}`);
  await opened.text();
  await (await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  return {
    request: async (method, params = {}) =>
      answer(await send({ jsonrpc: '2.0', id: ++id, method, params }, session)),
  };
}

/** A stdio server transport on in-process pipes, connected as `who`: requests in, answers out by id. */
export async function stdioPeer(
  server: McpServer,
  who: Caller,
): Promise<(method: string, params?: JsonObject) => Promise<WireMessage>> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const waiting = new Map<number, (message: WireMessage) => void>();
  let partial = '';
  stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + String(chunk)).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const message = JSON.parse(line) as WireMessage;
      if (typeof message.id === 'number') waiting.get(message.id)?.(message);
    }
  });
  await server.connect(new StdioServerTransport({ stdin, stdout, caller: who }));
  let id = 0;
  return (method, params = {}) => {
    const mine = ++id;
    const reply = new Promise<WireMessage>((resolve) => waiting.set(mine, resolve));
    stdin.write(JSON.stringify({ jsonrpc: '2.0', id: mine, method, params }) + '\n');
    return reply;
  };
}
