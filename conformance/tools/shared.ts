// Test assets and small helpers shared by the conformance fixture tools.

import { setTimeout as delay } from 'node:timers/promises';

/** A 1×1 red PNG, as the reference fixture sends it. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A minimal WAV file (RIFF header, 1 sample). */
export const WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** Waits `ms`, ending early (with a rejection) when the call is cancelled or times out. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> => delay(ms, undefined, { signal });

/** The text of a sampling result's content (a block or an array of blocks). */
export function sampledText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks
    .map((block) => (block as { text?: unknown } | null)?.text)
    .filter((text): text is string => typeof text === 'string');
  return texts.length > 0 ? texts.join(' ') : '(no text)';
}
