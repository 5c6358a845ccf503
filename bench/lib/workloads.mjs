// What the benchmark sends and what it accepts as a right answer, per workload.

import { GATEWAY_WORKLOADS } from './gateway-workloads.mjs';

export const SERVERS = ['toolwire', 'sdk', 'bare'];
export const SERVER_TITLES = { toolwire: 'toolwire', sdk: 'official SDK v2', bare: 'bare node:http' };

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';
export const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'toolwire-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
export const SUM_ARGUMENTS = { a: 17, b: 25 };

export const modernCallBody = (id) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'calculate_sum', arguments: SUM_ARGUMENTS, _meta: META },
  });
const modernListBody = (id) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } });
const legacyCallBody = (id) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'calculate_sum', arguments: SUM_ARGUMENTS },
  });

export const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Right answer to calculate_sum(17, 25), as checked in a response body under load (wrk) … */
export const CALL_EXPECT = ['"jsonrpc":"2.0"', '"text":"42"'];
export const CALL_REJECT = ['"isError":true', '"error":{'];
/** … and as checked on a parsed message (stdio). */
export const isRightSum = (message) =>
  message.jsonrpc === '2.0' &&
  message.error === undefined &&
  message.result?.isError !== true &&
  message.result?.content?.[0]?.type === 'text' &&
  message.result.content[0].text === '42';

/** One stdio line: a 2026-07-28 tools/call of calculate_sum. */
export const stdioCallLine = (id) => `${modernCallBody(id)}\n`;

/**
 * The workloads, in the order the table shows them and each round measures them. `tools` is how many dummy tools the server registers.
 * HTTP ones say how to build the wrk request; `session` ones open a 2025-11-25 session first.
 */
export const WORKLOADS = [
  { id: 'call-c1', title: 'HTTP tools/call, c=1', kind: 'http', tools: 10, connections: 1 },
  { id: 'call-c16', title: 'HTTP tools/call, c=16', kind: 'http', tools: 10, connections: 16 },
  // The layered rows are measured right after call-c16 in every round: each is judged against it, and measuring the
  // pair minutes apart let the machine's drift decide the ratio (base 40-49k across the rounds of one run).
  {
    // toolwire only: the same server as call-c16's, with its policy on; the report sets the two side by side.
    id: 'call-c16-policy',
    title: 'HTTP tools/call, c=16, policy on (JWT + scopes + rate limit)',
    kind: 'http',
    tools: 10,
    connections: 16,
    policy: true,
    variant: 'policy',
    servers: ['toolwire'],
  },
  {
    // toolwire only: the same server with the audit trail on (SQLite in a temporary directory, WAL, NORMAL).
    id: 'call-c16-audit',
    title: 'HTTP tools/call, c=16, audit on (SQLite)',
    kind: 'http',
    tools: 10,
    connections: 16,
    variant: 'audit',
    servers: ['toolwire'],
  },
  {
    // toolwire only: the audit trail and clean outputs (escapes, invisible characters, sizes, masked errors).
    id: 'call-c16-audit-sanitise',
    title: 'HTTP tools/call, c=16, audit + sanitise on',
    kind: 'http',
    tools: 10,
    connections: 16,
    variant: 'audit-sanitise',
    servers: ['toolwire'],
  },
  {
    id: 'call-c64',
    title: 'HTTP tools/call, c=64',
    kind: 'http',
    tools: 10,
    connections: 64,
    rssUnderLoad: true,
  },
  {
    id: 'call-c16-1k',
    title: 'HTTP tools/call, c=16, 1,000 tools',
    kind: 'http',
    tools: 1000,
    connections: 16,
  },
  {
    id: 'list-1k',
    title: 'HTTP tools/list, c=16, 1,000 tools',
    kind: 'http',
    tools: 1000,
    connections: 16,
    list: true,
  },
  {
    id: 'legacy-c16',
    title: 'HTTP 2025-11-25 session tools/call, c=16',
    kind: 'http',
    tools: 10,
    connections: 16,
    legacy: true,
  },
  { id: 'stdio-seq', title: 'stdio tools/call, sequential', kind: 'stdio', tools: 10, inFlight: 1 },
  { id: 'stdio-64', title: 'stdio tools/call, 64 in flight', kind: 'stdio', tools: 10, inFlight: 64 },
  // toolwire only: through the gateway, beside the same calls made directly and the npm bridge/aggregator.
  ...GATEWAY_WORKLOADS,
];

/**
 * The wrk request for an HTTP workload (a modern one needs no setup; a session one gets its headers passed in; a
 * policy one carries the run's bearer token).
 */
export function httpRequest(workload, sessionHeaders = {}, authorization = undefined) {
  const auth = workload.policy && authorization !== undefined ? { authorization } : {};
  if (workload.legacy) {
    return {
      body: legacyCallBody(1),
      headers: { ...ACCEPT, 'mcp-protocol-version': LEGACY, ...sessionHeaders },
      expect: CALL_EXPECT,
      reject: CALL_REJECT,
    };
  }
  if (workload.list) {
    return {
      body: modernListBody(1),
      headers: { ...ACCEPT, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      expect: [
        '"jsonrpc":"2.0"',
        '"name":"calculate_sum"',
        `"name":"dummy_${String(workload.tools - 1).padStart(4, '0')}"`,
      ],
      reject: ['"nextCursor"', '"error":{'],
    };
  }
  return {
    body: modernCallBody(1),
    headers: {
      ...ACCEPT,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'calculate_sum',
      ...auth,
    },
    expect: CALL_EXPECT,
    reject: CALL_REJECT,
  };
}

/** Opens a 2025-11-25 session (initialize + notifications/initialized); returns the headers later requests carry. */
export async function openLegacySession(url) {
  const initialize = await fetch(url, {
    method: 'POST',
    headers: ACCEPT,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY,
        capabilities: {},
        clientInfo: { name: 'toolwire-bench', version: '1.0.0' },
      },
    }),
  });
  const text = await initialize.text();
  if (initialize.status !== 200 || !text.includes('"protocolVersion"')) {
    throw new Error(`initialize failed at ${url}: ${initialize.status} ${text.slice(0, 300)}`);
  }
  const session = initialize.headers.get('mcp-session-id');
  const headers = session === null ? {} : { 'mcp-session-id': session };
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...ACCEPT, 'mcp-protocol-version': LEGACY, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.arrayBuffer();
  if (initialized.status !== 202)
    throw new Error(`notifications/initialized answered ${initialized.status} at ${url}`);
  return headers;
}

/** Ends a session (servers without sessions answer 405, which is fine). */
export async function closeLegacySession(url, headers) {
  if (headers['mcp-session-id'] === undefined) return;
  const response = await fetch(url, {
    method: 'DELETE',
    headers: { 'mcp-protocol-version': LEGACY, ...headers },
  });
  await response.arrayBuffer();
}

/** One correct HTTP call before measuring: fails fast, with the body, when a server is misconfigured. */
export async function checkHttpCall(url, authorization = undefined) {
  const { body, headers } = httpRequest(WORKLOADS[0]);
  const response = await fetch(url, {
    method: 'POST',
    headers: authorization === undefined ? headers : { ...headers, authorization },
    body,
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"text":"42"')) {
    throw new Error(
      `${url} did not answer calculate_sum correctly: ${response.status} ${text.slice(0, 300)}`,
    );
  }
}
