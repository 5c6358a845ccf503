// The part of McpClient its feature modules (tools.ts, call.ts, resources-prompts.ts) use: sending a request, the
// options, and what the server said about itself. They take this narrow view, not McpClient, so client.ts can
// import them without them importing client.ts back.

import type { JsonObject } from '../jsonrpc/index.js';
import type { Implementation } from '../protocol/index.js';
import type { ChannelLogger, RequestOptions } from './channel.js';
import type { ClientOptions, Era } from './options.js';

/**
 * McpClient.request's options: the channel's (each optional, the client fills the rest) plus extra HTTP headers, and
 * whether this request is safe to send twice (lists and discovery are without being told).
 */
export type ClientRequestOptions = Omit<Partial<RequestOptions>, 'retry'> & {
  headers?: Record<string, string>;
  idempotent?: boolean;
};

export interface ClientSession {
  readonly options: Readonly<ClientOptions>;
  readonly logger: ChannelLogger;
  /** Settled by connect(); undefined before. */
  readonly era: Era | undefined;
  readonly serverInfo: Implementation | undefined;
  /** The name audit entries and approval requests use for this server. */
  readonly serverName: string;
  /** Sends a request the way the era wants it (envelope, headers) and resolves with its result. */
  request(method: string, params?: JsonObject, options?: ClientRequestOptions): Promise<JsonObject>;
}
