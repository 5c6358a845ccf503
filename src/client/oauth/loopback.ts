// The loopback redirect receiver of a native app (RFC 8252 §7.3): a one-shot HTTP listener on 127.0.0.1 that
// hands back the authorization response whose state it was told to expect, and nothing else.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackRedirect {
  /** http://127.0.0.1:PORT/callback, to register and send as redirect_uri. */
  readonly redirectUri: string;
  /** Resolves with the full redirect URL of the first callback carrying `state`; other callbacks get a 400. */
  waitFor(state: string, signal?: AbortSignal): Promise<URL>;
  close(): Promise<void>;
}

const PAGE = (text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>toolwire</title><p>${text}</p>`;

export async function startLoopbackRedirect(path = '/callback'): Promise<LoopbackRedirect> {
  let expected: { state: string; resolve: (url: URL) => void } | undefined;
  let port = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const answer = (status: number, text: string): void => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(PAGE(text));
    };
    if (request.method !== 'GET' || url.pathname !== path) return answer(404, 'Not found.');
    if (expected === undefined || url.searchParams.get('state') !== expected.state) {
      return answer(400, 'This is not the authorization this program is waiting for.');
    }
    const { resolve } = expected;
    expected = undefined;
    answer(200, 'Authorization received. You can close this window and return to the terminal.');
    resolve(url);
  });
  // Slow or idle connections must not keep a login open for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port; // listening on TCP, so the address is an AddressInfo
  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    waitFor(state, signal) {
      return new Promise<URL>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = (): void => {
          expected = undefined;
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        expected = {
          state,
          resolve: (url) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(url);
          },
        };
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
