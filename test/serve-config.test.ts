// `toolwire serve` configuration, run as a real process: mistakes stop it at startup with exit 2 and a message that
// names the bad key; the user's own tool modules are served and callable; `timeouts` overrides a tool's time limit.

import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  makeWorkspace,
  parseJson,
  runCli,
  serveTarget,
  withoutLateDiscoverWarning,
  writeConfig,
  type Workspace,
} from './fixtures/serve/harness.js';
import type { PrintedResult } from './fixtures/serve/tool-calls.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/serve/', import.meta.url)).replace(/\/$/, '');
const PACK_NAMES = 'calc, files, search, csv, exec, http, github';

let ws: Workspace;

before(async () => {
  ws = await makeWorkspace();
});

after(async () => {
  await ws?.cleanup();
});

interface StartupCase {
  name: string;
  /** toolwire.json's content; the server gets --config for it. */
  config?: unknown;
  /** Further arguments of `serve`. */
  args?: string[];
  /** The one line on stderr. */
  message: () => string;
}

const STARTUP_CASES: readonly StartupCase[] = [
  {
    name: 'an unknown top-level key',
    config: { tool: ['calc'] },
    message: () =>
      'toolwire: config has an unknown key "tool"; allowed keys: tools, roots, timeouts, packs, mcpServers, $schema',
  },
  {
    name: 'an unknown pack name in packs',
    config: { packs: { shell: {} } },
    message: () => `toolwire: config "packs" has an unknown pack "shell"; packs: ${PACK_NAMES}`,
  },
  {
    name: 'an unknown key inside a pack',
    config: { packs: { files: { maxReadByte: 4096 } } },
    message: () => 'toolwire: packs.files has an unknown key "maxReadByte"; allowed keys: maxReadBytes',
  },
  {
    name: 'a bad --tools entry',
    args: ['--tools', 'calc,shell'],
    message: () =>
      `toolwire: unknown tool pack "shell"; packs: ${PACK_NAMES} (or a module path like ./my-tools.js)`,
  },
  {
    name: 'a root that does not exist',
    config: { roots: ['./missing'] },
    message: () => `toolwire: roots: root "${join(ws.base, 'missing')}" does not exist`,
  },
  {
    name: 'a tool module that does not exist',
    args: ['--tools', './missing-tools.mjs'],
    // Node's own wording, which names the importing file: toolwire's source when run from source.
    message: () =>
      `toolwire: tool module ./missing-tools.mjs does not exist (${join(ws.base, 'missing-tools.mjs')})`,
  },
];

// Each case is one short-lived process; three at a time.
describe('toolwire serve stops at startup with exit 2 on', { concurrency: 3 }, () => {
  STARTUP_CASES.forEach((startup, index) => {
    it(startup.name, async () => {
      const config =
        startup.config === undefined
          ? []
          : ['--config', await writeConfig(ws.base, startup.config, `startup-${index}.json`)];
      // stdin is closed: had the server started, it would have served stdio until EOF and exited 0.
      const run = await runCli(['serve', ...config, ...(startup.args ?? [])], { cwd: ws.base });
      assert.deepEqual(run, { code: 2, signal: null, stdout: '', stderr: `${startup.message()}\n` });
    });
  });
});

describe("the user's own tools", { concurrency: 3 }, () => {
  // From the fixtures directory, so that --tools ./my-tools.mjs is the path a user would type.
  const target = serveTarget(['--tools', './my-tools.mjs'], FIXTURES);

  it('--tools ./my-tools.mjs serves its tool, callable with key=value arguments', async () => {
    const run = await runCli(['call', target, 'shout', 'word=hello', '--json', '--yes'], { cwd: FIXTURES });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((parseJson(run) as PrintedResult).structuredContent, { shouted: 'HELLO!' });
  });

  it("its raw JSON Schema is enforced: an unknown argument exits 1 with the tool's message", async () => {
    const run = await runCli(['call', target, 'shout', 'word=hi', 'loud=yes', '--yes'], { cwd: FIXTURES });
    assert.deepEqual(withoutLateDiscoverWarning(run), {
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'Invalid arguments for tool "shout":\n- loud: is not allowed (unknown property)\n',
    });
  });

  it('timeouts.nap: 200 in the config stops a module tool that declares 60 s', async () => {
    const config = await writeConfig(
      ws.base,
      { tools: [join(FIXTURES, 'slow-tools.mjs')], timeouts: { nap: 200 } },
      'timeouts.json',
    );
    const run = await runCli(['call', serveTarget(['--config', config]), 'nap', '--yes']);
    assert.deepEqual(withoutLateDiscoverWarning(run), {
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'Tool "nap" timed out after 200 ms\n',
    });
  });
});

describe('configuration mistakes that go unnoticed', { concurrency: 2 }, () => {
  it('a relative module path in the config file resolves against the file, as its roots do', async () => {
    const directory = join(ws.base, 'conf');
    await mkdir(directory, { recursive: true });
    await copyFile(join(FIXTURES, 'my-tools.mjs'), join(directory, 'my-tools.mjs'));
    const config = await writeConfig(directory, { tools: ['./my-tools.mjs'], roots: ['.'] });
    // Started from the repository (as Claude Desktop starts it from anywhere): it should load conf/my-tools.mjs.
    const run = await runCli(['serve', '--config', config]);
    assert.deepEqual(run, { code: 0, signal: null, stdout: '', stderr: '' });
  });

  it('a typo in the settings of a pack that is not in tools is still refused', async () => {
    const config = await writeConfig(ws.base, { packs: { http: { enabeld: true } } }, 'unused-pack.json');
    const run = await runCli(['serve', '--config', config], { cwd: ws.base });
    assert.deepEqual(run, {
      code: 2,
      signal: null,
      stdout: '',
      stderr:
        'toolwire: packs.http has an unknown key "enabeld"; allowed keys: enabled, methods, allowHosts, maxRedirects, maxResponseBytes\n',
    });
  });
});
