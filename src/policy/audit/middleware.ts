// The audit middleware: outermost, it times the rest of the chain, classifies how the request ended and holds the
// answer until the request's record is stored; if it cannot be stored the request fails closed (threat H1).

import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ErrorCode, RpcError } from '../../jsonrpc/index.js';
import type { Logger, Middleware, Outcome } from '../../server/index.js';
import { classifyError, classifyOutcome } from './classify.js';
import { buildEntry } from './entry.js';
import type { AuditWriter } from './writer.js';

export interface AuditMiddlewareOptions {
  readonly writer: AuditWriter;
  readonly requests: 'calls' | 'all';
  readonly redact: (value: unknown) => unknown;
  readonly logger: Logger;
  readonly now: () => number;
  /** Named in the log line when a record cannot be written. */
  readonly description: string;
}

export function auditMiddleware(options: AuditMiddlewareOptions): Middleware {
  const { writer, redact, logger, now } = options;
  const all = options.requests === 'all';
  return async (view, next) => {
    if (!all && view.method !== 'tools/call') return next();
    writer.admit(); // refuses (503) when too many calls already wait for their records
    const time = now();
    const started = performance.now();
    let outcome: Outcome;
    let thrown: unknown;
    let threw = false;
    try {
      outcome = await next();
    } catch (error) {
      thrown = error;
      threw = true;
    }
    try {
      const classified = threw ? classifyError(view, thrown) : classifyOutcome(view, outcome);
      const latencyMs = performance.now() - started;
      await writer.write(buildEntry(view, time, latencyMs, classified, outcome, redact));
    } catch (failure) {
      // Never answered without its record: the client gets a neutral error, the operator the details.
      const reference = randomBytes(4).toString('hex');
      logger.error(
        `audit: the record of ${JSON.stringify(view.method)} could not be written to ${options.description}, so the request fails (reference ${reference})`,
        failure,
      );
      throw new RpcError(
        ErrorCode.InternalError,
        `Internal error: the request could not be recorded (reference ${reference})`,
      );
    } finally {
      writer.release();
    }
    if (threw) throw thrown;
    return outcome;
  };
}
