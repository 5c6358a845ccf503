// The gateway rows (issue 17): calls and a merged list through `toolwire gateway`, the same calls made directly, and
// the npm bridge/aggregator measured beside them. Data only; bench/lib/gateway.mjs starts what each variant needs.
//
// "Directly" means the same call by an HTTP client without a gateway: the HTTP upstream is called itself (the call-c16
// row); the stdio upstream has no HTTP of its own, so its direct HTTP call is the same bench server in its HTTP mode
// (call-c16 again), with the raw stdio pipe at 16 in flight (stdio-16) shown beside it but not judged (a pipe with
// batched writes and no HTTP is no bar for anything reached over HTTP); and the 1,000 tools are listed from one
// toolwire server holding them all (list-1k-direct).

/** One toolwire bench server per upstream: calculate_sum plus this many dummies (99 → 100 tools, 10 × 100 = 1,000). */
export const LIST_UPSTREAMS = 10;
export const LIST_DUMMIES = 99;

// mcp-hub serves its aggregate on /mcp over the 2024-11-05 HTTP+SSE transport (answers come on a GET stream, not in
// the POST), which wrk cannot drive: its rows are loaded by bench/lib/sse-load.mjs from this process (one session per
// connection, one request in flight each, every answer checked) and are the ones judged. Its REST endpoints, which
// wrk can drive, are measured too as context (not MCP, less work per call than an MCP request; not judged).
const hub = (id, title, variant, tools) => ({
  id,
  title,
  kind: 'http',
  tools,
  connections: 16,
  variant,
  rival: 'mcp-hub',
  servers: ['toolwire'],
});

export const GATEWAY_WORKLOADS = [
  {
    id: 'stdio-16',
    title: 'stdio tools/call, 16 in flight',
    kind: 'stdio',
    tools: 10,
    inFlight: 16,
    servers: ['toolwire'],
  },
  {
    id: 'gw-call-c16',
    title: 'HTTP tools/call c=16 via toolwire gateway, HTTP upstream',
    kind: 'http',
    tools: 10,
    connections: 16,
    variant: 'gw-http',
    servers: ['toolwire'],
  },
  hub('hub-call-c16', 'MCP tools/call c=16 via mcp-hub (HTTP+SSE), HTTP upstream', 'hub-http', 10),
  hub('hub-rest-call-c16', 'REST call c=16 via mcp-hub, HTTP upstream', 'hub-rest-http', 10),
  {
    id: 'gw-stdio-c16',
    title: 'HTTP tools/call c=16 via toolwire gateway, stdio upstream',
    kind: 'http',
    tools: 10,
    connections: 16,
    variant: 'gw-stdio',
    servers: ['toolwire'],
  },
  {
    // Stateful mode (one child per session): supergateway's stateless and 2026-07-28 modes start a child per request.
    id: 'sg-stdio-c16',
    title: 'HTTP tools/call c=16 via supergateway (session), stdio upstream',
    kind: 'http',
    tools: 10,
    connections: 16,
    legacy: true,
    variant: 'sg-stdio',
    rival: 'supergateway',
    servers: ['toolwire'],
  },
  hub('hub-stdio-c16', 'MCP tools/call c=16 via mcp-hub (HTTP+SSE), stdio upstream', 'hub-stdio', 10),
  hub('hub-rest-stdio-c16', 'REST call c=16 via mcp-hub, stdio upstream', 'hub-rest-stdio', 10),
  {
    // The stdio analogue of the rows above: a client that launches the gateway over stdio, beside stdio-16.
    id: 'gw-pipe-16',
    title: 'stdio tools/call, 16 in flight, via toolwire gateway --stdio, stdio upstream',
    kind: 'stdio',
    tools: 10,
    inFlight: 16,
    variant: 'gw-pipe',
    servers: ['toolwire'],
  },
  {
    id: 'list-1k-direct',
    title: 'HTTP tools/list c=16, one server of 1,000 tools',
    kind: 'http',
    tools: LIST_UPSTREAMS * (LIST_DUMMIES + 1) - 1,
    connections: 16,
    list: true,
    servers: ['toolwire'],
  },
  {
    // Lists per second: a merged list longer than the gateway's page is fetched page by page, as a client does.
    id: 'gw-list-10x100',
    title: 'HTTP tools/list c=16 via toolwire gateway, 10 × 100 tools (lists/s)',
    kind: 'http',
    tools: LIST_DUMMIES,
    connections: 16,
    variant: 'gw-list',
    servers: ['toolwire'],
  },
  hub(
    'hub-list-10x100',
    'MCP tools/list c=16 via mcp-hub (HTTP+SSE), 10 × 100 tools',
    'hub-list',
    LIST_DUMMIES,
  ),
  hub(
    'hub-rest-list-10x100',
    'REST GET /api/servers c=16 via mcp-hub, 10 × 100 tools',
    'hub-rest-list',
    LIST_DUMMIES,
  ),
];

/** The ids, for --only: `--only gateway` picks them all. */
export const GATEWAY_IDS = GATEWAY_WORKLOADS.map((w) => w.id);
/** The rows that measure another project's bridge or aggregator: their wrong answers are theirs, not toolwire's. */
export const RIVAL_IDS = GATEWAY_WORKLOADS.filter((w) => w.rival !== undefined).map((w) => w.id);
