// What an Upstream throws: unavailable (down, restarting, circuit open: retry later), a list that took too long,
// and a configuration it cannot start with (missing environment variable, unsupported combination).

/** The upstream cannot take requests now; `retryAfterMs` says when it may, when that is known. */
export class UpstreamUnavailable extends Error {
  readonly upstream: string;
  readonly retryAfterMs?: number;

  constructor(upstream: string, reason: string, retryAfterMs?: number) {
    super(
      `upstream "${upstream}" is unavailable: ${reason}` +
        (retryAfterMs === undefined ? '' : ` (retry in ${Math.ceil(retryAfterMs / 1000)} s)`),
    );
    this.name = 'UpstreamUnavailable';
    this.upstream = upstream;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/** A list (tools, prompts, resources) did not finish within the upstream's listTimeoutMs; it was cancelled. */
export class UpstreamTimeout extends Error {
  readonly upstream: string;
  readonly timeoutMs: number;

  constructor(upstream: string, what: string, timeoutMs: number) {
    super(`upstream "${upstream}" did not answer ${what} within ${timeoutMs} ms`);
    this.name = 'UpstreamTimeout';
    this.upstream = upstream;
    this.timeoutMs = timeoutMs;
  }
}

export type UpstreamConfigErrorCode = 'missing-env' | 'bad-config' | 'unsupported';

/** The configuration cannot work as written; retrying will not help, so start() rejects with it. */
export class UpstreamConfigError extends Error {
  readonly upstream: string;
  readonly code: UpstreamConfigErrorCode;

  constructor(upstream: string, code: UpstreamConfigErrorCode, message: string) {
    super(`upstream "${upstream}": ${message}`);
    this.name = 'UpstreamConfigError';
    this.upstream = upstream;
    this.code = code;
  }
}
