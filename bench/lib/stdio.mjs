// stdio load: newline-delimited JSON-RPC written straight to a server's stdin, every answer read from its stdout and
// checked. Keeps `inFlight` requests outstanding; each chunk of answers is refilled with one write.

import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.mjs';

const MAX_SAMPLES = 2_000_000;
const DRAIN_MS = 10_000;

/** Reads a child's stdout as lines and hands each chunk's lines to the current listener. */
export class StdioPeer {
  #buffer = '';
  /** @type {(lines: string[]) => void} */
  onLines = () => {};

  constructor(child) {
    this.child = child;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      this.#buffer += chunk;
      const end = this.#buffer.lastIndexOf('\n');
      if (end === -1) return;
      const lines = this.#buffer.slice(0, end).split('\n');
      this.#buffer = this.#buffer.slice(end + 1);
      this.onLines(lines);
    });
  }

  write(text) {
    this.child.stdin.write(text);
  }
}

/**
 * Sends requests for `seconds` keeping `inFlight` outstanding, then drains (10 s at most; what is still missing
 * counts as errors). `request(id)` returns one line; `check(message)` says whether an answer is right.
 */
export function measureStdio(peer, { inFlight, seconds, request, check }) {
  return new Promise((resolve) => {
    const sentAt = new Map();
    const latencies = [];
    let nextId = 1;
    let good = 0;
    let errors = 0;
    let sample = '';
    let finished = false;
    const start = performance.now();
    const deadline = start + seconds * 1000;

    const send = (count) => {
      const now = performance.now();
      let out = '';
      for (let i = 0; i < count; i++) {
        const id = nextId++;
        sentAt.set(id, now);
        out += request(id);
      }
      peer.write(out);
    };
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(guard);
      peer.onLines = () => {};
      errors += sentAt.size; // never answered
      const elapsed = (performance.now() - start) / 1000;
      resolve({
        requests: good + errors,
        rps: good / elapsed,
        errors,
        sample,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        maxMs: percentile(latencies, 100),
      });
    };
    const guard = setTimeout(finish, seconds * 1000 + DRAIN_MS);

    peer.onLines = (lines) => {
      const now = performance.now();
      let answered = 0;
      for (const line of lines) {
        if (line.trim() === '') continue;
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          errors++;
          sample ||= line.slice(0, 300);
          continue;
        }
        if (message.id === undefined && typeof message.method === 'string') continue; // a notification
        const sent = sentAt.get(message.id);
        if (sent === undefined) {
          errors++;
          sample ||= line.slice(0, 300);
          continue;
        }
        sentAt.delete(message.id);
        answered++;
        if (latencies.length < MAX_SAMPLES) latencies.push(now - sent);
        if (check(message)) good++;
        else {
          errors++;
          sample ||= line.slice(0, 300);
        }
      }
      if (now < deadline) {
        if (answered > 0) send(answered);
      } else if (sentAt.size === 0) finish();
    };
    send(inFlight);
  });
}

/** Spawn to first correct answer: the request is written at once, before the server has read its stdin. */
export async function measureStartup(command, args, request, check) {
  const start = performance.now();
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const peer = new StdioPeer(child);
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no correct answer within 30 s from ${args.join(' ')}`)),
        30_000,
      );
      child.once('exit', (code) =>
        reject(new Error(`exited with code ${code} before answering: ${args.join(' ')}`)),
      );
      peer.onLines = (lines) => {
        for (const line of lines) {
          let message;
          try {
            message = JSON.parse(line);
          } catch {
            continue;
          }
          if (message.id !== 1) continue;
          clearTimeout(timer);
          if (check(message)) resolve(performance.now() - start);
          else reject(new Error(`wrong first answer: ${line.slice(0, 300)}`));
        }
      };
      peer.write(request(1));
    });
  } finally {
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}
