// One HTTP exchange, pinned to already-checked addresses, with the response body read up to a byte limit.

import type { LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { ToolError } from '../../server/index.js';
import { bareHost } from './destination.js';

export interface Exchange {
  url: URL;
  method: string;
  headers: Readonly<Record<string, string>>;
  body: Buffer | undefined;
  /** The checked addresses; the connection goes to one of these and nowhere else. */
  addresses: readonly LookupAddress[];
  signal: AbortSignal;
  maxBytes: number;
  onBytes: (received: number, expected: number | undefined) => void;
}

export interface Received {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body was longer than maxBytes: only the first maxBytes were read, and the connection was dropped. */
  truncated: boolean;
}

/** A lookup that answers with the checked addresses, so DNS cannot change between the check and the connect. */
const pinnedLookup =
  (addresses: readonly LookupAddress[]): LookupFunction =>
  (_hostname, options, callback) => {
    const first = addresses[0] as LookupAddress; // checkDestination never returns an empty list
    if (options.all === true) callback(null, [...addresses]);
    else callback(null, first.address, first.family);
  };

const describeFailure = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
};

/** Sends the request and reads the answer; a network failure is a ToolError, an abort rethrows the signal's reason. */
export async function sendOnce(exchange: Exchange): Promise<Received> {
  const { url, signal } = exchange;
  const host = bareHost(url);
  const transport = url.protocol === 'https:' ? https : http;
  let response: http.IncomingMessage;
  try {
    response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = transport.request({
        protocol: url.protocol,
        host,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: exchange.method,
        headers: { ...exchange.headers, host: url.host },
        lookup: pinnedLookup(exchange.addresses),
        // TLS checks the certificate against the name the model asked for, not the address.
        ...(isIP(host) === 0 && { servername: host }),
        agent: false, // a pooled socket may be connected to an address this request did not check
        signal,
      });
      request.once('response', resolve);
      request.once('error', reject);
      request.end(exchange.body);
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ToolError(`Request to ${url.href} failed: ${describeFailure(error)}`);
  }
  const expectedHeader = Number(response.headers['content-length']);
  const expected = Number.isSafeInteger(expectedHeader) ? expectedHeader : undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  let truncated = false;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      const room = exchange.maxBytes - received;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        received += room;
        truncated = true;
        break; // leaving the loop destroys the response: the rest is never downloaded
      }
      chunks.push(chunk);
      received += chunk.length;
      exchange.onBytes(received, expected);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ToolError(`Reading the response from ${url.href} failed: ${describeFailure(error)}`);
  }
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    headers: response.headers,
    body: Buffer.concat(chunks, received),
    truncated,
  };
}
