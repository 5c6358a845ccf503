// W3C Trace Context in an MCP request's params._meta (traceparent, tracestate), the propagation the OpenTelemetry MCP
// semantic conventions describe: parsed strictly so that a malformed value is ignored rather than half-trusted.

/** What a valid traceparent carries. */
export interface TraceParent {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

const ZERO_TRACE = '00000000000000000000000000000000';
const ZERO_SPAN = '0000000000000000';
// version "00" has exactly four fields; a later version may append more after a dash (W3C §3.2.4).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const MAX_TRACEPARENT = 512;
/** W3C caps tracestate at 32 list members; 512 characters is the length it says vendors may truncate to. */
const MAX_TRACESTATE = 512;

/** The traceparent's fields, or undefined when it is missing, malformed, all-zero or of the forbidden version ff. */
export function parseTraceParent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string' || value.length > MAX_TRACEPARENT) return undefined;
  const match = TRACEPARENT.exec(value);
  if (match === null) return undefined;
  // The four groups always exist once the expression matched; the fifth only for a later version.
  const [version, traceId, spanId, flags] = match.slice(1, 5) as [string, string, string, string];
  if (version === 'ff' || (version === '00' && match[5] !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) };
}

/** tracestate as a string worth passing on, or undefined (absent, not a string, too long, control characters). */
export function readTraceState(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TRACESTATE) return undefined;
  // Printable ASCII only (W3C §3.3.1): anything else is a forgery or garbage, and must not reach an exporter.
  return /^[\x20-\x7e]+$/.test(value) ? value : undefined;
}

export function formatTraceParent(traceId: string, spanId: string, traceFlags: number): string {
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}
