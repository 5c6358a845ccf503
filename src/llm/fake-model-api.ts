// A scripted model API on loopback that speaks Chat Completions, Responses and Messages: tests and offline
// examples point the official SDK clients at it (baseURL) and see exactly what a real API would have received.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';

/** What the fake model answers next: some text, some tool calls, or both. */
export interface FakeReply {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: JsonObject }>;
}

export type FakeApi = 'chat' | 'responses' | 'messages';

export interface FakeRequest {
  api: FakeApi;
  path: string;
  headers: IncomingMessage['headers'];
  body: JsonObject;
}

export interface FakeModelApi {
  /** `http://127.0.0.1:PORT`: OpenAI's baseURL is this plus `/v1`; Anthropic's is this as it is. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: readonly FakeRequest[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Requests recorded at most (a test that sends more has a runaway loop). */
export const MAX_RECORDED_REQUESTS = 10_000;

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function render(api: FakeApi, reply: FakeReply, n: number, model: unknown): JsonObject {
  const calls = (reply.toolCalls ?? []).map((call, i) => ({ ...call, id: `call_${n}_${i + 1}` }));
  switch (api) {
    case 'chat':
      return {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [
          {
            index: 0,
            logprobs: null,
            finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
            message: {
              role: 'assistant',
              content: reply.text ?? null,
              refusal: null,
              ...(calls.length > 0 && {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                })),
              }),
            },
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      };
    case 'responses':
      return {
        id: `resp_${n}`,
        object: 'response',
        created_at: 0,
        status: 'completed',
        model,
        output: [
          ...(reply.text === undefined
            ? []
            : [
                {
                  type: 'message',
                  id: `msg_${n}`,
                  status: 'completed',
                  role: 'assistant',
                  content: [{ type: 'output_text', text: reply.text, annotations: [] }],
                },
              ]),
          ...calls.map((call) => ({
            type: 'function_call',
            id: `fc_${call.id}`,
            call_id: call.id,
            name: call.name,
            arguments: JSON.stringify(call.arguments),
            status: 'completed',
          })),
        ],
        usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
      };
    case 'messages':
      return {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [
          ...(reply.text === undefined ? [] : [{ type: 'text', text: reply.text }]),
          ...calls.map((call) => ({
            type: 'tool_use',
            id: `toolu_${call.id}`,
            name: call.name,
            input: call.arguments,
          })),
        ],
        stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      };
  }
}

const apiOf = (path: string): FakeApi | undefined =>
  path.endsWith('/chat/completions')
    ? 'chat'
    : path.endsWith('/responses')
      ? 'responses'
      : path.endsWith('/messages')
        ? 'messages'
        : undefined;

/**
 * Starts the fake API on 127.0.0.1 (a free port). `script` is the replies in order, or a function that picks one
 * per request. A request past the end of the script gets a 400 (which the SDKs do not retry).
 */
export async function startFakeModelApi(
  script: FakeReply[] | ((request: FakeRequest) => FakeReply),
): Promise<FakeModelApi> {
  const requests: FakeRequest[] = [];
  let next = 0;
  const send = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server = createServer((request, response) => {
    void (async () => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const api = apiOf(path);
      if (request.method !== 'POST' || api === undefined) {
        send(response, 404, {
          error: { type: 'not_found', message: `no fake endpoint for ${request.method} ${path}` },
        });
        return;
      }
      const text = await readBody(request);
      if (text === undefined) return send(response, 413, { error: { message: 'body too large' } });
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return send(response, 400, { error: { message: 'the body is not JSON' } });
      }
      if (!isJsonObject(body))
        return send(response, 400, { error: { message: 'the body is not a JSON object' } });
      if (requests.length >= MAX_RECORDED_REQUESTS) {
        return send(response, 400, {
          error: { message: `the fake model API took ${MAX_RECORDED_REQUESTS} requests already` },
        });
      }
      const entry: FakeRequest = { api, path, headers: request.headers, body };
      requests.push(entry);
      const reply = typeof script === 'function' ? script(entry) : script[next];
      next++;
      if (reply === undefined) {
        return send(response, 400, {
          error: { type: 'invalid_request_error', message: 'the fake model API has no scripted reply left' },
        });
      }
      send(response, 200, render(api, reply, requests.length, body.model));
    })().catch(() => send(response, 500, { error: { message: 'the fake model API failed' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP, so an AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
