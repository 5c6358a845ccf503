// The code of a matching worker thread, as plain JavaScript text.
// It is evaluated (Worker with eval: true) rather than loaded from a file so that it runs the same from src/ under tsx
// and from dist/, and it is written by hand because a transpiler would add helpers the bare worker does not have.
// One thread serves many searches in turn (the pattern comes with each request), and writes where it is into shared
// memory so that the pool can cut a batch anywhere and resume it at the file it was on.

/** Per matched line: the numbers and text a result needs. Lines are compared without their "\r". */
export interface WorkerMatch {
  /** Index of the file in the batch. */
  file: number;
  /** 1-based line number. */
  line: number;
  /** 1-based column, in characters (code points). */
  column: number;
  preview: string;
  before: string[];
  after: string[];
}

export interface WorkerRequest {
  id: number;
  source: string;
  flags: string;
  /** A literal search: a file whose whole text does not contain it has no matching line, so it is skipped at once. */
  literal: boolean;
  /** The texts from file `first` of the batch on (a batch resumed after a cut sends only what is left). */
  texts: string[];
  first: number;
  /** Stop after this many matches. */
  limit: number;
  contextLines: number;
}

/** Files with matches are sent one by one as they finish (so a cut loses none); then `done` or `failed`. */
export type WorkerReply =
  | { id: number; kind: 'file'; file: number; matches: WorkerMatch[] }
  | { id: number; kind: 'done'; filesDone: number }
  | { id: number; kind: 'failed'; file: number; message: string };

export interface WorkerData {
  /** Longest preview or context line, in UTF-16 units; longer ones are cut around the match and marked with "…". */
  previewChars: number;
  /** PROGRESS_BYTES of shared memory: see the Progress slots below. */
  progress: SharedArrayBuffer;
}

/** Int32 slots of the shared progress memory; a Float64 at byte 16 holds when the current file was started (Date.now()). */
export const Progress = { Request: 0, File: 1, Line: 2, Posted: 3 } as const;
export const PROGRESS_BYTES = 24;

export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const width = workerData.previewChars;
const slots = new Int32Array(workerData.progress, 0, 4);
const fileStartedAt = new Float64Array(workerData.progress, 16, 1);
const REQUEST = 0, FILE = 1, LINE = 2, POSTED = 3;
let compiled = { key: '', pattern: /$^/ };

const clip = (line) => (line.length > width ? line.slice(0, width) + '…' : line);
const strip = (line) => (line.endsWith('\r') ? line.slice(0, -1) : line);

function preview(line, index) {
  if (line.length <= width) return line;
  const start = Math.max(0, Math.min(index - Math.floor(width / 4), line.length - width));
  return (start > 0 ? '…' : '') + line.slice(start, start + width) + (start + width < line.length ? '…' : '');
}

function patternOf(request) {
  const key = request.flags + '/' + request.source;
  if (compiled.key !== key) compiled = { key, pattern: new RegExp(request.source, request.flags) };
  return compiled.pattern;
}

// Order matters: a match message is posted, then counted, then the next file is announced. The pool reads the file
// first and the count second, so every match message of the files before the one it reads has been counted.
function search(request) {
  const pattern = patternOf(request);
  const id = request.id;
  Atomics.store(slots, POSTED, 0);
  Atomics.store(slots, FILE, request.first);
  Atomics.store(slots, LINE, 0);
  Atomics.store(slots, REQUEST, id);
  let found = 0;
  for (let index = 0; index < request.texts.length; index++) {
    const file = request.first + index;
    const text = request.texts[index];
    fileStartedAt[0] = Date.now();
    Atomics.store(slots, LINE, 0);
    Atomics.store(slots, FILE, file);
    if (text === '' || (request.literal && !pattern.test(text))) continue;
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const matches = [];
    for (let number = 0; number < lines.length; number++) {
      slots[LINE] = number + 1;
      const line = strip(lines[number]);
      let hit;
      try {
        hit = pattern.exec(line);
      } catch (error) {
        return { id, kind: 'failed', file, message: String(error && error.message) };
      }
      if (hit === null) continue;
      const context = request.contextLines;
      matches.push({
        file,
        line: number + 1,
        column: Array.from(line.slice(0, hit.index)).length + 1,
        preview: preview(line, hit.index),
        before: lines.slice(Math.max(0, number - context), number).map((text) => clip(strip(text))),
        after: context === 0 ? [] : lines.slice(number + 1, number + 1 + context).map((text) => clip(strip(text))),
      });
      if (found + matches.length >= request.limit) break;
    }
    if (matches.length === 0) continue;
    parentPort.postMessage({ id, kind: 'file', file, matches });
    Atomics.add(slots, POSTED, 1);
    found += matches.length;
    if (found >= request.limit) return { id, kind: 'done', filesDone: file + 1 };
  }
  return { id, kind: 'done', filesDone: request.first + request.texts.length };
}

parentPort.on('message', (request) => parentPort.postMessage(search(request)));
`;
