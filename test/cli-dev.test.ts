// `toolwire dev MODULE` as a real process driven by toolwire's client over stdio: a change to the module reaches the
// client as list_changed (waited for as an event) with tools added, changed and removed; a broken module is reported
// on stderr with the file and the reason while the last good tools keep answering; a module that fails at start is
// served as no tools until it is fixed; console.log in a module does not corrupt the protocol.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { McpClient, type ClientOptions } from '../src/client/index.js';
import { loadFailureText } from '../src/cli/dev-module.js';
import { StdioClientTransport } from '../src/transports/stdio/index.js';
import { CLIENT_INFO, FIXTURES, TSX, within } from './fixtures/client/harness.js';

const TEST_MS = 120_000;
const WAIT_MS = 45_000;

const scratch = mkdtempSync(join(tmpdir(), 'toolwire-dev-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

/** A tool module with `tools`: name → [description, the text its handler returns]. */
function moduleText(tools: Record<string, [string, string]>, prelude = ''): string {
  const entries = Object.entries(tools).map(
    ([name, [description, answer]]) =>
      `  { name: ${JSON.stringify(name)}, description: ${JSON.stringify(description)}, handler: () => ${JSON.stringify(answer)} },`,
  );
  return `${prelude}export default [\n${entries.join('\n')}\n];\n`;
}

/** Everything the dev process writes to stderr, and a wait for the next line (after the last one matched) that fits. */
function stderrLog(transport: StdioClientTransport) {
  let text = '';
  let from = 0;
  let waiter: { pattern: RegExp; resolve: (line: string) => void } | undefined;
  const check = (): void => {
    if (waiter === undefined) return;
    const lines = text.slice(from).split('\n');
    let offset = from;
    for (const line of lines.slice(0, -1)) {
      offset += line.length + 1;
      if (waiter.pattern.test(line)) {
        from = offset;
        const { resolve } = waiter;
        waiter = undefined;
        resolve(line);
        return;
      }
    }
  };
  transport.onstderr = (chunk) => {
    text += chunk;
    check();
  };
  return {
    get text() {
      return text;
    },
    /** The rest of the text after the last matched line. */
    get rest() {
      return text.slice(from);
    },
    next(pattern: RegExp): Promise<string> {
      const found = new Promise<string>((resolve) => (waiter = { pattern, resolve }));
      check();
      return within(found, WAIT_MS, `a stderr line matching ${pattern}\nstderr so far:\n${text}`);
    },
  };
}

async function startDev(file: string, options: ClientOptions = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX, `${FIXTURES}cli.ts`, 'dev', file],
    stderr: 'capture',
  });
  const log = stderrLog(transport);
  const client = new McpClient(CLIENT_INFO, { approve: 'always', ...options });
  await within(client.connect(transport), WAIT_MS, 'connecting to toolwire dev');
  return { client, transport, log };
}

/** Resolves on the client's next tool-list change (a notification from the server, not a timer). */
const nextChange = (client: McpClient): Promise<void> =>
  within(
    new Promise<void>((resolve) => {
      const stop = client.onToolsChanged(() => {
        stop();
        resolve();
      });
    }),
    WAIT_MS,
    'notifications/tools/list_changed',
  );

const names = async (client: McpClient): Promise<string[]> =>
  (await client.listTools({ refresh: true })).map((tool) => tool.name);

const textOf = (result: { content: Array<{ type: string; text?: string }> }): string | undefined =>
  result.content[0]?.text;

describe('toolwire dev', () => {
  it(
    'reloads on change: added, changed and removed tools arrive as list_changed',
    { timeout: TEST_MS },
    async () => {
      const dir = join(scratch, `case-${++counter}`);
      mkdirSync(dir);
      const file = join(dir, 'tools.mjs');
      writeFileSync(file, moduleText({ hello: ['v1', 'hello v1'] }));
      const { client, log } = await startDev(file);
      try {
        await log.next(
          /^toolwire: dev: serving .* over stdio \(tools: hello\); reloading it when it changes$/,
        );
        assert.deepEqual(await names(client), ['hello']);

        let changed = nextChange(client);
        writeFileSync(file, moduleText({ hello: ['v2', 'hello v2'], bye: ['new', 'bye v2'] }));
        await changed;
        const tools = await client.listTools({ refresh: true });
        assert.deepEqual(
          tools.map((tool) => [tool.name, tool.description]),
          [
            ['hello', 'v2'],
            ['bye', 'new'],
          ],
        );
        assert.equal(textOf(await client.callTool('bye')), 'bye v2');
        assert.equal(textOf(await client.callTool('hello')), 'hello v2');
        assert.equal(await log.next(/reloaded/), `toolwire: dev: reloaded ${file}: added bye; changed hello`);

        // A broken save: reported with the file and the reason; the last good tools keep answering.
        writeFileSync(file, 'export default [\n  { name: "hello", handler: () => 1 +; },\n];\n');
        assert.equal(
          await log.next(/cannot load/),
          `toolwire: dev: cannot load ${file}; still serving the last good version (tools: hello, bye):`,
        );
        await log.next(/^SyntaxError: Unexpected token ';'$/);
        assert.match(log.text, new RegExp(`file://${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2\\n`));
        assert.doesNotMatch(log.text, /node:internal|Node\.js v\d/);
        assert.equal(textOf(await client.callTool('hello')), 'hello v2');

        changed = nextChange(client);
        writeFileSync(file, moduleText({ bye: ['new', 'bye v3'] }));
        await changed;
        assert.deepEqual(await names(client), ['bye']);
        assert.equal(textOf(await client.callTool('bye')), 'bye v3');
        assert.equal(await log.next(/reloaded/), `toolwire: dev: reloaded ${file}: removed hello`);
        const gone = await client.callTool('hello').catch((error: unknown) => error);
        assert.ok(gone instanceof Error, 'a removed tool is unknown');
      } finally {
        await client.close();
      }
    },
  );

  it(
    'a module that fails at start serves no tools until it loads; then its tools arrive (legacy client too)',
    { timeout: TEST_MS },
    async () => {
      const dir = join(scratch, `case-${++counter}`);
      mkdirSync(dir);
      const file = join(dir, 'tools.mjs');
      writeFileSync(file, 'export default { not: "an array" };\n');
      const { client, log } = await startDev(file, { era: 'legacy' });
      try {
        assert.equal(
          await log.next(/cannot load/),
          `toolwire: dev: cannot load ${file}; serving no tools until it loads:`,
        );
        assert.equal(
          await log.next(/must export/),
          `tool module ${file} must export (default or "tools") an array of tool definitions, or a function returning one`,
        );
        await log.next(/serving .* \(tools: \(none\)\)/);
        assert.deepEqual(await names(client), []);
        const changed = nextChange(client);
        // console.log in a module goes to stderr: stdout carries the protocol.
        writeFileSync(file, moduleText({ fixed: ['ok', 'fixed'] }, 'console.log("loading the module");\n'));
        await changed;
        assert.deepEqual(await names(client), ['fixed']);
        assert.equal(textOf(await client.callTool('fixed')), 'fixed');
        await log.next(/^loading the module$/);
      } finally {
        await client.close();
      }
    },
  );
});

describe('toolwire dev: the reason a module did not load', () => {
  it('keeps what Node said about the module and drops its own stack frames and banner', () => {
    const stderr = [
      'file:///tmp/x/tools.mjs:2',
      '  { name: "a", handler: () => 1 +; }',
      '                                 ^',
      '',
      "SyntaxError: Unexpected token ';'",
      '    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)',
      '    at async ModuleJob._link (node:internal/modules/esm/module_job:148:19)',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n');
    assert.equal(
      loadFailureText(stderr, new Error('closed')),
      [
        'file:///tmp/x/tools.mjs:2',
        '  { name: "a", handler: () => 1 +; }',
        '                                 ^',
        '',
        "SyntaxError: Unexpected token ';'",
      ].join('\n'),
    );
    assert.equal(loadFailureText('', new Error('the connection closed')), 'the connection closed');
  });
});
