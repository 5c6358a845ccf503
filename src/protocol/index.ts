// The MCP wire: revisions, eras, method names, _meta keys, envelopes, spec types and the transport contract.

export * from './revisions.js';
export { Method, Notification } from './methods.js';
export { MetaKey } from './meta.js';
export { LOGGING_LEVELS, isLoggingLevel, levelPasses, type LoggingLevel } from './logging.js';
export { hasModernMeta, legacyProgressToken, readModernEnvelope } from './envelope.js';
export { clientSupports, requiredCapabilityFor } from './capabilities.js';
export type * from './types.js';
export { CONTENT_TYPES } from './types.js';
export { Cancellation, onTransportAbort, type AbortHook } from './cancellation.js';
export {
  ANONYMOUS_CALLER,
  LOCAL_CALLER,
  MEMORY_TRANSPORT,
  STDIO_TRANSPORT,
  type Caller,
  type TransportFacts,
} from './caller.js';
export {
  TransportError,
  type MessageExtra,
  type SendOptions,
  type TransientFacts,
  type Transport,
} from './transport.js';
