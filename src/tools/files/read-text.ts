// Reads a range of lines from an open file: sniff the first bytes (encoding, binary), then stream and keep the range.

import type { FileHandle } from 'node:fs/promises';
import { ToolError } from '../../server/index.js';
import { LineCollector } from './line-collector.js';
import {
  ChunkDecoder,
  NotUtf8Error,
  SNIFF_BYTES,
  binaryReason,
  detectEncoding,
  looksLikeUtf16le,
  type EncodingChoice,
  type TextEncodingName,
} from './text-encoding.js';

const CHUNK_BYTES = 64 * 1024;

export interface ReadRequest {
  /** The path as the model sees it, for messages. */
  shown: string;
  size: number;
  encoding: EncodingChoice;
  startLine: number;
  endLine: number | undefined;
  maxBytes: number;
  signal: AbortSignal;
  /** Called with the bytes read so far. */
  onProgress: (bytesRead: number) => void;
}

export interface ReadOutcome {
  encoding: TextEncodingName;
  lines: LineCollector;
  /** True when the whole file was read (so the collector's line count is the file's). */
  reachedEnd: boolean;
}

/** Reads the first bytes at offset 0 without moving anything. */
async function sniff(handle: FileHandle, size: number): Promise<Uint8Array> {
  const buffer = Buffer.alloc(Math.min(SNIFF_BYTES, size));
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  return buffer.subarray(0, bytesRead);
}

export async function readTextRange(handle: FileHandle, request: ReadRequest): Promise<ReadOutcome> {
  const sample = await sniff(handle, request.size);
  const detected = detectEncoding(sample, request.encoding, sample.length >= request.size);
  const reason = binaryReason(sample, detected);
  if (reason !== undefined) {
    const hint =
      request.encoding === 'auto' && looksLikeUtf16le(sample)
        ? '; if it is UTF-16 text without a byte order mark, read it with encoding "utf-16le"'
        : '; read_file only returns text';
    throw new ToolError(`file "${request.shown}" is a binary file (${reason})${hint}`);
  }
  const strict = request.encoding === 'auto' && detected.encoding === 'utf-8' && detected.bomLength === 0;
  try {
    return await stream(handle, request, detected.encoding, detected.bomLength, strict);
  } catch (error) {
    // Valid UTF-8 at the start but not further on: the file is read again, whole, as latin1.
    if (error instanceof NotUtf8Error) return await stream(handle, request, 'latin1', 0, false);
    throw error;
  }
}

async function stream(
  handle: FileHandle,
  request: ReadRequest,
  encoding: TextEncodingName,
  offset: number,
  strict: boolean,
): Promise<ReadOutcome> {
  const decoder = new ChunkDecoder(encoding, strict);
  const lines = new LineCollector({
    startLine: request.startLine,
    endLine: request.endLine,
    maxBytes: request.maxBytes,
    countAll: request.size <= request.maxBytes,
  });
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let position = offset;
  for (;;) {
    if (request.signal.aborted) throw new ToolError('read_file was cancelled');
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) {
      lines.push(decoder.end());
      lines.end();
      return { encoding, lines, reachedEnd: lines.cut === undefined };
    }
    position += bytesRead;
    request.onProgress(position);
    if (!lines.push(decoder.write(buffer.subarray(0, bytesRead)))) {
      return { encoding, lines, reachedEnd: false };
    }
  }
}
