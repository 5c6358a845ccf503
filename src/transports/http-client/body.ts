// Reading HTTP response bodies within a byte limit, and short snippets of them for error messages.

/** Longest body excerpt kept in a TransportError. */
export const SNIPPET_CHARS = 300;

export interface BodyText {
  /** The body, or its first maxBytes bytes when `truncated`. */
  text: string;
  truncated: boolean;
}

/**
 * Reads a response body as UTF-8, keeping at most `maxBytes` bytes; a longer body is cut off and its stream
 * cancelled (which closes the connection). Aborting `signal` cancels the read; the promise then rejects.
 */
export async function readBody(
  response: Response,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<BodyText> {
  const body = response.body;
  if (body === null) return { text: '', truncated: false };
  const declared = Number(response.headers.get('content-length') ?? NaN);
  const reader = body.getReader();
  // Fetch implementations that ignore the signal once the headers are in still stop reading here.
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (declared > maxBytes) {
      await reader.cancel().catch(() => {});
      return { text: '', truncated: true };
    }
    const pieces: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      const room = maxBytes - total;
      if (value.length > room) {
        pieces.push(value.subarray(0, room));
        await reader.cancel().catch(() => {});
        return { text: decode(pieces, maxBytes), truncated: true };
      }
      pieces.push(value);
      total += value.length;
    }
    return { text: decode(pieces, total), truncated: false };
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Reads and discards a body we have no use for (a 202), so the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** The start of a body on one line, for a human reading an error message. */
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? flat.slice(0, SNIPPET_CHARS) + '…' : flat;
}

function decode(pieces: Uint8Array[], total: number): string {
  const joined = Buffer.concat(pieces, total);
  // Buffer decoding keeps a leading U+FEFF and replaces invalid bytes with U+FFFD; JSON.parse then rejects both.
  return joined.toString('utf8');
}
