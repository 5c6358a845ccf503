// Reads one file for searching: regular files only, within the size cap, text only, decoded as read_file would
// (detection on the first 8 KiB, then the whole buffer at once).

import { constants, promises as fs } from 'node:fs';
import { SNIFF_BYTES, binaryReason, decodeWhole, detectEncoding } from '../files/index.js';

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
 * Opens without following a link swapped in since the walk and without blocking on a FIFO, checks the opened handle
 * is a regular file, and reads at most `maxBytes` (a file that grew past it meanwhile counts as too large).
 */
export async function readCandidate(path: string, maxBytes: number): Promise<ReadResult> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { kind: 'unreadable' };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'unreadable' };
    if (stats.size > maxBytes) return { kind: 'too-large' };
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, maxBytes) + 1); // only the bytes read are used
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
