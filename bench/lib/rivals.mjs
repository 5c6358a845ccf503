// The npm bridge and aggregator the gateway rows are measured against: supergateway (one stdio server on Streamable
// HTTP, stateful: one child per session) and mcp-hub (an aggregator; measured through its REST endpoints, since its
// /mcp endpoint is the 2024-11-05 HTTP+SSE transport whose answers wrk cannot check). Both are devDependencies.

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { START_MS, askOnce, askUntilRight, freePort, tail } from './child-wait.mjs';
import { serverCommand, stop } from './processes.mjs';
import { measureSse, openSseSession, rightAnswer } from './sse-load.mjs';
import http from 'node:http';
import {
  ACCEPT,
  CALL_EXPECT,
  CALL_REJECT,
  LEGACY,
  SUM_ARGUMENTS,
  closeLegacySession,
  openLegacySession,
} from './workloads.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUPERGATEWAY = join(ROOT, 'node_modules', 'supergateway', 'dist', 'index.js');
const MCP_HUB = join(ROOT, 'node_modules', 'mcp-hub', 'dist', 'cli.js');

/** mcp-hub on a free port, its state and logs kept inside `dir`; ready once every server says "connected". */
export async function startHub(mcpServers, dir, path, track) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'mcp-hub.json');
  writeFileSync(file, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
  const port = await freePort();
  const home = { HOME: dir, XDG_STATE_HOME: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config') };
  const child = spawn(process.execPath, [MCP_HUB, '--port', String(port), '--config', file], {
    cwd: dir,
    env: { ...process.env, ...home, XDG_DATA_HOME: join(dir, 'data'), XDG_CACHE_HOME: join(dir, 'cache') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  track(child);
  const seen = tail(child.stderr);
  const base = `http://127.0.0.1:${port}`;
  const names = Object.keys(mcpServers);
  try {
    await askUntilRight(child, `${base}/api/servers`, {
      method: 'GET',
      expect: names.map((name) => `"name":"${name}"`),
      reject: ['"status":"connecting"', '"status":"disconnected"'],
    });
  } catch (error) {
    await stop(child);
    throw new Error(`mcp-hub did not connect its servers: ${error.message}\n${seen()}`, { cause: error });
  }
  return { child, pid: child.pid, url: `${base}${path}` };
}

/** supergateway bridging one stdio server to Streamable HTTP, stateful: one child per session. */
export async function startSupergateway(tools, track) {
  const port = await freePort();
  const [command, args] = serverCommand('toolwire', 'stdio', tools);
  const quote = (word) => `'${word.replaceAll("'", "'\\''")}'`; // it runs the command through a shell
  const child = spawn(
    process.execPath,
    [
      SUPERGATEWAY,
      ...['--stdio', [command, ...args].map(quote).join(' '), '--outputTransport', 'streamableHttp'],
      ...['--stateful', '--port', String(port), '--logLevel', 'none'],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  track(child);
  const seen = tail(child.stderr);
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + START_MS;
  for (;;) {
    try {
      await (await fetch(url, { method: 'GET' })).arrayBuffer(); // any answer: it listens
      break;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop(child);
        throw new Error(`supergateway did not listen on ${url}\n${seen()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { child, pid: child.pid, url };
}

/** mcp-hub's REST call of calculate_sum on one of its servers. */
export const hubCall = (server) => ({
  body: JSON.stringify({ server_name: server, tool: 'calculate_sum', arguments: SUM_ARGUMENTS }),
  headers: { 'content-type': 'application/json' },
  expect: ['"text":"42"'],
  reject: ['"isError":true', '"error":'],
});

/** A 2025-11-25 call of calculate_sum in a session; under load each request gets its own id (the SDK refuses reuse). */
export const sessionCall = (session) => ({
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'calculate_sum', arguments: SUM_ARGUMENTS },
  }),
  headers: { ...ACCEPT, 'mcp-protocol-version': LEGACY, ...session },
  expect: CALL_EXPECT,
  reject: CALL_REJECT,
  uniqueIds: true,
});

/** One right legacy call through a session (supergateway's stateful mode), before any load. */
export async function checkSession(url) {
  const session = await openLegacySession(url);
  try {
    await askOnce(url, sessionCall(session));
  } finally {
    await closeLegacySession(url, session);
  }
}

/** mcp-hub's own separator between a server's name and its tool's (it rewrites other characters of the name to '_'). */
export const HUB_SEPARATOR = '__';

/**
 * mcp-hub's aggregated /mcp (HTTP+SSE) as a front: `request` is { body(id), expect, reject }; load comes from
 * measureSse with one session per connection, and one session's right answer is checked first.
 */
export function hubOverMcp(front, request) {
  const base = front.url;
  return {
    ...front,
    measure: (workload, seconds) => measureSse({ base, sessions: workload.connections, seconds, ...request }),
    check: async () => {
      const agent = new http.Agent({ keepAlive: true });
      const session = await openSseSession(base, agent);
      try {
        const text = await session.ask(1, request.body(1));
        if (!rightAnswer(text, request.expect, request.reject))
          throw new Error(`mcp-hub answered wrong over /mcp: ${text.slice(0, 300)}`);
      } finally {
        session.close();
        agent.destroy();
      }
    },
  };
}
