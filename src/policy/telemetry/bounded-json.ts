// Arguments and results as span attributes: JSON cut to a byte budget, so one large call cannot bloat every exporter
// batch, and never cut inside a UTF-8 sequence.

export const TRUNCATED_MARKER = '…[truncated]';
const MARKER_BYTES = Buffer.byteLength(TRUNCATED_MARKER);

/** `text` if it fits in `maxBytes` UTF-8 bytes, else its longest whole-character prefix that fits with the marker. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text; // a UTF-16 unit is at most 3 UTF-8 bytes: it fits without counting
  if (Buffer.byteLength(text) <= maxBytes) return text;
  // maxBytes characters are at least maxBytes bytes: encoding that much of the text is enough.
  const head = Buffer.from(text.slice(0, maxBytes)).subarray(0, Math.max(0, maxBytes - MARKER_BYTES));
  // A sequence cut in the middle decodes to U+FFFD at the end; dropping it keeps whole characters only.
  return head.toString('utf8').replace(/\uFFFD+$/, '') + TRUNCATED_MARKER;
}

/**
 * JSON of `value`, bounded. The value was already parsed from a body the transport limited, so serialising it whole
 * costs what parsing did; only what is kept is bounded.
 */
export function boundedJson(value: unknown, maxBytes: number): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return '[unserialisable]'; // a handler's result with a cycle or a BigInt: the span still ends
  }
  return truncateUtf8(text ?? 'null', maxBytes);
}
