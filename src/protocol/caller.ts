// Who is calling, and over what: established once at the transport edge and carried with every request.

/**
 * The principal behind a request. The transport edge establishes it (an HTTP `authenticate` hook, the options of a
 * stdio or in-memory transport) and the pipeline hands it to visibility rules, middleware and handlers unchanged.
 * Treat it as immutable: caches (a caller's visible list) key on the object itself.
 */
export interface Caller {
  /** Stable id of the principal: an OAuth `sub`, an API key's id, "local" for a stdio parent, "anonymous". */
  readonly subject: string;
  /** How the caller was established: "local", "anonymous", "bearer", "api-key", or an authenticator's own word. */
  readonly via: string;
  /** What the caller was granted (OAuth scopes, an API key's scopes); empty when the mechanism has none. */
  readonly scopes: readonly string[];
  /** The OAuth client the caller uses, when known. */
  readonly clientId?: string;
  /** Anything else the authenticator established (token claims, a key's label). */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** The process that started a stdio server, or the other end of an in-memory pair: trusted as the local user. */
export const LOCAL_CALLER: Caller = Object.freeze({
  subject: 'local',
  via: 'local',
  scopes: Object.freeze([]),
});

/** An HTTP client nobody authenticated (no `authenticate` hook is installed). */
export const ANONYMOUS_CALLER: Caller = Object.freeze({
  subject: 'anonymous',
  via: 'anonymous',
  scopes: Object.freeze([]),
});

/** Facts about the channel a request came over, for policy: never used to route or answer it. */
export interface TransportFacts {
  readonly kind: 'stdio' | 'memory' | 'http';
  /** HTTP: the client address the transport saw (the socket's, or the fetch handler's `clientAddress`). */
  readonly remoteAddress?: string;
  /** HTTP: a request header by lower-case name (repeated headers joined with ", ", as Node and fetch do). */
  header?(name: string): string | undefined;
}

export const STDIO_TRANSPORT: TransportFacts = Object.freeze({ kind: 'stdio' });
export const MEMORY_TRANSPORT: TransportFacts = Object.freeze({ kind: 'memory' });
