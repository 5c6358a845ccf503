// The Streamable HTTP client transport (both eras), the 2024-11-05 HTTP+SSE client transport it falls back to, and
// their SSE parser.

export { HttpClientTransport } from './transport.js';
export { createNodeFetch, type NodeFetchOptions } from './node-fetch.js';
export {
  SseClientTransport,
  DEFAULT_ENDPOINT_TIMEOUT_MS,
  type SseClientTransportOptions,
} from './sse-transport.js';
export {
  DEFAULT_MAX_RECONNECT_ATTEMPTS,
  DEFAULT_MAX_RECONNECT_DELAY_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  type HttpClientTransportOptions,
} from './options.js';
export { DEFAULT_RETRY_MS } from './reconnect.js';
export { SseEventTooLargeError, SseParser, type SseEvent, type SseParserOptions } from './sse-parser.js';
