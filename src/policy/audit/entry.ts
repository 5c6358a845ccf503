// One request's audit entry: who, what, how it ended, how long it took, with every text made storable (well-formed,
// no NUL, bounded) and the arguments redacted before they are written anywhere.

import { isJsonObject } from '../../jsonrpc/index.js';
import type { Outcome, RequestView } from '../../server/index.js';
import { argumentsDigest } from '../../server/request-state.js';
import type { Classified } from './classify.js';
import type { AuditEntry } from './types.js';

/** The longest name, subject or message kept (longer ones are cut with a marker). */
const MAX_TEXT = 1024;
/** The most argument JSON stored per record; beyond it only the digest and the size are kept. */
export const MAX_ARGUMENT_BYTES = 64 * 1024;

/** NUL, and a surrogate without its other half. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as both stores keep it exactly: lone surrogates and NUL (which PostgreSQL text cannot hold) become U+FFFD,
 * so the hash computed before writing is the hash of what reads back. Control characters stay: they are data here,
 * and whoever prints them escapes them (threat H2).
 */
export function storableText(text: string, max = MAX_TEXT): string {
  const cut = text.length > max ? `${text.slice(0, max)}…[${text.length - max} more characters]` : text;
  return cut.replace(UNSTORABLE, '\uFFFD');
}

const optionalText = (value: unknown): string | null =>
  typeof value === 'string' ? storableText(value) : null;

/** The trace id of a W3C traceparent (`00-<32 hex>-<16 hex>-<2 hex>`); anything else is not a trace id. */
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

function traceIdOf(view: RequestView): string | null {
  const meta = view.params?._meta;
  const traceparent = isJsonObject(meta) ? meta.traceparent : undefined;
  const match = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent) : null;
  return match?.[1] !== undefined && !/^0+$/.test(match[1]) ? match[1] : null;
}

/** What the request names: the tool or prompt name, or the resource URI. */
function targetOf(view: RequestView): string | null {
  const params = view.params;
  if (params === undefined) return null;
  if (view.method === 'resources/read') return optionalText(params.uri);
  return view.method === 'tools/call' || view.method === 'prompts/get' ? optionalText(params.name) : null;
}

function argumentsOf(
  view: RequestView,
  redact: (value: unknown) => unknown,
): { digest: string | null; json: string | null } {
  const params = view.params;
  if (view.method !== 'tools/call' && view.method !== 'prompts/get') return { digest: null, json: null };
  const args = params?.arguments ?? {};
  const json = JSON.stringify(redact(args)) ?? 'null';
  const bytes = Buffer.byteLength(json);
  return {
    digest: argumentsDigest(args),
    json:
      bytes <= MAX_ARGUMENT_BYTES
        ? storableText(json, MAX_ARGUMENT_BYTES)
        : JSON.stringify({ _truncated: `${bytes} bytes of redacted arguments; args_digest covers them all` }),
  };
}

/** The size of what was answered, when it was a result. */
function resultBytes(outcome: Outcome): number | null {
  if (outcome === undefined) return null;
  return Buffer.byteLength(typeof outcome === 'string' ? outcome : (JSON.stringify(outcome) ?? ''));
}

/**
 * The entry of a request that ended (`outcome` its answer, `latencyMs` its time). Positional parameters, not one
 * facts object: a literal holding the request's view, made per call, is an allocation site V8 may pretenure, and an
 * old one keeps the whole request alive through young collections (see protocol/live-list.ts).
 */
export function buildEntry(
  view: RequestView,
  time: number,
  latencyMs: number,
  classified: Classified,
  outcome: Outcome,
  redact: (value: unknown) => unknown,
): AuditEntry {
  const args = argumentsOf(view, redact);
  const detail = classified.detail === null ? null : redact(classified.detail);
  return {
    time,
    requestId: storableText(JSON.stringify(view.id)),
    traceId: traceIdOf(view),
    method: storableText(view.method),
    era: view.era,
    subject: storableText(view.caller.subject),
    authMethod: storableText(view.caller.via),
    clientId: optionalText(view.caller.clientId),
    clientName: optionalText(view.clientInfo?.name),
    clientVersion: optionalText(view.clientInfo?.version),
    tool: targetOf(view),
    argsDigest: args.digest,
    arguments: args.json,
    decision: classified.decision,
    rule: classified.rule === null ? null : storableText(classified.rule),
    approvalId: null,
    outcome: classified.outcome,
    errorCode: classified.errorCode,
    detail: typeof detail === 'string' ? storableText(detail) : null,
    latencyMs: Math.round(latencyMs * 1000) / 1000,
    resultBytes: resultBytes(outcome),
  };
}
