// The code of the matching worker thread, as plain JavaScript text.
// It is evaluated (Worker with eval: true) rather than loaded from a file so that it runs the same from src/ under tsx
// and from dist/, and it is written by hand because a transpiler would add helpers the bare worker does not have.

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
  texts: string[];
  /** Stop after this many matches. */
  limit: number;
  contextLines: number;
}

export type WorkerReply =
  | { id: number; ok: true; matches: WorkerMatch[]; filesDone: number }
  | { id: number; ok: false; file: number; message: string };

export interface WorkerData {
  source: string;
  flags: string;
  /** A literal search: a file whose whole text does not contain it has no matching line, so it is skipped at once. */
  literal: boolean;
  /** Longest preview or context line, in UTF-16 units; longer ones are cut around the match and marked with "…". */
  previewChars: number;
}

export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.source, workerData.flags);
const literal = workerData.literal;
const width = workerData.previewChars;

const clip = (line) => (line.length > width ? line.slice(0, width) + '…' : line);
const strip = (line) => (line.endsWith('\r') ? line.slice(0, -1) : line);

function preview(line, index) {
  if (line.length <= width) return line;
  const start = Math.max(0, Math.min(index - Math.floor(width / 4), line.length - width));
  return (start > 0 ? '…' : '') + line.slice(start, start + width) + (start + width < line.length ? '…' : '');
}

function search(request) {
  const matches = [];
  for (let file = 0; file < request.texts.length; file++) {
    if (request.texts[file] === '' || (literal && !pattern.test(request.texts[file]))) continue;
    const lines = request.texts[file].split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    for (let number = 0; number < lines.length; number++) {
      const line = strip(lines[number]);
      let found;
      try {
        found = pattern.exec(line);
      } catch (error) {
        return { id: request.id, ok: false, file, message: String(error && error.message) };
      }
      if (found === null) continue;
      const context = request.contextLines;
      matches.push({
        file,
        line: number + 1,
        column: Array.from(line.slice(0, found.index)).length + 1,
        preview: preview(line, found.index),
        before: lines.slice(Math.max(0, number - context), number).map((text) => clip(strip(text))),
        after: context === 0 ? [] : lines.slice(number + 1, number + 1 + context).map((text) => clip(strip(text))),
      });
      if (matches.length >= request.limit) return { id: request.id, ok: true, matches, filesDone: file + 1 };
    }
  }
  return { id: request.id, ok: true, matches, filesDone: request.texts.length };
}

parentPort.on('message', (request) => parentPort.postMessage(search(request)));
`;
