// The gateway rows side by side (direct, through toolwire's gateway, through the npm bridge or aggregator) and issue
// 17's targets judged on the same run: through the gateway ≥ 50 % of the direct throughput at c=16, and ahead of the
// competitor measured beside it.

const SHARE_TARGET = 0.5;

/**
 * `direct`: the same call without a gateway (see gateway-workloads.mjs); `also`: another direct reading shown for
 * context, not judged; `rivals`: [label, workload id] measured through the other tools over MCP (judged); `context`:
 * the same tools measured another way (shown, not judged).
 */
const ROWS = [
  {
    name: 'HTTP upstream, tools/call c=16',
    direct: ['HTTP c=16', 'call-c16'],
    gateway: 'gw-call-c16',
    rivals: [['mcp-hub', 'hub-call-c16']],
    context: [['mcp-hub REST, not MCP', 'hub-rest-call-c16']],
  },
  {
    // A client of the gateway speaks HTTP; the same server's own HTTP mode is the direct HTTP call. The stdio pipe
    // (no HTTP at all, batched writes) is shown beside it, not judged: no HTTP front can reach a pipe's rate.
    name: 'stdio upstream, tools/call c=16',
    direct: ['the same server over HTTP, c=16', 'call-c16'],
    also: ['stdio pipe, 16 in flight, not judged', 'stdio-16'],
    gateway: 'gw-stdio-c16',
    rivals: [
      ['supergateway', 'sg-stdio-c16'],
      ['mcp-hub', 'hub-stdio-c16'],
    ],
    context: [['mcp-hub REST, not MCP', 'hub-rest-stdio-c16']],
  },
  {
    name: 'stdio in and out (gateway --stdio), tools/call, 16 in flight',
    direct: ['stdio pipe, 16 in flight', 'stdio-16'],
    gateway: 'gw-pipe-16',
    rivals: [],
    context: [],
  },
  {
    name: 'merged tools/list, 10 × 100 tools (lists/s)',
    direct: ['one server of 1,000', 'list-1k-direct'],
    gateway: 'gw-list-10x100',
    rivals: [['mcp-hub', 'hub-list-10x100']],
    context: [['mcp-hub REST GET /api/servers, not MCP', 'hub-rest-list-10x100']],
  },
];

const reading = (summary, id) => summary[id]?.toolwire;
const rps = (cell) => cell?.rps ?? Number.NaN;
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : Number.NaN);
const rate = (value) =>
  Number.isNaN(value) ? '–' : value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
const percent = (value) => (Number.isNaN(value) ? '–' : `${(value * 100).toFixed(0)} %`);
const times = (value) =>
  Number.isNaN(value) ? '–' : `${value >= 10 ? value.toFixed(0) : value.toFixed(2)}×`;
const cell = (c) =>
  c === undefined ? 'not run' : `${rate(rps(c))}${c.errors > 0 ? ` (${c.errors} wrong)` : ''}`;

/** The table's lines (empty when no gateway row ran). */
export function gatewayTable(summary) {
  const ran = ROWS.filter((row) =>
    [row.gateway, ...[...row.rivals, ...row.context].map(([, id]) => id)].some(
      (id) => reading(summary, id) !== undefined,
    ),
  );
  if (ran.length === 0) return [];
  const out = [
    '',
    'gateway (issue 17), requests/s unless said; "direct" is the same call without a gateway:',
  ];
  for (const row of ran) {
    const gateway = reading(summary, row.gateway);
    const direct = reading(summary, row.direct[1]);
    const parts = [
      `direct (${row.direct[0]}) ${cell(direct)}`,
      ...(row.also === undefined ? [] : [`direct (${row.also[0]}) ${cell(reading(summary, row.also[1]))}`]),
      `toolwire gateway ${cell(gateway)} = ${percent(ratio(rps(gateway), rps(direct)))} of direct`,
      ...[...row.rivals, ...row.context].map(([label, id]) => {
        const rival = reading(summary, id);
        return `${label} ${cell(rival)}${rival === undefined ? '' : ` (gateway ${times(ratio(rps(gateway), rps(rival)))})`}`;
      }),
    ];
    out.push(`  ${row.name}:`, ...parts.map((part) => `    ${part}`));
  }
  return out;
}

/** MET/MISS lines: ≥ 50 % of direct, and ahead of each competitor measured; a row with wrong answers misses. */
export function gatewayTargets(summary) {
  const targets = [];
  for (const row of ROWS) {
    const gateway = reading(summary, row.gateway);
    if (gateway === undefined) continue;
    const wrong = gateway.errors > 0 ? `; ${gateway.errors} wrong or missing answers` : '';
    const direct = reading(summary, row.direct[1]);
    if (direct !== undefined) {
      const share = ratio(rps(gateway), rps(direct));
      targets.push({
        name: `gateway, ${row.name}`,
        pass: share >= SHARE_TARGET && gateway.errors === 0,
        detail: `${percent(share)} of direct (${row.direct[0]}; target ≥ ${SHARE_TARGET * 100} %)${wrong}`,
      });
    }
    for (const [label, id] of row.rivals) {
      const rival = reading(summary, id);
      if (rival === undefined) continue;
      const lead = ratio(rps(gateway), rps(rival));
      targets.push({
        name: `gateway, ${row.name}, ahead of ${label}`,
        pass: lead > 1 && gateway.errors === 0,
        detail: `${times(lead)} ${label}${rival.errors > 0 ? ` (it gave ${rival.errors} wrong answers)` : ''}${wrong}`,
      });
    }
  }
  return targets;
}
