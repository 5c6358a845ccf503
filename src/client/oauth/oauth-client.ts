// The OAuth client of one MCP server: a fetch that carries its access token, refreshes it, authorizes on a 401,
// steps up on a 403 insufficient_scope, and keeps what it obtained in a store. Give it to the HTTP transport.

import { parseChallenge, type Challenge } from './challenge.js';
import { DpopKey, DPOP_ALGORITHM } from './dpop.js';
import { OAuthError } from './errors.js';
import {
  assertionGrant,
  authorizationCodeGrant,
  chooseScopes,
  clientCredentialsGrant,
  discover,
  MetadataCache,
  type Discovery,
  type GrantContext,
  type Granted,
} from './flow.js';
import type { FetchLike } from './http.js';
import type { AuthorizationSummary, OAuthClientOptions } from './options.js';
import { probeChallenge } from './probe.js';
import { preRegisteredFrom, privateKeyFrom } from './registration.js';
import { canonicalResource } from './resource.js';
import { revokeTokens } from './revocation.js';
import { MemoryOAuthStore, type OAuthStore, type StoredAuthorization } from './store.js';
import { requestToken, type TokenSet } from './tokens.js';

/** A token this close to its expiry is refreshed before it is sent. */
const EXPIRY_MARGIN_MS = 30_000;
const DEFAULT_MAX_STEP_UPS = 2;

export class OAuthClient {
  /** The fetch to hand to the transport (HttpClientTransportOptions.fetch). */
  readonly fetch: FetchLike;

  readonly #serverUrl: URL;
  readonly #server: string;
  readonly #options: OAuthClientOptions;
  readonly #base: FetchLike;
  readonly #store: OAuthStore;
  readonly #now: () => number;
  readonly #cache = new MetadataCache();
  readonly #maxStepUps: number;
  #state: StoredAuthorization | undefined;
  #loaded: Promise<void> | undefined;
  #flight: Promise<unknown> | undefined;
  #dpop: DpopKey | undefined;

  constructor(options: OAuthClientOptions) {
    this.#serverUrl = new URL(options.serverUrl);
    this.#server = canonicalResource(this.#serverUrl);
    this.#options = options;
    const userFetch = options.fetch;
    this.#base = userFetch ?? ((input, init) => fetch(input, init));
    this.#store = options.store ?? new MemoryOAuthStore();
    this.#now = options.now ?? Date.now;
    this.#maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
    if (!Number.isSafeInteger(this.#maxStepUps) || this.#maxStepUps < 0) {
      throw new RangeError(`maxStepUps must be a non-negative integer, got ${this.#maxStepUps}`);
    }
    this.fetch = (input, init) => this.#fetch(input, init);
  }

  /** Whether this client may ask for a new grant on its own (a browser step, or client credentials). */
  get #interactive(): boolean {
    return this.#options.grant !== undefined && this.#options.grant !== 'authorization_code'
      ? true
      : this.#options.authorize !== undefined;
  }

  /** Authorizes now (the CLI's `login`): asks the server what it wants, then runs the grant. */
  async authorize(
    options: { signal?: AbortSignal; scopes?: readonly string[] } = {},
  ): Promise<AuthorizationSummary> {
    await this.#load();
    const { signal } = options;
    const challenge = await probeChallenge(this.#base, this.#serverUrl, this.#server, signal);
    await this.#exclusive(
      undefined,
      async () => {
        const discovery = await this.#discover(challenge, signal);
        const previous = this.#state?.scopes ?? [];
        await this.#grant(
          discovery,
          challenge,
          this.#scopes(challenge, discovery, previous, options.scopes),
          signal,
        );
        return true;
      },
      true,
    );
    return (await this.status()) as AuthorizationSummary; // a grant always leaves tokens
  }

  /** What is stored for this server, without any secret; undefined when nothing is. */
  async status(): Promise<AuthorizationSummary | undefined> {
    await this.#load();
    const state = this.#state;
    if (state?.tokens === undefined) return undefined;
    return {
      issuer: state.issuer,
      scope: state.tokens.scope,
      expiresAt: state.tokens.expiresAt,
      refreshable: state.tokens.refreshToken !== undefined,
    };
  }

  /** Forgets the tokens (revoking them first when the AS has a revocation endpoint). */
  async logout(signal?: AbortSignal): Promise<{ hadTokens: boolean; revoked: boolean }> {
    await this.#load();
    const state = this.#state;
    let revoked = false;
    if (state?.tokens !== undefined && state.revocationEndpoint !== undefined) {
      revoked = await revokeTokens(this.#base, state, privateKeyFrom(this.#options.client), signal);
    }
    this.#state = undefined;
    await this.#store.clear();
    return { hadTokens: state?.tokens !== undefined, revoked };
  }

  async #fetch(input: Parameters<FetchLike>[0], init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const headers = new Headers(init?.headers ?? request?.headers);
    // A credential the caller set (the CLI's --header) wins: this client stays out of the way. And a token is
    // for its server only: never sent to another origin (no token passthrough).
    const target = new URL(request?.url ?? String(input));
    if (headers.has('authorization') || target.origin !== this.#serverUrl.origin)
      return this.#base(input, init);
    const signal = init?.signal ?? undefined;
    const body = init?.body;
    const replayable =
      request === undefined && (body == null || typeof body === 'string' || body instanceof URLSearchParams);
    await this.#load();
    await this.#refreshIfExpiring(signal);
    let used = this.#state?.tokens;
    let response = await this.#send(input, init, headers, used);
    let recovered = false;
    let nonceRetried = false;
    let stepUps = 0;
    while (replayable && (response.status === 401 || response.status === 403)) {
      const challenge = parseChallenge(response.headers.get('www-authenticate'));
      if (response.status === 401 && challenge?.error === 'use_dpop_nonce' && used?.tokenType === 'DPoP') {
        if (nonceRetried || this.#dpop === undefined) return response;
        nonceRetried = true; // the nonce was noted by #send; one retry carries it (RFC 9449 §9)
      } else if (response.status === 401) {
        if (recovered) return response;
        recovered = true;
        if (!(await this.#recover(challenge, used, signal))) return response;
      } else {
        if (challenge?.error !== 'insufficient_scope' || stepUps >= this.#maxStepUps || !this.#interactive) {
          return response;
        }
        stepUps++;
        await this.#stepUp(challenge, used, signal);
      }
      await response.body?.cancel().catch(() => undefined);
      used = this.#state?.tokens;
      response = await this.#send(input, init, headers, used);
    }
    return response;
  }

  async #send(
    input: Parameters<FetchLike>[0],
    init: RequestInit | undefined,
    headers: Headers,
    tokens: TokenSet | undefined,
  ): Promise<Response> {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const outgoing = new Headers(headers);
    if (tokens !== undefined) {
      if (tokens.tokenType === 'DPoP' && this.#dpop !== undefined) {
        outgoing.set('authorization', `DPoP ${tokens.accessToken}`);
        outgoing.set('dpop', await this.#dpop.proof(method, url, undefined, tokens.accessToken));
      } else outgoing.set('authorization', `Bearer ${tokens.accessToken}`);
    }
    const response = await this.#base(input, { ...init, headers: outgoing });
    this.#dpop?.rememberNonce(url, response.headers.get('dpop-nonce'));
    return response;
  }

  /** A 401: the AS may have changed (drop what belonged to the old one), a refresh may do, else a new grant. */
  async #recover(
    challenge: Challenge | undefined,
    used: TokenSet | undefined,
    signal?: AbortSignal,
  ): Promise<boolean> {
    return this.#exclusive(used, async () => {
      if (!this.#interactive && this.#state?.tokens?.refreshToken === undefined)
        return this.#needLogin(challenge);
      const discovery = await this.#discover(challenge, signal);
      const tokens = this.#state?.tokens;
      if (tokens?.refreshToken !== undefined && (await this.#refresh(signal))) return true;
      if (!this.#interactive) return this.#needLogin(challenge);
      const previous = this.#state?.scopes ?? [];
      await this.#grant(discovery, challenge, this.#scopes(challenge, discovery, previous), signal);
      return true;
    });
  }

  /** Without a way to ask the user: the 401 goes back as it came, or (with loginHint) an error that says what to do. */
  #needLogin(challenge: Challenge | undefined): false {
    const hint = this.#options.loginHint;
    if (hint === undefined || challenge?.resourceMetadata === undefined) return false;
    const had = this.#state !== undefined;
    throw new OAuthError(
      'authorization_required',
      `${this.#server} requires OAuth authorization${had ? ' and the stored authorization no longer works' : ''}: ${hint}`,
    );
  }

  /** A 403 insufficient_scope: a new grant for the union of the scopes asked so far and the challenged ones. */
  async #stepUp(challenge: Challenge, used: TokenSet | undefined, signal?: AbortSignal): Promise<void> {
    await this.#exclusive(used, async () => {
      const discovery = await this.#discover(challenge, signal);
      const previous = this.#state?.scopes ?? [];
      await this.#grant(discovery, challenge, this.#scopes(challenge, discovery, previous), signal);
      return true;
    });
  }

  /** Discovery; when the server now names another AS, everything bound to the old one is forgotten (SEP-2352). */
  async #discover(challenge: Challenge | undefined, signal?: AbortSignal): Promise<Discovery> {
    const discovery = await discover(
      this.#base,
      this.#serverUrl,
      challenge,
      this.#state?.issuer,
      this.#cache,
      signal,
    );
    if (this.#state !== undefined && this.#state.issuer !== discovery.metadata.issuer) {
      this.#state = undefined;
      await this.#store.clear();
    }
    return discovery;
  }

  #scopes(
    challenge: Challenge | undefined,
    discovery: Discovery,
    previous: readonly string[],
    more: readonly string[] = [],
  ): string[] {
    const extra = [...(this.#options.scopes ?? []), ...more];
    return chooseScopes(challenge, discovery, extra, previous, this.#options.offlineAccess !== false);
  }

  async #grant(
    discovery: Discovery,
    challenge: Challenge | undefined,
    scopes: string[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const { metadata } = discovery;
    const redirectUri = this.#options.redirectUri;
    let client = this.#state?.issuer === metadata.issuer ? this.#state.client : undefined;
    // A client registered for another loopback port (an earlier login) cannot receive this redirect.
    if (
      client?.origin === 'dynamic' &&
      redirectUri !== undefined &&
      !client.redirectUris?.includes(redirectUri)
    ) {
      client = undefined;
    }
    const dpop = this.#options.dpop ?? 'auto';
    const wantsDpop = dpop === true || (dpop === 'auto' && challenge?.scheme === 'dpop');
    if (wantsDpop && metadata.dpopSigningAlgs?.includes(DPOP_ALGORITHM)) this.#dpop ??= new DpopKey();
    const key = wantsDpop ? this.#dpop : undefined;
    const context: GrantContext = {
      fetch: this.#base,
      discovery,
      scopes,
      client,
      preRegistered: preRegisteredFrom(this.#options.client),
      jwt: privateKeyFrom(this.#options.client),
      clientMetadataUrl: this.#options.clientMetadataUrl,
      clientName: this.#options.clientName ?? 'toolwire',
      redirectUri,
      authorize: this.#options.authorize,
      now: this.#now,
      signal,
      proof: key && ((url, nonce) => key.proof('POST', url, nonce)),
    };
    const granted = await this.#run(context);
    this.#state = {
      version: 1,
      server: this.#server,
      resource: discovery.resource,
      issuer: metadata.issuer,
      tokenEndpoint: metadata.tokenEndpoint,
      ...(metadata.revocationEndpoint !== undefined && { revocationEndpoint: metadata.revocationEndpoint }),
      client: granted.client,
      scopes,
      tokens: granted.tokens,
      ...(key !== undefined &&
        granted.tokens.tokenType === 'DPoP' && { dpopKey: await this.#exportKey(key) }),
    };
    await this.#store.save(this.#state);
  }

  async #exportKey(key: DpopKey): Promise<Record<string, string>> {
    const { kty, crv, x, y, d } = await key.exportPrivate();
    return { kty: String(kty), crv: String(crv), x: String(x), y: String(y), d: String(d) };
  }

  #run(context: GrantContext): Promise<Granted> {
    switch (this.#options.grant ?? 'authorization_code') {
      case 'client_credentials':
        return clientCredentialsGrant(context);
      case 'jwt-bearer': {
        const { assertion } = this.#options;
        if (assertion === undefined)
          throw new OAuthError('no_client', 'the jwt-bearer grant needs an assertion provider');
        return assertionGrant(context, assertion);
      }
      case 'authorization_code':
        return authorizationCodeGrant(context);
    }
  }

  /** The refresh_token grant with the same resource; a refused refresh forgets the tokens (the client stays). */
  async #refresh(signal?: AbortSignal): Promise<boolean> {
    const state = this.#state;
    const tokens = state?.tokens;
    if (state === undefined || tokens?.refreshToken === undefined) return false;
    const key = tokens.tokenType === 'DPoP' ? this.#dpop : undefined;
    try {
      const fresh = await requestToken(
        {
          fetch: this.#base,
          endpoint: state.tokenEndpoint,
          issuer: state.issuer,
          client: state.client,
          jwt: privateKeyFrom(this.#options.client),
          params: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: tokens.refreshToken,
            resource: state.resource,
          }),
          now: this.#now(),
          signal,
          proof: key && ((nonce) => key.proof('POST', state.tokenEndpoint, nonce)),
        },
        tokens,
      );
      this.#state = { ...state, tokens: fresh };
      await this.#store.save(this.#state);
      return true;
    } catch (error) {
      if (!(error instanceof OAuthError) || error.code !== 'token_refused') throw error;
      const { tokens: _dropped, ...rest } = state;
      this.#state = rest;
      await this.#store.save(rest);
      return false;
    }
  }

  async #refreshIfExpiring(signal?: AbortSignal): Promise<void> {
    const tokens = this.#state?.tokens;
    if (tokens?.expiresAt === undefined || tokens.refreshToken === undefined) return;
    if (this.#now() < tokens.expiresAt - EXPIRY_MARGIN_MS) return;
    await this.#exclusive(tokens, () => this.#refresh(signal));
  }

  /**
   * Runs `work` alone: one authorization or refresh at a time. A caller whose token was already replaced by
   * another request's work does not start its own; it retries with the new token.
   */
  async #exclusive(
    used: TokenSet | undefined,
    work: () => Promise<boolean>,
    always = false,
  ): Promise<boolean> {
    while (this.#flight !== undefined) await this.#flight.catch(() => undefined);
    const current = this.#state?.tokens?.accessToken;
    if (!always && current !== undefined && current !== used?.accessToken) return true;
    const running = work();
    this.#flight = running;
    try {
      return await running;
    } finally {
      this.#flight = undefined;
    }
  }

  async #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const stored = await this.#store.load();
      if (stored === undefined || stored.server !== this.#server) return;
      // A DPoP-bound token is useless without the key it is bound to: restore the key, or drop the token.
      if (stored.tokens?.tokenType === 'DPoP' && stored.dpopKey !== undefined) {
        this.#dpop = new DpopKey(stored.dpopKey);
        this.#state = stored;
      } else if (stored.tokens?.tokenType === 'DPoP') {
        const { tokens: _unusable, ...rest } = stored;
        this.#state = rest;
      } else this.#state = stored;
    })();
    await this.#loaded;
  }
}
