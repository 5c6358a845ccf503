// The csv pack: statistics by name and index, RFC 4180 details (quotes, BOM, line ends), every irregularity
// counted and reported, every refusal with its exact message, stopping when aborted, and a 1 GiB file in bounded memory.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult } from '../src/protocol/index.js';
import { silentLogger } from '../src/server/index.js';
import { analyzeCsv } from '../src/tools/csv/analyze.js';
import {
  CSV_DEFAULTS,
  CSV_DEFAULT_TIMEOUT_MS,
  CsvParser,
  csvPack,
  type ColumnReport,
  type CsvReport,
} from '../src/tools/csv/index.js';
import { ConfigError } from '../src/tools/pack.js';
import { Roots } from '../src/tools/roots.js';
import { connect, isNotification, modern, testServer, type RawClient } from './support/harness.js';

const CALL_WAIT_MS = 10_000;
let root: string;
let outside: string;
let roots: Roots;

const SALES = 'id,price,qty,region\n1,10,2,north\n2,20.5,3,south\n3,30,1,north\n4,n/a,5,east\n5,,4,south\n';

before(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolwire-csv-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'toolwire-csv-outside-')));
  writeFileSync(join(outside, 'secret.csv'), 'a\n1\n');
  mkdirSync(join(root, 'folder'));
  writeFileSync(join(root, 'sales.csv'), SALES);
  writeFileSync(join(root, 'empty.csv'), '');
  roots = await Roots.create([root]);
});

after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** Writes a file into the root and returns its name. */
function file(name: string, content: string | Buffer): string {
  writeFileSync(join(root, name), content);
  return name;
}

async function csvClient(
  raw: unknown = undefined,
  timeouts: Record<string, number> = {},
): Promise<RawClient> {
  const config = csvPack.parseConfig(raw, 'packs.csv');
  const server = testServer();
  for (const tool of csvPack.create(config, { roots, logger: silentLogger, timeouts })) server.tool(tool);
  return connect(server);
}

async function analyze(
  client: RawClient,
  args: JsonObject,
  meta: JsonObject = {},
  timeoutMs = CALL_WAIT_MS,
): Promise<CallToolResult> {
  const response = await client.request(
    'tools/call',
    modern({ name: 'analyze_csv', arguments: args }, meta),
    {
      timeoutMs,
    },
  );
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  const { resultType: _type, _meta, ...result } = response.result ?? {};
  return result as unknown as CallToolResult; // the wire shape of a tools/call result
}

const textOf = (result: CallToolResult): string => {
  const first = result.content[0];
  assert.ok(first !== undefined && first.type === 'text', JSON.stringify(result));
  return first.text;
};

/** The structured report of a successful call. */
const reportOf = (result: CallToolResult): CsvReport => {
  assert.notEqual(result.isError, true, textOf(result));
  return result.structuredContent as unknown as CsvReport; // validated by the server against the outputSchema
};

const failure = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});

const baseReport = (path: string, rows: number, columns: ColumnReport[], bytesRead: number): CsvReport => ({
  path,
  rows,
  columns,
  raggedRows: 0,
  raggedLines: [],
  blankLines: 0,
  strayQuotes: 0,
  unterminatedQuoteLine: null,
  bytesRead,
  warnings: [],
});

describe('csv pack: configuration', () => {
  it('accepts undefined and {} (the defaults: 2 GiB files, 1 MiB records, 20,000 distinct values a call, 100,000 in flight) and every limit', () => {
    assert.deepEqual(csvPack.parseConfig(undefined, 'packs.csv'), {
      maxFileBytes: 2 ** 31,
      maxRecordBytes: 2 ** 20,
      maxDistinctPerCall: 20_000,
      maxDistinctInFlight: 100_000,
    });
    assert.deepEqual(csvPack.parseConfig({}, 'packs.csv'), CSV_DEFAULTS);
    assert.deepEqual(
      csvPack.parseConfig(
        { maxFileBytes: 1000, maxRecordBytes: 64, maxDistinctPerCall: 10, maxDistinctInFlight: 30 },
        'packs.csv',
      ),
      { maxFileBytes: 1000, maxRecordBytes: 64, maxDistinctPerCall: 10, maxDistinctInFlight: 30 },
    );
  });

  it('refuses an unknown key, naming it and the allowed keys', () => {
    assert.throws(
      () => csvPack.parseConfig({ maxRows: 5 }, 'packs.csv'),
      new ConfigError(
        'packs.csv has an unknown key "maxRows"; allowed keys: maxFileBytes, maxRecordBytes, maxDistinctPerCall, maxDistinctInFlight',
      ),
    );
  });

  it('refuses values outside the allowed range, naming the key, the range and the value', () => {
    const cases: [JsonObject, string][] = [
      [
        { maxFileBytes: 0 },
        'packs.csv.maxFileBytes must be a whole number of bytes from 1 to 9007199254740991; got 0',
      ],
      [
        { maxFileBytes: '1GB' },
        'packs.csv.maxFileBytes must be a whole number of bytes from 1 to 9007199254740991; got "1GB"',
      ],
      [
        { maxRecordBytes: 1.5 },
        'packs.csv.maxRecordBytes must be a whole number of characters from 1 to 268435456; got 1.5',
      ],
      [
        { maxRecordBytes: 2 ** 30 },
        'packs.csv.maxRecordBytes must be a whole number of characters from 1 to 268435456; got 1073741824',
      ],
      [
        { maxDistinctPerCall: 0 },
        'packs.csv.maxDistinctPerCall must be a whole number of values from 1 to 10000000; got 0',
      ],
      [
        { maxDistinctPerCall: 50_000, maxDistinctInFlight: 40_000 },
        'packs.csv.maxDistinctInFlight (40000) must be at least packs.csv.maxDistinctPerCall (50000): one call alone could never get its own bound',
      ],
    ];
    for (const [raw, message] of cases) {
      assert.throws(() => csvPack.parseConfig(raw, 'packs.csv'), new ConfigError(message));
    }
  });

  it('refuses a config that is not an object', () => {
    assert.throws(
      () => csvPack.parseConfig([], 'packs.csv'),
      new ConfigError(
        'packs.csv must be an object with the optional keys maxFileBytes, maxRecordBytes, maxDistinctPerCall, maxDistinctInFlight; got []',
      ),
    );
  });

  it('creates analyze_csv with a 300 s time limit, which the operator may change', () => {
    const [tool] = csvPack.create(CSV_DEFAULTS, { roots, logger: silentLogger, timeouts: {} });
    assert.equal(tool?.name, 'analyze_csv');
    assert.equal(tool?.timeoutMs, CSV_DEFAULT_TIMEOUT_MS);
    assert.equal(CSV_DEFAULT_TIMEOUT_MS, 300_000);
    const [changed] = csvPack.create(CSV_DEFAULTS, {
      roots,
      logger: silentLogger,
      timeouts: { analyze_csv: 99 },
    });
    assert.equal(changed?.timeoutMs, 99);
  });
});

describe('analyze_csv: the tool as a client lists it', () => {
  it('has a closed input schema with types, ranges and defaults, an output schema and honest annotations', async () => {
    const client = await csvClient();
    const response = await client.request('tools/list', modern());
    const [tool] = (response.result?.tools ?? []) as JsonObject[];
    assert.equal(tool?.name, 'analyze_csv');
    assert.match(
      String(tool?.description),
      /Example: \{"path": "sales\.csv", "operations": \["sum", "average"\]/,
    );
    const input = tool?.inputSchema as JsonObject;
    assert.equal(input.additionalProperties, false);
    assert.deepEqual(input.required, ['path', 'operations']);
    const properties = input.properties as Record<string, JsonObject>;
    assert.deepEqual(Object.keys(properties), [
      'path',
      'operations',
      'columns',
      'delimiter',
      'hasHeader',
      'maxDistinct',
    ]);
    assert.deepEqual(properties.operations?.items, {
      type: 'string',
      enum: ['sum', 'average', 'count', 'min', 'max', 'distinct'],
    });
    assert.equal(properties.operations?.uniqueItems, true);
    assert.equal(properties.delimiter?.default, ',');
    assert.equal(properties.hasHeader?.default, true);
    assert.deepEqual([properties.maxDistinct?.minimum, properties.maxDistinct?.maximum], [1, 10_000]);
    assert.equal(properties.maxDistinct?.default, 100);
    assert.equal((tool?.outputSchema as JsonObject).additionalProperties, false);
    assert.deepEqual(tool?.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});

describe('analyze_csv: normal use', () => {
  it('sum, average, min, max and count of columns chosen by name and by index', async () => {
    const client = await csvClient();
    const result = await analyze(client, {
      path: 'sales.csv',
      operations: ['sum', 'average', 'min', 'max', 'count'],
      columns: ['price', 2],
    });
    assert.deepEqual(
      result.structuredContent,
      baseReport(
        'sales.csv',
        5,
        [
          {
            column: 'price',
            index: 1,
            count: 4,
            sum: 60.5,
            average: 60.5 / 3,
            min: 10,
            max: 30,
            numeric: 3,
            skipped: { nonNumeric: 1, missing: 1 },
            examples: [
              { line: 5, reason: 'non-numeric', value: 'n/a' },
              { line: 6, reason: 'missing' },
            ],
          },
          {
            column: 'qty',
            index: 2,
            count: 5,
            sum: 15,
            average: 3,
            min: 1,
            max: 5,
            numeric: 5,
            skipped: { nonNumeric: 0, missing: 0 },
            examples: [],
          },
        ],
        SALES.length,
      ),
    );
    assert.equal(
      textOf(result),
      [
        'sales.csv: rows: 5, raggedRows: 0',
        '- "price" (column 1): count 4, sum 60.5, average 20.166666666666668, min 10, max 30; skipped: { nonNumeric: 1, missing: 1 } (line 5: "n/a", line 6: empty)',
        '- "qty" (column 2): count 5, sum 15, average 3, min 1, max 5; skipped: { nonNumeric: 0, missing: 0 }',
      ].join('\n'),
    );
  });

  it('every column by default; distinct values with their counts, in order of first appearance', async () => {
    const client = await csvClient();
    const report = reportOf(await analyze(client, { path: 'sales.csv', operations: ['count', 'distinct'] }));
    assert.deepEqual(
      report.columns.map((column) => column.column),
      ['id', 'price', 'qty', 'region'],
    );
    assert.deepEqual(report.columns[3], {
      column: 'region',
      index: 3,
      count: 5,
      distinct: {
        values: [
          { value: 'north', count: 2 },
          { value: 'south', count: 2 },
          { value: 'east', count: 1 },
        ],
        truncated: false,
      },
      skipped: { missing: 0 },
      examples: [],
    });
    assert.match(
      textOf(await analyze(client, { path: 'sales.csv', operations: ['distinct'], columns: ['region'] })),
      /^- "region" \(column 3\): distinct 3: "north" ×2, "south" ×2, "east" ×1; skipped: \{ missing: 0 \}$/m,
    );
  });

  it('caps distinct values at maxDistinct and says so', async () => {
    const client = await csvClient();
    const result = await analyze(client, {
      path: 'sales.csv',
      operations: ['distinct'],
      columns: ['id'],
      maxDistinct: 2,
    });
    const report = reportOf(result);
    assert.deepEqual(report.columns[0]?.distinct, {
      values: [
        { value: '1', count: 1 },
        { value: '2', count: 1 },
      ],
      truncated: true,
      truncatedBy: 'maxDistinct',
    });
    assert.deepEqual(report.warnings, [
      'column "id" (column 0) has more than 2 distinct values; only the first 2 are listed (maxDistinct goes up to 10000)',
    ]);
    assert.equal(
      textOf(result),
      [
        'sales.csv: rows: 5, raggedRows: 0',
        '- "id" (column 0): distinct 2+ (truncated): "1" ×1, "2" ×1; skipped: { missing: 0 }',
        'warnings:',
        '- column "id" (column 0) has more than 2 distinct values; only the first 2 are listed (maxDistinct goes up to 10000)',
      ].join('\n'),
    );
  });

  it('a custom delimiter: semicolons, and tabs', async () => {
    const client = await csvClient();
    file('semi.csv', 'name;amount\nx;1,5\ny;2\n');
    const semi = reportOf(await analyze(client, { path: 'semi.csv', operations: ['sum'], delimiter: ';' }));
    assert.deepEqual(semi.columns[1], {
      column: 'amount',
      index: 1,
      sum: 2,
      numeric: 1,
      skipped: { nonNumeric: 1, missing: 0 },
      examples: [{ line: 2, reason: 'non-numeric', value: '1,5' }],
    });
    file('tabs.tsv', 'a\tb\n1\t2\n3\t4\n');
    const tabs = reportOf(await analyze(client, { path: 'tabs.tsv', operations: ['sum'], delimiter: '\t' }));
    assert.deepEqual(
      tabs.columns.map((column) => column.sum),
      [4, 6],
    );
  });

  it('without a header: columns by index, the first row is data, names are refused', async () => {
    const client = await csvClient();
    file('noheader.csv', '1,2\n3,4\n5,6\n');
    const result = await analyze(client, {
      path: 'noheader.csv',
      operations: ['sum', 'max'],
      hasHeader: false,
      columns: [1],
    });
    assert.deepEqual(
      result.structuredContent,
      baseReport(
        'noheader.csv',
        3,
        [
          {
            column: null,
            index: 1,
            sum: 12,
            max: 6,
            numeric: 3,
            skipped: { nonNumeric: 0, missing: 0 },
            examples: [],
          },
        ],
        12,
      ),
    );
    assert.equal(
      textOf(result),
      'noheader.csv: rows: 3, raggedRows: 0\n- column 1: sum 12, max 6; skipped: { nonNumeric: 0, missing: 0 }',
    );
    assert.deepEqual(
      await analyze(client, { path: 'noheader.csv', operations: ['sum'], hasHeader: false, columns: ['a'] }),
      failure(
        'columns names a column ("a") but hasHeader is false, so columns have no names: give 0-based indexes instead',
      ),
    );
    assert.deepEqual(
      await analyze(client, { path: 'noheader.csv', operations: ['sum'], hasHeader: false, columns: [2] }),
      failure(
        'column index 2 is out of range: the first row of "noheader.csv" has 2 fields (indexes 0 to 1)',
      ),
    );
  });

  it('numbers as CSV files write them: signs, decimals, exponents, spaces around; not hex, Infinity or 1,000', async () => {
    const client = await csvClient();
    file('numbers.csv', 'v\n-1.5\n+2\n1e3\n .5 \n0x10\nInfinity\n"1,000"\n1e999\n');
    const report = reportOf(
      await analyze(client, { path: 'numbers.csv', operations: ['sum', 'min', 'max'] }),
    );
    assert.deepEqual(report.columns[0], {
      column: 'v',
      index: 0,
      sum: 1001,
      min: -1.5,
      max: 1000,
      numeric: 4,
      skipped: { nonNumeric: 4, missing: 0 },
      examples: [
        { line: 6, reason: 'non-numeric', value: '0x10' },
        { line: 7, reason: 'non-numeric', value: 'Infinity' },
        { line: 8, reason: 'non-numeric', value: '1,000' },
        { line: 9, reason: 'non-numeric', value: '1e999' },
      ],
    });
  });
});

describe('analyze_csv: RFC 4180 details', () => {
  it('quoted fields: doubled quotes, embedded delimiters and line breaks; line numbers count physical lines', async () => {
    const client = await csvClient();
    file('quoted.csv', 'name,note,n\n"Smith, J.","said ""hi""",1\n"multi\nline\r\nnote","",2\nlast,"x",\n');
    const result = await analyze(client, { path: 'quoted.csv', operations: ['distinct', 'count'] });
    const report = reportOf(result);
    assert.deepEqual(
      report.columns.map((column) => column.distinct?.values.map(({ value }) => value)),
      [
        ['Smith, J.', 'multi\nline\r\nnote', 'last'],
        ['said "hi"', 'x'],
        ['1', '2'],
      ],
    );
    assert.deepEqual(report.columns[1]?.examples, [{ line: 3, reason: 'missing' }]);
    // The last record starts on line 6: the quoted field of line 3 spans lines 3 to 5.
    assert.deepEqual(report.columns[2]?.examples, [{ line: 6, reason: 'missing' }]);
    assert.equal(report.rows, 3);
    assert.equal(report.raggedRows, 0);
  });

  it('a UTF-8 byte order mark is not part of the first column name', async () => {
    const client = await csvClient();
    file('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id,v\n1,2\n')]));
    const report = reportOf(await analyze(client, { path: 'bom.csv', operations: ['sum'], columns: ['id'] }));
    assert.deepEqual(report.columns[0]?.column, 'id');
    assert.equal(report.columns[0]?.sum, 1);
    assert.equal(report.bytesRead, 12);
  });

  it('CRLF, LF and CR line ends (and a missing final line end) give the same result', async () => {
    const client = await csvClient();
    const rows = ['a,b', '1,"x"', '2,"y\nz"', '3,w'];
    const results = [];
    for (const [name, eol, tail] of [
      ['lf.csv', '\n', '\n'],
      ['crlf.csv', '\r\n', '\r\n'],
      ['cr.csv', '\r', '\r'],
      ['no-final.csv', '\r\n', ''],
    ] as const) {
      file(name, rows.join(eol) + tail);
      const report = reportOf(await analyze(client, { path: name, operations: ['sum', 'count'] }));
      results.push({ rows: report.rows, columns: report.columns, blankLines: report.blankLines });
    }
    for (const other of results.slice(1)) assert.deepEqual(other, results[0]);
    assert.equal(results[0]?.rows, 3);
  });

  it('survives any chunking: a record split anywhere across reads parses the same (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', ',', '"', '\r', '\n', ' ', 'é');
    const parse = (chunks: string[]) => {
      const records: [string[], number][] = [];
      const parser = new CsvParser({
        delimiter: ',',
        maxRecordChars: 1e6,
        onRecord: (f, l) => records.push([f, l]),
      });
      for (const chunk of chunks) parser.push(chunk);
      parser.end();
      return {
        records,
        blank: parser.blankLines,
        stray: parser.strayQuotes,
        open: parser.unterminatedQuoteLine,
      };
    };
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }),
        fc.array(fc.nat(60), { maxLength: 8 }),
        (chars, cuts) => {
          const text = chars.join('');
          const points = [...new Set(cuts.map((cut) => Math.min(cut, text.length)))].sort((x, y) => x - y);
          const chunks = [0, ...points].map((from, k) => text.slice(from, points[k] ?? text.length));
          assert.deepEqual(parse(chunks), parse([text]));
          assert.deepEqual(parse([...text]), parse([text]));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads back any table written as RFC 4180 with every field quoted (property)', () => {
    const field = fc
      .array(fc.constantFrom('a', ',', '"', '\r', '\n', ' '), { maxLength: 6 })
      .map((c) => c.join(''));
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { maxLength: 5 }), (table) => {
        const text = table
          .map((row) => row.map((f) => `"${f.replaceAll('"', '""')}"`).join(','))
          .join('\r\n');
        const records: string[][] = [];
        const parser = new CsvParser({
          delimiter: ',',
          maxRecordChars: 1e6,
          onRecord: (f) => records.push(f),
        });
        parser.push(text);
        parser.end();
        assert.deepEqual(records, table);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('analyze_csv: irregular files are analysed, and every irregularity is counted and reported', () => {
  it('ragged rows: cells matched by position, absent cells missing, extra fields ignored, lines listed', async () => {
    const client = await csvClient();
    file('ragged.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n');
    const result = await analyze(client, { path: 'ragged.csv', operations: ['sum'], columns: ['c'] });
    const report = reportOf(result);
    assert.equal(report.rows, 4);
    assert.equal(report.raggedRows, 2);
    assert.deepEqual(report.raggedLines, [3, 4]);
    assert.deepEqual(report.columns[0], {
      column: 'c',
      index: 2,
      sum: 23,
      numeric: 3,
      skipped: { nonNumeric: 0, missing: 1 },
      examples: [{ line: 3, reason: 'missing' }],
    });
    assert.equal(
      textOf(result),
      [
        'ragged.csv: rows: 4, raggedRows: 2 (lines 3, 4)',
        '- "c" (column 2): sum 23; skipped: { nonNumeric: 0, missing: 1 } (line 3: empty)',
        'warnings:',
        '- 2 ragged rows (lines 3, 4) do not have 3 fields like the header: cells were matched to columns by position, absent cells counted as missing, extra fields ignored',
      ].join('\n'),
    );
  });

  it('non-numeric and empty cells are skipped in numeric operations and counted, with the first lines', async () => {
    const client = await csvClient();
    file('mixed.csv', 'v,t\n1,a\nx,b\n, \n  ,c\n2,d\n-,e\nnone,f\n');
    const result = await analyze(client, { path: 'mixed.csv', operations: ['average', 'count'] });
    const report = reportOf(result);
    assert.deepEqual(report.columns[0], {
      column: 'v',
      index: 0,
      count: 5,
      average: 1.5,
      numeric: 2,
      skipped: { nonNumeric: 3, missing: 2 },
      examples: [
        { line: 3, reason: 'non-numeric', value: 'x' },
        { line: 4, reason: 'missing' },
        { line: 5, reason: 'missing' },
        { line: 7, reason: 'non-numeric', value: '-' },
        { line: 8, reason: 'non-numeric', value: 'none' },
      ],
    });
    assert.deepEqual(report.columns[1]?.skipped, { nonNumeric: 6, missing: 1 });
    assert.deepEqual(report.warnings, [
      'column "t" (column 1) has no numeric values (6 non-numeric cells); sum, average, min and max need numbers such as 12, -3.5 or 1e3',
    ]);
    assert.match(
      textOf(result),
      /^- "v" \(column 0\): count 5, average 1\.5; skipped: \{ nonNumeric: 3, missing: 2 \}/m,
    );
    assert.match(
      textOf(result),
      /^- "t" \(column 1\): count 6, average none; skipped: \{ nonNumeric: 6, missing: 1 \}/m,
    );
  });

  it('an unterminated quote at the end of the file: the record is not analysed, and the line is reported', async () => {
    const client = await csvClient();
    file('unterminated.csv', 'a,b\n1,2\n3,"open\n4,5\n');
    const result = await analyze(client, { path: 'unterminated.csv', operations: ['sum'] });
    const report = reportOf(result);
    assert.equal(report.rows, 1);
    assert.equal(report.unterminatedQuoteLine, 3);
    assert.deepEqual(
      report.columns.map((column) => column.sum),
      [1, 2],
    );
    assert.deepEqual(report.warnings, [
      'the quoted field opened on line 3 is not closed before the end of the file; its record was not analysed (close the quote with ")',
    ]);
    assert.match(textOf(result), /\nwarnings:\n- the quoted field opened on line 3 is not closed/);
  });

  it('stray quotes and blank lines are read leniently and counted', async () => {
    const client = await csvClient();
    file('stray.csv', 'a,b\n1,x"y\n\n2,"q"z\n\r\n3,w\n');
    const report = reportOf(await analyze(client, { path: 'stray.csv', operations: ['sum', 'distinct'] }));
    assert.equal(report.rows, 3);
    assert.equal(report.strayQuotes, 2);
    assert.equal(report.blankLines, 2);
    assert.deepEqual(
      report.columns[1]?.distinct?.values.map(({ value }) => value),
      ['x"y', 'qz', 'w'],
    );
    assert.deepEqual(report.warnings.slice(-2), [
      '2 blank lines (lines 3, 5) skipped',
      '2 stray quotes (lines 2, 4): a quote inside an unquoted field, or text after a closing quote, was read as part of the field; quote the whole field and double quotes inside it ("")',
    ]);
  });

  it('the header names a column twice: the first is used, with a warning', async () => {
    const client = await csvClient();
    file('twice.csv', 'x,x\n1,2\n');
    const report = reportOf(
      await analyze(client, { path: 'twice.csv', operations: ['sum'], columns: ['x'] }),
    );
    assert.equal(report.columns[0]?.sum, 1);
    assert.deepEqual(report.warnings, [
      'the header names "x" more than once (indexes 0 and 1); the first was used, give an index to choose another',
    ]);
  });
});

describe('analyze_csv: refusals, each with the exact message', () => {
  it('an unknown column name lists the available names; an index out of range gives the range', async () => {
    const client = await csvClient();
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: ['sum'], columns: ['Price'] }),
      failure(
        'column "Price" is not in the header of "sales.csv"; the columns are "id", "price", "qty", "region" (names are matched exactly; a 0-based index works too)',
      ),
    );
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: ['sum'], columns: [4] }),
      failure('column index 4 is out of range: the header of "sales.csv" has 4 columns (indexes 0 to 3)'),
    );
  });

  it('a path outside the roots, a directory, a missing file: the messages of the roots check', async () => {
    const client = await csvClient();
    const secret = join(outside, 'secret.csv');
    assert.deepEqual(
      await analyze(client, { path: secret, operations: ['sum'] }),
      failure(`path "${secret}" is outside the allowed roots (${root}); use a path inside them`),
    );
    assert.deepEqual(
      await analyze(client, { path: '../secret.csv', operations: ['sum'] }),
      failure(`path "../secret.csv" is outside the allowed roots (${root}); use a path inside them`),
    );
    assert.deepEqual(
      await analyze(client, { path: 'folder', operations: ['sum'] }),
      failure('path "folder" is a directory, not a file; use list_directory'),
    );
    assert.deepEqual(
      await analyze(client, { path: 'nope.csv', operations: ['sum'] }),
      failure('path "nope.csv" does not exist; list the directory to see what is there'),
    );
  });

  it('an empty file, and a file of blank lines', async () => {
    const client = await csvClient();
    assert.deepEqual(
      await analyze(client, { path: 'empty.csv', operations: ['count'] }),
      failure('"empty.csv" is empty (0 bytes); there is nothing to analyse'),
    );
    file('blank.csv', '\r\n\n\n');
    assert.deepEqual(
      await analyze(client, { path: 'blank.csv', operations: ['count'] }),
      failure(
        '"blank.csv" has no CSV records (only blank lines or an unclosed quote); there is nothing to analyse',
      ),
    );
  });

  it('a file larger than maxFileBytes', async () => {
    const client = await csvClient({ maxFileBytes: 100 });
    file('large.csv', 'a\n' + '1\n'.repeat(100));
    assert.deepEqual(
      await analyze(client, { path: 'large.csv', operations: ['count'] }),
      failure(
        '"large.csv" is 202 bytes, more than the 100 bytes this server analyses (the maxFileBytes limit of the csv pack)',
      ),
    );
  });

  it('a record longer than maxRecordBytes, and the likely reason when a quote is open', async () => {
    const client = await csvClient({ maxRecordBytes: 64 });
    file('long.csv', `a,b\n1,${'x'.repeat(100)}\n`);
    assert.deepEqual(
      await analyze(client, { path: 'long.csv', operations: ['count'] }),
      failure(
        'the record that starts on line 2 is longer than 64 characters (the maxRecordBytes limit of the csv pack); check the delimiter and the line ends',
      ),
    );
    file('open.csv', `a,b\n1,"open\n${'2,3\n'.repeat(40)}`);
    assert.deepEqual(
      await analyze(client, { path: 'open.csv', operations: ['count'] }),
      failure(
        'the record that starts on line 2 is longer than 64 characters (the maxRecordBytes limit of the csv pack); the quoted field opened on line 2 is probably never closed: check its quotes',
      ),
    );
  });

  it('arguments outside the schema', async () => {
    const client = await csvClient();
    const invalid = (...lines: string[]) =>
      failure(`Invalid arguments for tool "analyze_csv":\n${lines.map((line) => `- ${line}`).join('\n')}`);
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: [] }),
      invalid('operations: must have at least 1 item (got 0)'),
    );
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: ['median'] }),
      invalid(
        'operations[0]: must be one of "sum", "average", "count", "min", "max", "distinct" (got "median")',
      ),
    );
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: ['sum', 'sum'] }),
      invalid('operations: must not contain duplicates (items 1 and 0 are equal)'),
    );
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: ['sum'], columns: [-1] }),
      invalid('columns[0]: must be >= 0 (got -1)'),
    );
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: ['sum'], delimiter: '::' }),
      invalid(
        'delimiter: must have at most 1 character (got 2)',
        'delimiter: must match the pattern /^[^"\\r\\n]$/',
      ),
    );
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: ['sum'], delimiter: '"' }),
      invalid('delimiter: must match the pattern /^[^"\\r\\n]$/'),
    );
    assert.deepEqual(
      await analyze(client, { path: 'sales.csv', operations: ['sum'], maxDistinct: 0 }),
      invalid('maxDistinct: must be >= 1 (got 0)'),
    );
    assert.deepEqual(
      await analyze(client, { operations: ['sum'] }),
      invalid('path: is required but missing'),
    );
  });
});

/** Writes `size` bytes or more of rows in 64 KiB blocks (one block in memory), and what the analysis must find. */
async function writeBigCsv(path: string, size: number) {
  const regions = ['north', 'south', 'east', 'west'];
  let block = '';
  let rows = 0;
  let priceSum = 0;
  let priceMax = 0;
  let qtySum = 0;
  while (block.length < 64 * 1024 - 80) {
    const price = (rows % 1000) + 0.25;
    const qty = rows % 10;
    block += `${rows},${price},${qty},${regions[rows % 4]},"note, with ""quotes"" ${rows % 7}"\n`;
    priceSum += price;
    priceMax = Math.max(priceMax, price);
    qtySum += qty;
    rows++;
  }
  const bytes = Buffer.from(block);
  const header = Buffer.from('id,price,qty,region,note\n');
  const blocks = Math.ceil((size - header.length) / bytes.length);
  const handle = await open(path, 'w');
  try {
    await handle.write(header);
    for (let k = 0; k < blocks; k++) await handle.write(bytes);
  } finally {
    await handle.close();
  }
  return {
    bytes: header.length + blocks * bytes.length,
    rows: rows * blocks,
    priceSum: priceSum * blocks,
    priceMax,
    qtySum: qtySum * blocks,
  };
}

describe('analyze_csv: stopping and progress', () => {
  it('stops reading as soon as the signal aborts', async () => {
    const path = join(root, 'abort.csv');
    const expected = await writeBigCsv(path, 8 * 1024 * 1024);
    const controller = new AbortController();
    let reports = 0;
    let lastBytes = 0;
    const handle = await open(path);
    try {
      await assert.rejects(
        analyzeCsv(
          handle,
          {
            operations: new Set(['sum']),
            columns: undefined,
            hasHeader: true,
            maxDistinct: 100,
            delimiter: ',',
            file: 'abort.csv',
          },
          CSV_DEFAULTS,
          {
            signal: controller.signal,
            progress(bytes) {
              reports++;
              lastBytes = bytes;
              controller.abort(new Error('stop'));
            },
          },
        ),
        { message: 'stop' },
      );
    } finally {
      await handle.close();
      await rm(path);
    }
    assert.equal(reports, 1);
    assert.ok(lastBytes < expected.bytes / 4, `read ${lastBytes} of ${expected.bytes} bytes`);
  });

  it('the time limit the operator sets applies: a call that outlasts it gets the timeout message', async () => {
    const client = await csvClient(undefined, { analyze_csv: 1 });
    const path = join(root, 'slow.csv');
    await writeBigCsv(path, 8 * 1024 * 1024);
    try {
      assert.deepEqual(
        await analyze(client, { path: 'slow.csv', operations: ['sum'] }),
        failure('Tool "analyze_csv" timed out after 1 ms'),
      );
    } finally {
      await rm(path);
    }
  });

  it('reports progress in bytes read, with the file size as total, ending at the size', async () => {
    const client = await csvClient();
    const path = join(root, 'progress.csv');
    const expected = await writeBigCsv(path, 2 * 1024 * 1024);
    try {
      const result = await analyze(
        client,
        { path: 'progress.csv', operations: ['count'], columns: ['qty'] },
        { progressToken: 'p1' },
      );
      assert.equal(reportOf(result).rows, expected.rows);
    } finally {
      await rm(path);
    }
    const progress = client
      .notifications()
      .filter((message) => isNotification('notifications/progress')(message))
      .map((message) => message.params ?? {});
    assert.ok(progress.length >= 1);
    for (const params of progress) {
      assert.equal(params.progressToken, 'p1');
      assert.equal(params.total, expected.bytes);
    }
    assert.equal(progress.at(-1)?.progress, expected.bytes);
  });
});

describe('analyze_csv: a 1 GiB file in bounded memory', () => {
  it('reads 1 GiB with the RSS growing by less than 200 MB', { timeout: 300_000 }, async (t) => {
    const path = join(root, 'huge.csv');
    const started = performance.now();
    const expected = await writeBigCsv(path, 1024 ** 3);
    const generated = performance.now();
    try {
      const client = await csvClient();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      let result: CallToolResult;
      try {
        result = await analyze(
          client,
          {
            path: 'huge.csv',
            operations: ['sum', 'average', 'min', 'max', 'count', 'distinct'],
            columns: ['price', 'qty'],
          },
          { progressToken: 'huge' },
          280_000,
        );
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, process.memoryUsage().rss);
      const analysed = performance.now();
      const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
      const growth = peak - baseline;
      t.diagnostic(
        `1 GiB CSV (${expected.bytes} bytes, ${expected.rows} rows): generated in ${((generated - started) / 1000).toFixed(1)} s, ` +
          `analysed in ${((analysed - generated) / 1000).toFixed(1)} s; RSS baseline ${mib(baseline)}, peak ${mib(peak)}, growth ${mib(growth)}`,
      );
      const report = reportOf(result);
      assert.equal(report.bytesRead, expected.bytes);
      assert.equal(report.rows, expected.rows);
      const [price, qty] = report.columns;
      assert.equal(price?.sum, expected.priceSum);
      assert.equal(price?.count, expected.rows);
      assert.equal(price?.min, 0.25);
      assert.equal(price?.max, expected.priceMax);
      assert.equal(price?.distinct?.values.length, 100);
      assert.equal(price?.distinct?.truncated, true);
      assert.equal(qty?.sum, expected.qtySum);
      assert.equal(qty?.distinct?.values.length, 10);
      assert.equal(qty?.distinct?.truncated, false);
      assert.deepEqual(
        [report.raggedRows, report.blankLines, report.strayQuotes, report.unterminatedQuoteLine],
        [0, 0, 0, null],
      );
      const progress = client
        .notifications()
        .filter((message) => isNotification('notifications/progress')(message));
      assert.ok(progress.length > 10, `${progress.length} progress notifications`);
      assert.equal(progress.at(-1)?.params?.progress, expected.bytes);
      assert.ok(growth < 200 * 1024 ** 2, `RSS grew by ${mib(growth)}`);
    } finally {
      await rm(path, { force: true });
    }
  });
});
