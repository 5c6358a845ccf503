// Reads one file for searching: regular files only, within the size cap, text only, decoded as read_file would
// (detection on the first 8 KiB, then the whole buffer at once).

import type { FileHandle } from 'node:fs/promises';
import { SNIFF_BYTES, binaryReason, decodeWhole, detectEncoding } from '../files/index.js';
import type { Candidate } from './walk.js';

export type ReadResult =
  | { kind: 'text'; text: string; size: number }
  | { kind: 'binary' }
  | { kind: 'too-large' }
  | { kind: 'unreadable' };

function decode(bytes: Buffer): string | undefined {
  const sample = bytes.subarray(0, SNIFF_BYTES);
  const detected = detectEncoding(sample, 'auto', bytes.length <= SNIFF_BYTES);
  if (binaryReason(sample, detected) !== undefined) return undefined;
  const body = bytes.subarray(detected.bomLength);
  const strict = detected.encoding === 'utf-8' && detected.bomLength === 0;
  return decodeWhole(body, detected.encoding, strict) ?? body.toString('latin1');
}

/**
 * Opens without following a link swapped in since the walk and without blocking on a FIFO, verifies the opened handle
 * (inside the root, a regular file; see Confinement.openFile), and reads at most `maxBytes` (a file that grew past it
 * meanwhile counts as too large). Whatever cannot be opened or verified is skipped as unreadable.
 */
export async function readCandidate(candidate: Candidate, maxBytes: number): Promise<ReadResult> {
  let handle: FileHandle;
  let size: number;
  try {
    const opened = await candidate.confinement.openFile(candidate.real, candidate.root, candidate.relative);
    handle = opened.handle;
    size = opened.stats.size;
  } catch {
    return { kind: 'unreadable' };
  }
  try {
    if (size > maxBytes) return { kind: 'too-large' };
    const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1); // only the bytes read are used
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return { kind: 'too-large' };
    const text = decode(buffer.subarray(0, length));
    return text === undefined ? { kind: 'binary' } : { kind: 'text', text, size: length };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    await handle.close();
  }
}
