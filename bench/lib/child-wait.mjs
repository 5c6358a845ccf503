// Waiting on the processes the gateway rows start: a free port, a child's stderr kept short and drained, a line it
// announces, and one request answered right (retried while upstreams connect), each bounded.

import { createServer } from 'node:net';

export const START_MS = 60_000;

/** A port free right now (for the tools that cannot listen on port 0 and say which port they got). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Keeps the last 4 KiB of a stream for error messages, and keeps reading it so the child never blocks on a full pipe. */
export function tail(stream) {
  let text = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk) => {
    text = (text + chunk).slice(-4096);
  });
  return () => text;
}

/** Resolves with the first match of `pattern` in a child's stderr; rejects when it exits first or after 60 s. */
export function announced(child, pattern, name) {
  const seen = tail(child.stderr);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within 60 s\n${seen()}`)),
      START_MS,
    );
    const look = () => {
      const match = pattern.exec(seen());
      if (match === null) return;
      clearTimeout(timer);
      child.stderr.off('data', look);
      resolve(match[1]);
    };
    child.stderr.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before listening\n${seen()}`));
    });
  });
}

/** Sends one request; resolves with the body when it is a right answer, else throws with what came back. */
export async function askOnce(url, { method = 'POST', body, headers, expect, reject = [] }) {
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  const wrong =
    response.status !== 200 ||
    expect.some((fragment) => !text.includes(fragment)) ||
    reject.some((fragment) => text.includes(fragment));
  if (wrong) throw new Error(`${url} answered wrong: ${response.status} ${text.slice(0, 300)}`);
  return text;
}

/** askOnce until right or the child exits (upstreams may still be connecting), 60 s at most. */
export async function askUntilRight(child, url, request) {
  const deadline = Date.now() + START_MS;
  for (;;) {
    try {
      return await askOnce(url, request);
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
