// The embedded trail's record queue: an append-only file per writing process (a stream), next to the database, where
// the server writes each turn's records in one write(2) before it releases their answers. A write that has returned
// is in the operating system, as a WAL commit at synchronous=NORMAL is, so a kill -9 loses none of them; the writer
// thread moves them into the database (sqlite-queue-apply.ts) a few milliseconds later, hundreds per transaction,
// while the event loop answers the next calls instead of waiting for each commit.
//
// A stream is `<database file>.q-<pid>-<8 hex>.<segment>`: segment files of about SEGMENT_BYTES, each line one batch
// (a JSON array of entries, ended by "\n", which JSON text never holds raw). A new segment is created only after the
// last write to the one before has returned, so whoever sees segment n+1 knows segment n is complete.
//
// A file with a stream's name is read only when a writer of this trail could have made it (threats H2, H3): a
// regular file, not a link, of the trail's owner, open to nobody else, with one name. Anything else (planted by
// another user of a shared directory: forged records, a FIFO that would block the reader, a link to another file)
// is refused with its reason and never stored.

import {
  closeSync,
  constants,
  ftruncateSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname } from 'node:path';

/** A segment past this size is closed and the next one begun (the applier deletes what it has applied). */
export const SEGMENT_BYTES = 4 * 1024 * 1024;
/** Records per line at most: a line stays far below MAX_LINE_BYTES even when every record is as large as allowed. */
export const LINE_RECORDS = 64;
/** The longest line an applier reads; a longer one was not written by a writer and is skipped (read memory bound). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const STREAM = /^\d{1,10}-[0-9a-f]{8}$/;

export const segmentFile = (database: string, stream: string, segment: number): string =>
  `${database}.q-${stream}.${segment}`;

/** The streams next to `database` and each one's segment numbers, ascending. */
export function listStreams(database: string): Map<string, number[]> {
  const prefix = `${basename(database)}.q-`;
  const streams = new Map<string, number[]>();
  let names: string[];
  try {
    names = readdirSync(dirname(database));
  } catch {
    return streams; // no directory: no queue
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const dot = rest.lastIndexOf('.');
    const stream = rest.slice(0, dot);
    const segment = Number(rest.slice(dot + 1));
    if (dot < 0 || !STREAM.test(stream) || !Number.isSafeInteger(segment) || segment < 0) continue;
    const segments = streams.get(stream) ?? [];
    segments.push(segment);
    streams.set(stream, segments);
  }
  for (const segments of streams.values()) segments.sort((a, b) => a - b);
  return streams;
}

/** Whether the process that writes `stream` may still be running (its own process counts as running). */
export function streamAlive(stream: string): boolean {
  const pid = Number(stream.slice(0, stream.indexOf('-')));
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // someone else's process, alive
  }
}

/** Appends batches to one stream (the main thread's side). Synchronous: its caller releases answers after it. */
export class QueueWriter {
  readonly stream: string;
  readonly #database: string;
  readonly #segmentBytes: number;
  #fd: number;
  #segment = 0;
  #size = 0;
  #broken: Error | undefined;

  constructor(database: string, stream: string, segmentBytes = SEGMENT_BYTES) {
    this.#database = database;
    this.stream = stream;
    this.#segmentBytes = segmentBytes;
    this.#fd = openSync(segmentFile(database, stream, 0), 'ax', 0o600);
  }

  /**
   * Writes one line whole and returns where it ends, or throws and leaves the file as it was (a failed write is cut
   * off again, so the next line never joins its remains). When even that fails, every later write throws.
   */
  write(line: string): { segment: number; end: number } {
    if (this.#broken !== undefined) throw this.#broken;
    if (this.#size >= this.#segmentBytes) this.#rotate();
    const bytes = Buffer.from(line, 'utf8');
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(this.#fd, bytes, written);
    } catch (error) {
      try {
        if (written > 0) ftruncateSync(this.#fd, this.#size);
      } catch (cut) {
        this.#broken = new Error(
          `the audit queue ${segmentFile(this.#database, this.stream, this.#segment)} holds a partly written batch that could not be cut off (${(cut as Error).message})`,
        );
      }
      throw error;
    }
    this.#size += bytes.length;
    return { segment: this.#segment, end: this.#size };
  }

  close(): void {
    if (this.#fd < 0) return;
    closeSync(this.#fd);
    this.#fd = -1;
    this.#broken ??= new Error('the audit queue is closed');
  }

  #rotate(): void {
    const file = segmentFile(this.#database, this.stream, this.#segment + 1);
    let next: number;
    try {
      next = openSync(file, 'ax', 0o600); // never an existing name, nor a link's target
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Only this writer makes its stream's names: somebody else made this one, and may write to the directory.
      throw new Error(
        `the audit queue's next segment ${file} already exists, made by somebody else; the trail's directory must be writable by its owner only`,
        { cause: error },
      );
    }
    closeSync(this.#fd);
    this.#fd = next;
    this.#segment += 1;
    this.#size = 0;
  }
}

/** A file with a queue segment's name that no writer of the trail made (see the header); its message says why. */
export class ForeignQueueFile extends Error {
  override readonly name = 'ForeignQueueFile';
}

const POSIX = process.platform !== 'win32';
// Not following a link, and not waiting for a writer when the name is a FIFO (O_NONBLOCK does not change file reads).
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Why a file with a segment's name is not one the trail's writers make, or undefined when it is. `owner`: the uid
 * the trail's files belong to (the database file's), undefined where there are no uids (Windows).
 */
export function foreignReason(stats: Stats, owner: number | undefined): string | undefined {
  if (stats.isSymbolicLink()) return 'is a symbolic link';
  if (!stats.isFile()) return 'is not a regular file';
  if (owner !== undefined && stats.uid !== owner) {
    return `belongs to uid ${stats.uid}, not to the trail's owner (uid ${owner})`;
  }
  if (POSIX && (stats.mode & 0o077) !== 0) {
    return `is open to other users (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}, not 0600)`;
  }
  if (stats.nlink !== 1) return `has ${stats.nlink} names (a writer's segment has one)`;
  return undefined;
}

/** Opens a segment to read: null when it does not exist; throws ForeignQueueFile when no writer of the trail made it. */
export function openSegment(file: string, owner: number | undefined): number | null {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP' || code === 'EMLINK') throw new ForeignQueueFile(`${file} is a symbolic link`);
    throw error;
  }
  const why = foreignReason(fstatSync(fd), owner);
  if (why === undefined) return fd;
  closeSync(fd);
  throw new ForeignQueueFile(`${file} ${why}`);
}

/** Whether a segment exists, looked at without opening it; throws ForeignQueueFile as openSegment does. */
export function segmentExists(file: string, owner: number | undefined): boolean {
  let stats: Stats;
  try {
    stats = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const why = foreignReason(stats, owner);
  if (why !== undefined) throw new ForeignQueueFile(`${file} ${why}`);
  return true;
}

/**
 * The complete lines of a segment from `offset`, at most about `maxBytes` of them (always at least one whole line),
 * and the bytes they span with their newlines; null when the file does not exist. A line longer than `maxLine` is
 * not read: `skipped` says how many bytes it spans with its newline (0 while its end is not written yet). Throws
 * ForeignQueueFile for a file no writer of the trail made (`owner`: as foreignReason takes it).
 */
export function readLines(
  file: string,
  offset: number,
  maxBytes: number,
  maxLine = MAX_LINE_BYTES,
  owner?: number,
): { lines: string[]; bytes: number; rest: number; skipped: number } | null {
  const fd = openSegment(file, owner);
  if (fd === null) return null;
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { lines: [], bytes: 0, rest: 0, skipped: 0 };
    let length = Math.min(size - offset, maxBytes);
    let buffer = Buffer.allocUnsafe(length);
    let read = readInto(fd, buffer, offset);
    let last = buffer.lastIndexOf(10, read - 1);
    // A line longer than maxBytes: read on until its end (or the end of what is there), up to maxLine.
    while (last < 0 && offset + read < size) {
      if (read >= maxLine)
        return { lines: [], bytes: 0, rest: 0, skipped: skipLine(fd, offset + read, size, offset) };
      length = Math.min(size - offset, length * 2, maxLine);
      const bigger = Buffer.allocUnsafe(length);
      buffer.copy(bigger, 0, 0, read);
      buffer = bigger;
      read += readInto(fd, buffer, offset + read, read);
      last = buffer.lastIndexOf(10, read - 1);
    }
    if (last < 0) {
      return read >= maxLine
        ? { lines: [], bytes: 0, rest: 0, skipped: skipLine(fd, offset + read, size, offset) }
        : { lines: [], bytes: 0, rest: read, skipped: 0 };
    }
    const lines = buffer.toString('utf8', 0, last).split('\n');
    return { lines, bytes: last + 1, rest: size - offset - last - 1, skipped: 0 };
  } finally {
    closeSync(fd);
  }
}

/** The bytes from `start` through the next newline at or after `from`, looked for a MiB at a time; 0: none yet. */
function skipLine(fd: number, from: number, size: number, start: number): number {
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  for (let position = from; position < size;) {
    const got = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
    if (got === 0) break;
    const newline = chunk.subarray(0, got).indexOf(10);
    if (newline >= 0) return position + newline + 1 - start;
    position += got;
  }
  return 0;
}

function readInto(fd: number, buffer: Buffer, position: number, start = 0): number {
  let read = start;
  while (read < buffer.length) {
    const got = readSync(fd, buffer, read, buffer.length - read, position + read - start);
    if (got === 0) break;
    read += got;
  }
  return read - start;
}

/** The stream a process writes: its pid and 8 random hex digits (a second trail in the process gets another). */
export const streamName = (pid: number, random: string): string => `${pid}-${random}`;
