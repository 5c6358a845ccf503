// MCP load over the 2024-11-05 HTTP+SSE transport (a GET stream per session that carries every answer, requests POSTed
// to the endpoint it names), which wrk cannot drive: mcp-hub serves its aggregated /mcp this way. Each session keeps
// one request in flight, like one wrk connection; every answer is checked by fragments, as wrk's script checks them.

import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.mjs';

const MAX_SAMPLES = 2_000_000;
const REQUEST_MS = 10_000;
const OPEN_MS = 30_000;

/** One session: its event stream, the endpoint it named, and the one request awaiting an answer. */
class SseSession {
  #agent;
  #stream;
  #buffer = '';
  #waiting; // { id, resolve, reject, timer }
  endpoint;

  constructor(base, agent) {
    this.base = base;
    this.#agent = agent;
  }

  /** Opens GET <base>/mcp and resolves once the "endpoint" event has come. */
  open() {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no endpoint event from ${this.base}/mcp`)), OPEN_MS);
      const request = http.get(
        `${this.base}/mcp`,
        { headers: { accept: 'text/event-stream' } },
        (response) => {
          if (response.statusCode !== 200) {
            clearTimeout(timer);
            reject(new Error(`GET ${this.base}/mcp answered ${response.statusCode}`));
            response.resume();
            return;
          }
          response.setEncoding('utf8');
          response.on('data', (chunk) => {
            this.#buffer += chunk;
            let end;
            while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
              const event = this.#buffer.slice(0, end);
              this.#buffer = this.#buffer.slice(end + 2);
              const type = /^event: (.*)$/m.exec(event)?.[1] ?? 'message';
              const data = event
                .split('\n')
                .filter((line) => line.startsWith('data:'))
                .map((line) => line.slice(5).trimStart())
                .join('\n');
              if (type === 'endpoint') {
                clearTimeout(timer);
                this.endpoint = new URL(data, this.base).href;
                resolve();
              } else this.#message(data);
            }
          });
        },
      );
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
        this.#waiting?.reject(error);
      });
      this.#stream = request;
    });
  }

  #message(data) {
    const waiting = this.#waiting;
    // Notifications (list changes, log messages) share the stream: only the awaited id settles the request.
    const id = waiting?.id;
    if (waiting === undefined || !(data.includes(`"id":${id},`) || data.includes(`"id":${id}}`))) return;
    if (data.includes('"method":"notifications/')) return;
    this.#waiting = undefined;
    clearTimeout(waiting.timer);
    waiting.resolve(data);
  }

  #post(body) {
    return new Promise((resolve, reject) => {
      const request = http.request(
        this.endpoint,
        {
          method: 'POST',
          agent: this.#agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode === 202 || response.statusCode === 200
              ? resolve()
              : reject(new Error(`POST ${this.endpoint} answered ${response.statusCode}`)),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  /** Sends a request and resolves with the data of its answer (raw text), 10 s at most. */
  ask(id, body) {
    const answer = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = undefined;
        reject(new Error(`no answer to request ${id} within 10 s`));
      }, REQUEST_MS);
      this.#waiting = { id, resolve, reject, timer };
    });
    const posted = this.#post(body).catch((error) => {
      if (this.#waiting?.id === id) {
        clearTimeout(this.#waiting.timer);
        this.#waiting = undefined;
      }
      throw error;
    });
    return Promise.all([answer, posted]).then(([data]) => data);
  }

  notify(body) {
    return this.#post(body);
  }

  close() {
    this.#stream?.destroy();
  }
}

/** Opens a session and initializes it (2025-03-26, the version mcp-hub implements). */
export async function openSseSession(base, agent) {
  const session = new SseSession(base, agent);
  await session.open();
  const answer = await session.ask(
    0,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 'toolwire-bench', version: '1.0.0' },
      },
    }),
  );
  if (!answer.includes('"protocolVersion"')) throw new Error(`initialize failed: ${answer.slice(0, 300)}`);
  await session.notify(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return session;
}

/** Whether an answer's text holds every expected fragment and no rejected one. */
export const rightAnswer = (text, expect, reject) =>
  expect.every((fragment) => text.includes(fragment)) && !reject.some((fragment) => text.includes(fragment));

/**
 * `sessions` sessions, each with one request in flight for `seconds`; `body(id)` is a request, `expect`/`reject` the
 * fragments a right answer holds or must not. Same result shape as runWrk.
 */
export async function measureSse({ base, sessions, seconds, body, expect, reject = [] }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sessions });
  const open = await Promise.all(Array.from({ length: sessions }, () => openSseSession(base, agent)));
  const latencies = [];
  let good = 0;
  let errors = 0;
  let sample = '';
  let nextId = 1;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  try {
    await Promise.all(
      open.map(async (session) => {
        while (performance.now() < deadline) {
          const id = nextId++;
          const sent = performance.now();
          try {
            const text = await session.ask(id, body(id));
            if (latencies.length < MAX_SAMPLES) latencies.push(performance.now() - sent);
            if (rightAnswer(text, expect, reject)) good++;
            else {
              errors++;
              sample ||= text.slice(0, 300);
            }
          } catch (error) {
            errors++;
            sample ||= error.message;
            return; // a session that failed once is not trusted to answer in order again
          }
        }
      }),
    );
  } finally {
    for (const session of open) session.close();
    agent.destroy();
  }
  const elapsed = (performance.now() - start) / 1000;
  return {
    requests: good + errors,
    rps: good / elapsed,
    errors,
    sample,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: percentile(latencies, 100),
  };
}
