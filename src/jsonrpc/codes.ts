// The numeric error codes that travel on the wire: JSON-RPC 2.0's own and those the MCP spec defines.

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP 2026-07-28: a mirrored HTTP header is missing, malformed or differs from the body. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the requested protocol version is not supported. */
  UnsupportedProtocolVersion: -32022,
  /** Legacy revisions only (≤ 2025-11-25): resource not found. */
  LegacyResourceNotFound: -32002,
  /**
   * toolwire policy: the caller may see the target but lacks scopes to use it (HTTP 403 insufficient_scope);
   * `data.requiredScopes` and `data.missingScopes` say what to step up to.
   */
  InsufficientScope: -31003,
  /** toolwire policy: over a rate limit or concurrency cap (HTTP 429); `data.retryAfterMs` says when to retry. */
  RateLimited: -31429,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
