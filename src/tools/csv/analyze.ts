// Streams a CSV file through the parser into the table: bounded memory, progress by bytes, stops when aborted, and
// lets the event loop turn after every chunk, so other requests are served while a big file is read.

import type { FileHandle } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError } from './csv-error.js';
import { CsvParser } from './csv-parser.js';
import { CsvTable, type TableOptions } from './table.js';

/**
 * Bytes per read, and the most text parsed before the event loop turns: a few milliseconds of work even on a row of
 * 1,000 distinct cells (the stream alone would hand over buffered chunks without a turn in between).
 */
export const READ_CHUNK_BYTES = 64 * 1024;

export interface AnalyzeLimits {
  maxFileBytes: number;
  maxRecordBytes: number;
}

export interface AnalyzeOptions extends TableOptions {
  delimiter: string;
}

export interface AnalyzeIo {
  signal: AbortSignal;
  /** Bytes read so far and the file's size. */
  progress(bytesRead: number, total: number): void;
}

export interface Analysis {
  table: CsvTable;
  parser: CsvParser;
  bytesRead: number;
}

const formatBytes = (bytes: number): string => {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit] ?? ''}`;
};

/** Reads an open file to its size at the start (a file growing meanwhile is read as it was) and analyses it. */
export async function analyzeCsv(
  handle: FileHandle,
  options: AnalyzeOptions,
  limits: AnalyzeLimits,
  io: AnalyzeIo,
): Promise<Analysis> {
  const { size } = await handle.stat();
  if (size > limits.maxFileBytes) {
    throw new CsvError(
      `"${options.file}" is ${formatBytes(size)}, more than the ${formatBytes(limits.maxFileBytes)} this server analyses (the maxFileBytes limit of the csv pack)`,
    );
  }
  if (size === 0) throw new CsvError(`"${options.file}" is empty (0 bytes); there is nothing to analyse`);
  const table = new CsvTable(options);
  const parser = new CsvParser({
    delimiter: options.delimiter,
    maxRecordChars: limits.maxRecordBytes,
    onRecord: (fields, line) => table.record(fields, line),
  });
  // The default TextDecoder drops a leading byte order mark and decodes a character split across chunks.
  const decoder = new TextDecoder('utf-8');
  const stream = handle.createReadStream({
    start: 0,
    end: size - 1,
    highWaterMark: READ_CHUNK_BYTES,
    autoClose: false,
  });
  let bytesRead = 0;
  try {
    // A stream without an encoding yields Buffers; its iterator is typed `any`.
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      io.signal.throwIfAborted();
      bytesRead += chunk.length;
      parser.push(decoder.decode(chunk, { stream: true }));
      io.progress(bytesRead, size);
      await nextTurn();
    }
  } finally {
    stream.destroy();
  }
  io.signal.throwIfAborted();
  parser.push(decoder.decode());
  parser.end();
  if (!table.started) {
    throw new CsvError(
      `"${options.file}" has no CSV records (only blank lines or an unclosed quote); there is nothing to analyse`,
    );
  }
  return { table, parser, bytesRead };
}
