// Chat-ops for approvals: new pending approvals POSTed to a configured URL, and decisions received back, both signed
// with HMAC-SHA256 over "<timestamp>.<body>" and refused outside a time window or when replayed.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../../server/index.js';
import { ApprovalDecisionError, ApprovalRuleError } from './errors.js';
import type { Approval } from './store.js';

export interface ApprovalWebhookOptions {
  /** Where new pending approvals are POSTed (absolute http/https URL). */
  url: string;
  /** The shared HMAC key, at least 32 bytes, for both directions. */
  secret: string | Uint8Array;
  /** How long one POST may take, in ms. Default 5 000. */
  timeoutMs?: number;
  /** How far a signed timestamp may be from now, in seconds. Default 300. */
  toleranceSeconds?: number;
}

export const TIMESTAMP_HEADER = 'x-toolwire-timestamp';
export const SIGNATURE_HEADER = 'x-toolwire-signature';
/** Outgoing webhook POSTs in flight at once; more are dropped (and logged), never queued without bound. */
const MAX_IN_FLIGHT = 32;
/** Decisions remembered for replay checks within one window. */
const MAX_SEEN = 10_000;

/** "v1=" and the hex HMAC-SHA256 of "<timestamp>.<body>". */
export function signWebhook(secret: Buffer, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export class ApprovalWebhook {
  readonly #url: string;
  readonly #secret: Buffer;
  readonly #timeoutMs: number;
  readonly #toleranceMs: number;
  readonly #logger: Logger | undefined;
  /** Signatures accepted within the window (a replay inside it is refused); pruned as the window moves. */
  readonly #seen = new Map<string, number>();
  #inFlight = 0;

  constructor(options: ApprovalWebhookOptions, logger: Logger | undefined) {
    if (typeof options !== 'object' || options === null)
      throw new ApprovalRuleError('webhook', 'must be an object { url, secret }');
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new ApprovalRuleError('webhook.url', 'is not an absolute URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new ApprovalRuleError('webhook.url', 'must be an http or https URL');
    if (typeof options.secret !== 'string' && !(options.secret instanceof Uint8Array)) {
      throw new ApprovalRuleError('webhook.secret', 'must be a string or bytes of at least 32 bytes');
    }
    this.#secret = Buffer.from(options.secret);
    if (this.#secret.length < 32) throw new ApprovalRuleError('webhook.secret', 'must be at least 32 bytes');
    this.#url = url.href;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#toleranceMs = (options.toleranceSeconds ?? 300) * 1000;
    this.#logger = logger;
  }

  /** POSTs a new pending approval (fire and forget: the call it belongs to never waits for the webhook). */
  announce(approval: Approval, url: string, now: number): void {
    if (this.#inFlight >= MAX_IN_FLIGHT) {
      this.#logger?.warn(
        `approvals webhook: ${MAX_IN_FLIGHT} posts in flight; approval ${approval.id} not announced`,
      );
      return;
    }
    const body = JSON.stringify({ type: 'approval.requested', approval, url });
    const timestamp = Math.floor(now / 1000);
    this.#inFlight++;
    fetch(this.#url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signWebhook(this.#secret, timestamp, body),
      },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(this.#timeoutMs),
    })
      .then(async (response) => {
        await response.body?.cancel();
        if (!response.ok)
          this.#logger?.warn(`approvals webhook answered ${response.status} for approval ${approval.id}`);
      })
      .catch((error: unknown) =>
        this.#logger?.warn(`approvals webhook failed for approval ${approval.id}`, error),
      )
      .finally(() => this.#inFlight--);
  }

  /** Checks an inbound decision's signature, time window and freshness; throws a 401 refusal otherwise. */
  verify(timestamp: string | undefined, signature: string | undefined, body: string, now: number): void {
    const refused = (why: string): ApprovalDecisionError => new ApprovalDecisionError(401, `webhook ${why}`);
    if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp))
      throw refused(`needs ${TIMESTAMP_HEADER} (seconds since the epoch)`);
    if (signature === undefined || signature.length > 200) throw refused(`needs ${SIGNATURE_HEADER}`);
    const at = Number(timestamp) * 1000;
    if (Math.abs(now - at) > this.#toleranceMs) throw refused('timestamp is outside the allowed window');
    const expected = Buffer.from(signWebhook(this.#secret, Number(timestamp), body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw refused('signature does not match');
    for (const [seen, when] of this.#seen) if (now - when > this.#toleranceMs * 2) this.#seen.delete(seen);
    if (this.#seen.has(signature)) throw refused('was already received (replay)');
    if (this.#seen.size >= MAX_SEEN)
      throw new ApprovalDecisionError(429, 'webhook: too many decisions in the window; retry later');
    this.#seen.set(signature, at);
  }
}
