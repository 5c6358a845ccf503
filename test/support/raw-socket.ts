// Raw HTTP/1.1 over a TCP socket to a server on 127.0.0.1, for the flood tests (threats A3, A8): every byte and
// every stall is the test's to choose, which no HTTP client allows.

import { connect, type Socket } from 'node:net';
import { deferred } from './harness.js';

export const MODERN = '2026-07-28';
export const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};
export const KIB = 1024;

export const listBody = (id: number): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } });

/** The request head of a modern tools/list POST; `length` undefined sends the body chunked. */
export const head = (port: number, length: number | undefined, method = 'tools/list'): string =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
  `Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: ${MODERN}\r\nMcp-Method: ${method}\r\n` +
  (length === undefined ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`) +
  '\r\n';

export const chunk = (bytes: number): string => `${bytes.toString(16)}\r\n${'x'.repeat(bytes)}\r\n`;

export interface RawConnection {
  socket: Socket;
  /** Everything the server sent until it closed the connection. */
  closed: Promise<string>;
  /** Resolves with the text received so far once `pattern` appears in it. */
  received(pattern: RegExp): Promise<string>;
}

/** A raw TCP connection to the server; `first` is written once connected. */
export function open(port: number, first?: string): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const waiters: Array<{ pattern: RegExp; resolve: (text: string) => void }> = [];
    const closed = deferred<string>();
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => {
      text += data;
      for (const waiter of [...waiters]) {
        if (!waiter.pattern.test(text)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(text);
      }
    });
    socket.on('error', () => undefined); // a reset is one of the outcomes under test
    socket.on('close', () => closed.resolve(text));
    socket.once('connect', () => {
      if (first !== undefined) socket.write(first);
      resolve({
        socket,
        closed: closed.promise,
        received: (pattern) =>
          pattern.test(text)
            ? Promise.resolve(text)
            : new Promise((done) => waiters.push({ pattern, resolve: done })),
      });
    });
    socket.once('error', reject);
  });
}

/** One complete tools/list exchange on a fresh connection; returns the raw response. */
export async function list(port: number): Promise<string> {
  const body = listBody(1);
  const connection = await open(port, `${head(port, Buffer.byteLength(body))}${body}`);
  const text = await connection.received(/\r\n\r\n\{.*\}$/s);
  connection.socket.destroy();
  return text;
}

/** The JSON-RPC error message of a raw response. */
export const errorMessage = (response: string): string =>
  (JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { error: { message: string } }).error
    .message;
