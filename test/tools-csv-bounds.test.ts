// analyze_csv under load (issue 12): distinct values bounded per call (each column sure of a share) and per server
// (all calls in flight), a report of bounded size that names every cut, and an event loop that turns after every
// 64 KiB chunk, however many analyses run at once. Nothing here depends on the machine's speed.

import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult } from '../src/protocol/index.js';
import { silentLogger } from '../src/server/index.js';
import { analyzeCsv } from '../src/tools/csv/analyze.js';
import { DistinctPool, limitsOf } from '../src/tools/csv/distinct-budget.js';
import { CSV_DEFAULTS, analyzeCsvTool, csvPack, type CsvReport } from '../src/tools/csv/index.js';
import { Roots } from '../src/tools/roots.js';
import { connect, modern, testServer, type RawClient } from './support/harness.js';

const CALL_WAIT_MS = 120_000;
const WIDE = 1000;
/** The most text one analysis may parse between two turns of the event loop (one 64 KiB read, with room to spare). */
const TEXT_PER_TURN = 2 * 64 * 1024;

let root: string;
let roots: Roots;

before(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolwire-csv-bounds-')));
  // 1000 columns "c0".."c999", 1000 rows; row r holds r in every cell: each column has 1000 distinct values.
  const header = Array.from({ length: WIDE }, (_, column) => `c${column}`).join(',');
  const rows = Array.from({ length: WIDE }, (_, row) => Array(WIDE).fill(String(row)).join(','));
  writeFileSync(join(root, 'wide.csv'), `${header}\n${rows.join('\n')}\n`);
  roots = await Roots.create([root]);
});

after(() => rmSync(root, { recursive: true, force: true }));

async function client(raw: unknown = undefined): Promise<RawClient> {
  const server = testServer();
  const config = csvPack.parseConfig(raw, 'packs.csv');
  for (const tool of csvPack.create(config, { roots, logger: silentLogger, timeouts: {} })) server.tool(tool);
  return connect(server);
}

async function analyze(target: RawClient, args: JsonObject): Promise<CallToolResult> {
  const response = await target.request('tools/call', modern({ name: 'analyze_csv', arguments: args }), {
    timeoutMs: CALL_WAIT_MS,
  });
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result as unknown as CallToolResult; // the wire shape of a tools/call result
}

const textOf = (result: CallToolResult): string => {
  const first = result.content[0];
  assert.ok(first?.type === 'text', JSON.stringify(result).slice(0, 500));
  return first.text;
};

const reportOf = (result: CallToolResult): CsvReport => {
  assert.notEqual(result.isError, true, textOf(result));
  return result.structuredContent as unknown as CsvReport; // validated by the server against the outputSchema
};

describe('analyze_csv: distinct values under load (issue 12)', () => {
  it('issue 12: four concurrent distinct calls on a 1000×1000 file keep 20,000 values each, and a report under 1 MiB that names the cut (was 13.6 MiB each)', async (t) => {
    const wide = await client();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        analyze(wide, { path: 'wide.csv', operations: ['distinct'], maxDistinct: 10_000 }),
      ),
    );
    delay.disable();
    t.diagnostic(`event-loop delay during the four calls: max ${(delay.max / 1e6).toFixed(1)} ms`);
    const first20 = Array.from({ length: 20 }, (_, row) => ({ value: String(row), count: 1 }));
    for (const result of results) {
      const report = reportOf(result);
      assert.equal(report.rows, WIDE);
      // Each column is sure of 10 values (half of 20,000 split over 1,000 columns); the shared half gives each 10 more.
      for (const column of report.columns) {
        assert.deepEqual(column.distinct, { values: first20, truncated: true, truncatedBy: 'callLimit' });
      }
      const named = Array.from({ length: 10 }, (_, column) => `"c${column}" (column ${column})`).join(', ');
      assert.deepEqual(report.warnings, [
        `distinct values were cut short in 1000 columns (${named}, … and 990 more): one call keeps at most 20000 distinct values and 1000000 characters of them across its columns, each column at least 10; ask for fewer columns to see more values of each`,
      ]);
      const structuredBytes = JSON.stringify(report).length;
      const textBytes = textOf(result).length;
      t.diagnostic(`report: ${structuredBytes} characters of JSON, ${textBytes} of text`);
      assert.ok(structuredBytes < 1024 ** 2, `structuredContent is ${structuredBytes} characters`);
      assert.ok(textBytes < 1024 ** 2, `the text is ${textBytes} characters`);
      assert.match(
        textOf(result),
        /^- "c999" \(column 999\): distinct 20\+ \(truncated\): "0" ×1, "1" ×1, /m,
      );
    }
  });

  it('issue 12: the event loop turns after every 64 KiB chunk of each of four concurrent analyses (a 256 KiB chunk each held it before)', async () => {
    let turns = 0;
    let spinning = true;
    const spin = (): void => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const handles = await Promise.all(Array.from({ length: 4 }, () => open(join(root, 'wide.csv'))));
    /** For each analysis, the text it parsed since the event loop last turned, and the most seen. */
    const parsed = handles.map(() => ({ turn: 0, bytes: 0, sinceTurn: 0, most: 0 }));
    try {
      await Promise.all(
        handles.map((handle, index) =>
          analyzeCsv(
            handle,
            {
              operations: new Set(['distinct']),
              columns: undefined,
              hasHeader: true,
              maxDistinct: 10_000,
              delimiter: ',',
              file: 'wide.csv',
            },
            CSV_DEFAULTS,
            {
              signal: new AbortController().signal,
              progress(bytes) {
                const mine = parsed[index] as (typeof parsed)[number];
                if (mine.turn !== turns) [mine.turn, mine.sinceTurn] = [turns, 0];
                mine.sinceTurn += bytes - mine.bytes;
                mine.bytes = bytes;
                mine.most = Math.max(mine.most, mine.sinceTurn);
              },
            },
          ),
        ),
      );
    } finally {
      spinning = false;
      await Promise.all(handles.map((handle) => handle.close()));
    }
    const size = statSync(join(root, 'wide.csv')).size;
    for (const mine of parsed) {
      assert.equal(mine.bytes, size);
      assert.ok(mine.most <= TEXT_PER_TURN, `parsed ${mine.most} bytes without letting the event loop turn`);
    }
  });

  it('a call started while others hold most of the server-wide bound gets what is left, and says so', async () => {
    const pool = new DistinctPool(limitsOf(30_000));
    const server = testServer();
    server.tool(analyzeCsvTool({ roots, limits: CSV_DEFAULTS, timeoutMs: CALL_WAIT_MS, distinctPool: pool }));
    const shared = await connect(server);
    writeFileSync(
      join(root, 'two.csv'),
      `id,code\n${Array.from({ length: 5000 }, (_, row) => `${row},x${row}`).join('\n')}\n`,
    );
    const others = pool.reserve(limitsOf(25_000)); // what the analyses running meanwhile hold
    const squeezed = reportOf(await analyze(shared, { path: 'two.csv', operations: ['distinct'] }));
    assert.deepEqual(
      squeezed.columns.map((column) => [column.distinct?.values.length, column.distinct?.truncatedBy]),
      [
        [100, 'maxDistinct'],
        [100, 'maxDistinct'],
      ],
    );
    // 5,000 values for two columns: 1,250 each for sure, and the other 2,500 to whichever needs them (both, in turn).
    const wider = reportOf(
      await analyze(shared, { path: 'two.csv', operations: ['distinct'], maxDistinct: 10_000 }),
    );
    assert.deepEqual(
      wider.columns.map((column) => [column.distinct?.values.length, column.distinct?.truncatedBy]),
      [
        [2500, 'serverLimit'],
        [2500, 'serverLimit'],
      ],
    );
    assert.deepEqual(wider.warnings, [
      'distinct values were cut short in 2 columns ("id" (column 0), "code" (column 1)): the analyses running at the same time share 30000 distinct values and 1500000 characters on this server, and this call got 5000 values and 250000 characters of the 20000 and 1000000 one call may keep; try again when fewer analyses are running',
    ]);
    others.release();
    const freed = reportOf(
      await analyze(shared, { path: 'two.csv', operations: ['distinct'], maxDistinct: 10_000 }),
    );
    assert.deepEqual(
      freed.columns.map((column) => [column.distinct?.values.length, column.distinct?.truncated]),
      [
        [5000, false],
        [5000, false],
      ],
    );
    assert.deepEqual(freed.warnings, []);
  });

  it('each column is sure of its share: a column of ids cannot crowd out a column whose few values come late', async () => {
    const small = await client({ maxDistinctPerCall: 100, maxDistinctInFlight: 1000 });
    const lines = Array.from(
      { length: 300 },
      (_, row) => `${row},${row < 250 ? 'a' : row < 280 ? 'b' : 'c'}`,
    );
    writeFileSync(join(root, 'late.csv'), `id,kind\n${lines.join('\n')}\n`);
    const report = reportOf(
      await analyze(small, { path: 'late.csv', operations: ['distinct'], maxDistinct: 1000 }),
    );
    const [id, kind] = report.columns;
    // 25 values each for sure (half of 100 over two columns), the other 50 to the ids, which need them first.
    assert.equal(id?.distinct?.values.length, 75);
    assert.equal(id?.distinct?.truncatedBy, 'callLimit');
    assert.deepEqual(kind?.distinct, {
      values: [
        { value: 'a', count: 250 },
        { value: 'b', count: 30 },
        { value: 'c', count: 20 },
      ],
      truncated: false,
    });
    assert.deepEqual(report.warnings, [
      'distinct values were cut short in 1 column ("id" (column 0)): one call keeps at most 100 distinct values and 5000 characters of them across its columns, each column at least 25; ask for fewer columns to see more values of each',
    ]);
  });
});
