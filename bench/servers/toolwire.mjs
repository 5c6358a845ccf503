// toolwire, served the way its README shows: McpServer + createNodeHandler on node:http, or serveStdio.
// Defaults stay on (input validation, timeouts, host checks, the policy hook point): the numbers are for the real pipeline.
// Like an application, it imports what it serves with: toolwire/stdio or toolwire/http, and toolwire/policy only for
// the rows that turn a policy layer on (the startup rows time a plain stdio server, as the README writes one).

import { McpServer } from 'toolwire';
import {
  SUM_DESCRIPTION,
  announce,
  dummyDescription,
  dummyName,
  serverArgs,
  exitOnSignal,
  wireTools,
} from './tool-set.mjs';

const { transport, tools, port, schemas } = serverArgs();
exitOnSignal();
// Zod, as the README writes tools; `--schemas json` (the startup rows' second server) gives the same tools their JSON
// Schemas as written, to show toolwire's own startup apart from Zod's import (~35-40 ms here).
const { z } = schemas === 'zod' ? await import('zod') : {};
// wireTools(1) is calculate_sum and one dummy, as the bare server lists them: their schemas, one object each, shared.
const [sumTool, dummyTool] = schemas === 'json' ? wireTools(1) : [];

// One page holds every tool, so that tools/list measures listing 1,001 tools, not paging through them.
const server = new McpServer({ name: 'bench-toolwire', version: '1.0.0' }, { pageSize: 2000 });
server.tool({
  name: 'calculate_sum',
  description: SUM_DESCRIPTION,
  inputSchema: sumTool?.inputSchema ?? z.object({ a: z.number(), b: z.number() }),
  handler: async ({ a, b }) => String(a + b),
});
for (let index = 0; index < tools; index++) {
  server.tool({
    name: dummyName(index),
    description: dummyDescription(index),
    inputSchema: dummyTool?.inputSchema ?? z.object({ text: z.string() }),
    handler: async ({ text }) => text,
  });
}

// The "policy on" rows: the same server behind OAuth (JWT), per-tool scopes and rate limits.
const layered =
  process.env.BENCH_POLICY_JWKS !== undefined ||
  process.env.BENCH_AUDIT !== undefined ||
  process.env.BENCH_SANITISE === '1';
const { createPolicy, openAudit, sanitise } = layered ? await import('toolwire/policy') : {};
const policy =
  process.env.BENCH_POLICY_JWKS === undefined
    ? undefined
    : createPolicy((await import('../lib/policy.mjs')).benchPolicyOptions(process.env.BENCH_POLICY_JWKS));
policy?.install(server);
// The "audit on" rows: every call's record written to SQLite before its answer leaves, by the default writer (a
// thread of its own); BENCH_AUDIT_WRITER=inline writes on the event loop instead, to compare by hand.
if (process.env.BENCH_AUDIT !== undefined) {
  const writer = process.env.BENCH_AUDIT_WRITER;
  const audit = await openAudit({
    store: { kind: 'sqlite', path: process.env.BENCH_AUDIT, ...(writer !== undefined && { writer }) },
  });
  server.use(audit.middleware);
}
// … and with clean outputs inside it, as a policy installs them.
if (process.env.BENCH_SANITISE === '1') server.use(sanitise().middleware);

if (transport === 'stdio') {
  const { serveStdio } = await import('toolwire/stdio');
  await serveStdio(server);
} else {
  const { createServer } = await import('node:http');
  const { createNodeHandler } = await import('toolwire/http');
  const handler = createNodeHandler(server, { path: '/mcp', ...policy?.http });
  const http = createServer(handler);
  http.listen(port, '127.0.0.1', () => announce(http));
}
