// Streamable HTTP for both eras (2026-07-28 stateless POSTs; legacy sessions, GET streams and HTTP+SSE):
// one core, a node:http adapter and a web-standard fetch handler.

export { createNodeHandler } from './node-adapter.js';
export { createFetchHandler } from './fetch-adapter.js';
export { listenHttp, type HttpListening } from './listen.js';
export { hardenNodeServer, type NodeServerOptions } from './node-server.js';
export { type HttpOptions, type LegacyHttpOptions } from './options.js';
export {
  type HttpAuthenticate,
  type HttpChallenge,
  type HttpRequestInfo,
  type HttpRoute,
  type HttpRouteResponse,
} from './edge.js';
// What an authenticate hook returns, and who calls when there is none.
export { ANONYMOUS_CALLER, type Caller } from '../../protocol/index.js';
