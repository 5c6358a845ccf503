// The processes behind the gateway rows: `toolwire gateway` (through its CLI only: a toolwire.json with mcpServers,
// `toolwire gateway --http 127.0.0.1:0 --config FILE` with the URL read from its "listening on" line, or `--stdio`),
// the competitors (rivals.mjs) and the toolwire bench servers they all front. Each variant hands run.mjs a server
// object with the request to send and a check that one request answers right before any load.

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { START_MS, announced, askOnce, askUntilRight, tail } from './child-wait.mjs';
import { LIST_UPSTREAMS } from './gateway-workloads.mjs';
import { serverCommand, startHttpServer, stop } from './processes.mjs';
import {
  HUB_SEPARATOR,
  checkSession,
  hubCall,
  hubOverMcp,
  sessionCall,
  startHub,
  startSupergateway,
} from './rivals.mjs';
import { StdioPeer } from './stdio.mjs';
import { ACCEPT, CALL_EXPECT, CALL_REJECT, META, MODERN, SUM_ARGUMENTS, isRightSum } from './workloads.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The toolwire CLI; BENCH_GATEWAY_BIN points at another build of it (a branch not merged yet, say). */
const TOOLWIRE_BIN = process.env.BENCH_GATEWAY_BIN ?? join(ROOT, 'bin', 'toolwire.js');
/** The server name of the single-upstream configs: the exposed tool is `bench___calculate_sum`. */
const ONE = 'bench';
const listName = (index) => `up${String(index).padStart(2, '0')}`;

export const GATEWAY_VARIANTS = [
  'gw-http',
  'gw-stdio',
  'gw-pipe',
  'gw-list',
  'hub-http',
  'hub-stdio',
  'hub-list',
  'hub-rest-http',
  'hub-rest-stdio',
  'hub-rest-list',
  'sg-stdio',
];

/** Upstream HTTP servers shared by the variants of one run (the gateway and mcp-hub front the same processes). */
const fleets = new Map();
function httpUpstreams(tools, count, track) {
  const key = `${tools}×${count}`;
  if (!fleets.has(key)) {
    const starting = Array.from({ length: count }, () =>
      startHttpServer('toolwire', tools).then((server) => {
        track(server.child);
        return server;
      }),
    );
    fleets.set(key, Promise.all(starting));
  }
  return fleets.get(key);
}

/** The stdio upstream as an mcpServers entry: the toolwire bench server in stdio mode. */
function stdioEntry(tools) {
  const [command, args] = serverCommand('toolwire', 'stdio', tools);
  return { command, args };
}

/** The gateway's CLI on a config written into `dir`. */
async function startGateway(mcpServers, dir, track) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'toolwire.json');
  writeFileSync(file, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
  const args = [TOOLWIRE_BIN, 'gateway', '--http', '127.0.0.1:0', '--config', file];
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  track(child);
  try {
    const url = await announced(child, /listening on (http:\/\/\S+)/, 'toolwire gateway');
    return { child, pid: child.pid, url };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

/** The gateway's CLI served over stdio (`--stdio`), with pipes for the bench to write to and read from. */
function startGatewayStdio(mcpServers, dir, track) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'toolwire.json');
  writeFileSync(file, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
  const args = [TOOLWIRE_BIN, 'gateway', '--stdio', '--config', file];
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  track(child);
  return { child, pid: child.pid, peer: new StdioPeer(child), seen: tail(child.stderr) };
}

/** One stdio line: a 2026-07-28 tools/call of calculate_sum by the gateway's exposed name. */
const gatewayLine = (exposed) => (id) =>
  `${JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: exposed, arguments: SUM_ARGUMENTS, _meta: META },
  })}\n`;

/** Writes one call (id 0, which the load never uses) and waits for its right answer, 60 s at most. */
function checkStdio({ child, peer, seen }, line) {
  return new Promise((resolve, reject) => {
    const fail = (message) => {
      clearTimeout(timer);
      peer.onLines = () => {};
      reject(new Error(`toolwire gateway --stdio: ${message}\n${seen()}`));
    };
    const timer = setTimeout(() => fail('no answer within 60 s'), START_MS);
    child.once('exit', (code) => fail(`exited with code ${code}`));
    peer.onLines = (lines) => {
      for (const text of lines) {
        let message;
        try {
          message = JSON.parse(text);
        } catch {
          continue;
        }
        if (message.id !== 0) continue;
        if (!isRightSum(message)) return fail(`wrong answer ${text.slice(0, 300)}`);
        clearTimeout(timer);
        peer.onLines = () => {};
        return resolve();
      }
    };
    peer.write(line(0));
  });
}

/** tools/call of calculate_sum through a toolwire gateway, by its exposed name. */
function gatewayCall(exposed) {
  return {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: exposed, arguments: SUM_ARGUMENTS, _meta: META },
    }),
    headers: { ...ACCEPT, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': exposed },
    expect: CALL_EXPECT,
    reject: CALL_REJECT,
  };
}

const gatewayListBody = (cursor) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: { ...(cursor === undefined ? {} : { cursor }), _meta: META },
  });
const LIST_HEADERS = { ...ACCEPT, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };

/** Every exposed name the merged list must hold, sorted. */
function expectedNames(dummies) {
  const names = [];
  for (let server = 0; server < LIST_UPSTREAMS; server++) {
    names.push(`${listName(server)}___calculate_sum`);
    for (let index = 0; index < dummies; index++)
      names.push(`${listName(server)}___dummy_${String(index).padStart(4, '0')}`);
  }
  return names.sort();
}

/** Reads a JSON-RPC answer from a JSON or an SSE body (one `data:` line per message). */
function answerOf(text) {
  const line = text.trimStart().startsWith('{')
    ? text
    : text
        .split('\n')
        .find((l) => l.startsWith('data:') && l.includes('"result"'))
        ?.slice(5);
  return line === undefined ? undefined : JSON.parse(line);
}

/**
 * Walks the gateway's merged list once, following nextCursor, and checks that it holds exactly the 1,000 names; returns
 * the pages as wrk replays them: each request body and the first and last names its answer must hold.
 */
async function gatewayListPages(child, url, dummies) {
  const want = expectedNames(dummies);
  const pages = [];
  const seen = [];
  let cursor;
  do {
    const body = gatewayListBody(cursor);
    const first = pages.length === 0;
    const text = await (first ? askUntilRight : (_, u, r) => askOnce(u, r))(child, url, {
      body,
      headers: LIST_HEADERS,
      expect: ['"jsonrpc":"2.0"', '"tools":['],
      reject: ['"error":{'],
    });
    const result = answerOf(text)?.result;
    const names = (result?.tools ?? []).map((tool) => tool.name);
    if (names.length === 0) throw new Error(`the gateway listed a page without tools: ${text.slice(0, 300)}`);
    seen.push(...names);
    cursor = result.nextCursor;
    pages.push({ body, expect: [`"name":"${names[0]}"`, `"name":"${names.at(-1)}"`] });
    if (pages.length > 100) throw new Error('the gateway listed more than 100 pages');
  } while (cursor !== undefined);
  process.stderr.write(
    `bench: the gateway's merged list of ${seen.length} tools comes in ${pages.length} page(s)\n`,
  );
  const got = [...seen].sort();
  if (got.length !== want.length || got.some((name, i) => name !== want[i])) {
    const missing = want.filter((name) => !seen.includes(name)).slice(0, 5);
    throw new Error(
      `the gateway's merged list holds ${got.length} tools, not the ${want.length} of its upstreams` +
        (missing.length > 0 ? ` (missing ${missing.join(', ')} …)` : ''),
    );
  }
  return pages;
}

/** A front (gateway or hub) answering one fixed request, checked once before any load. */
const answering = (front, request) => ({
  ...front,
  request: () => request,
  check: () => askUntilRight(front.child, front.url, request),
});

const dummy = (index) => `dummy_${String(index).padStart(4, '0')}`;

/** What a variant fronts, as mcpServers: one HTTP upstream, one stdio upstream, or the ten upstreams of the list. */
async function upstreamsOf(variant, tools, track) {
  if (variant.endsWith('-http')) {
    const [up] = await httpUpstreams(tools, 1, track);
    return { [ONE]: { url: up.url } };
  }
  if (variant.endsWith('-list')) {
    const ups = await httpUpstreams(tools, LIST_UPSTREAMS, track);
    return Object.fromEntries(ups.map((up, i) => [listName(i), { url: up.url }]));
  }
  return { [ONE]: stdioEntry(tools) };
}

/** mcp-hub over MCP: calculate_sum by its name there, or the merged list (one page: mcp-hub does not page). */
const hubMcpCall = {
  body: (id) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: `${ONE}${HUB_SEPARATOR}calculate_sum`, arguments: SUM_ARGUMENTS },
    }),
  expect: CALL_EXPECT,
  reject: CALL_REJECT,
};
const hubMcpList = (tools) => ({
  body: (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }),
  expect: Array.from({ length: LIST_UPSTREAMS }, (_, i) => [
    `"name":"${listName(i)}${HUB_SEPARATOR}calculate_sum"`,
    `"name":"${listName(i)}${HUB_SEPARATOR}${dummy(tools - 1)}"`,
  ]).flat(),
  reject: ['"nextCursor"', '"error":{'],
});
/** mcp-hub's REST view of every server and its tools (GET /api/servers). */
const hubRestList = (tools) => ({
  method: 'GET',
  headers: {},
  expect: [
    ...Array.from({ length: LIST_UPSTREAMS }, (_, i) => `"name":"${listName(i)}"`),
    '"name":"calculate_sum"',
    `"name":"${dummy(tools - 1)}"`,
  ],
  reject: ['"status":"disconnected"'],
});

/**
 * Starts what a gateway variant measures; `track(child)` is told of every process as it is spawned (run.mjs stops them
 * all at the end). Resolves to `{ child, pid, url, check, request?, measure?, line? }`: `child` is the front whose
 * CPU is counted, `request(session)` the wrk request (absent: the workload's usual one), `measure` a load of its own
 * (mcp-hub's /mcp), `line(id)` the stdio request (gateway --stdio).
 */
export async function startGatewayVariant(workload, dir, track) {
  const { tools, variant } = workload;
  if (variant === 'sg-stdio') {
    const front = await startSupergateway(tools, track);
    return { ...front, check: () => checkSession(front.url), request: sessionCall };
  }
  const servers = await upstreamsOf(variant, tools, track);
  switch (variant) {
    case 'gw-http':
    case 'gw-stdio':
      return answering(await startGateway(servers, dir, track), gatewayCall(`${ONE}___calculate_sum`));
    case 'gw-pipe': {
      const front = startGatewayStdio(servers, dir, track);
      const line = gatewayLine(`${ONE}___calculate_sum`);
      return { ...front, line, check: () => checkStdio(front, line) };
    }
    case 'gw-list': {
      const front = await startGateway(servers, dir, track);
      let pages;
      return {
        ...front,
        check: async () => {
          pages = await gatewayListPages(front.child, front.url, tools);
        },
        request: () => ({ headers: LIST_HEADERS, expect: ['"jsonrpc":"2.0"'], reject: ['"error":{'], pages }),
      };
    }
    case 'hub-http':
    case 'hub-stdio':
      return hubOverMcp(await startHub(servers, dir, '', track), hubMcpCall);
    case 'hub-list':
      return hubOverMcp(await startHub(servers, dir, '', track), hubMcpList(tools));
    case 'hub-rest-http':
    case 'hub-rest-stdio':
      return answering(await startHub(servers, dir, '/api/servers/tools', track), hubCall(ONE));
    case 'hub-rest-list':
      return answering(await startHub(servers, dir, '/api/servers', track), hubRestList(tools));
    default:
      throw new Error(`unknown gateway variant ${variant}`);
  }
}
