// The package as a user gets it: `npm pack` of a copy of this tree, installed into a new project, where
// `toolwire --version` runs, a tools/call goes over stdio through the installed client and server, every subpath
// export loads at run time, and a strict TypeScript file importing every subpath type-checks against the shipped
// declarations (skipLibCheck off). The tarball holds no source maps and nothing that points into src/.

import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
/** Building, packing and installing may each take a while on a loaded 2-core machine; a hang still ends. */
const STEP_TIMEOUT_MS = 5 * 60_000;
/** Not copied into the staging tree: installed or generated things, and what the package never ships. */
const SKIPPED = new Set([
  'node_modules',
  '.git',
  'dist',
  '.conformance',
  'conformance-results',
  'test',
  'bench',
]);

const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
};

/** The environment for npm: `npm test` sets npm_* variables (the running package's) that must not leak into it. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));

function run(command: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd,
    env: cleanEnv(),
    encoding: 'utf8',
    timeout: STEP_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(
    result.status,
    0,
    `${command} ${args.join(' ')} (in ${cwd}) ended with ${result.status ?? result.signal ?? result.error?.message}\n` +
      `stdout: ${result.stdout}\nstderr: ${result.stderr}`,
  );
  return result;
}

let work: string;
let tarball: string;
let packed: string[];
let consumer: string;

before(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'toolwire-pack-')));
  // A copy, so that building does not touch this tree's dist/ (other tests and people may be using it).
  const staging = join(work, 'staging');
  cpSync(REPO, staging, {
    recursive: true,
    filter: (source) => {
      const path = relative(REPO, source);
      return !SKIPPED.has(path.split('/')[0] as string) && !path.endsWith('.log');
    },
  });
  symlinkSync(join(REPO, 'node_modules'), join(staging, 'node_modules'));
  run('npm', ['run', 'build'], staging);
  const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], staging);
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  assert.ok(info, pack.stdout);
  tarball = join(work, info.filename);
  packed = info.files.map((file) => file.path);

  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'toolwire-consumer', private: true, type: 'module' }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], consumer);
});

after(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('ships no source maps, no sources, and every file package.json points at', () => {
    // package.json says MIT: the licence text goes along with the code.
    assert.ok(packed.includes('LICENSE'), 'the tarball holds LICENSE');
    assert.deepEqual(
      packed.filter((path) => path.endsWith('.map') || path.startsWith('src/') || path.includes('.test.')),
      [],
    );
    const pointed = [
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : [target.types, target.default],
      ),
    ].map((path) => path.replace(/^\.\//, ''));
    assert.deepEqual(
      pointed.filter((path) => !packed.includes(path)),
      [],
    );
    // No shipped file refers to a source map or to src/ (declaration maps did, through "sources").
    const mentions = packed
      .filter((path) => path.endsWith('.js') || path.endsWith('.d.ts'))
      .filter((path) =>
        /sourceMappingURL|\.\.\/src\//.test(
          readFileSync(join(consumer, 'node_modules', manifest.name, path), 'utf8'),
        ),
      );
    assert.deepEqual(mentions, []);
  });

  it('installs a `toolwire` command that prints its version', () => {
    const version = run(join(consumer, 'node_modules', '.bin', 'toolwire'), ['--version'], consumer);
    assert.equal(version.stdout, `${manifest.version}\n`);
  });

  it('serves, loads every subpath at run time and answers a tools/call over stdio through its own client', () => {
    const subpaths = Object.keys(manifest.exports).map((key) => key.replace(/^\./, manifest.name));
    writeFileSync(
      join(consumer, 'check.mjs'),
      `// Loads every subpath export and calls a tool of \`toolwire serve\` (the installed command) over stdio.
${subpaths
  .map((path, index) =>
    path.endsWith('.json')
      ? `import json${index} from '${path}' with { type: 'json' };`
      : `import * as module${index} from '${path}';`,
  )
  .join('\n')}
import { McpClient } from 'toolwire/client';
import { StdioClientTransport } from 'toolwire/stdio';

const loaded = [${subpaths.map((path, index) => (path.endsWith('.json') ? `json${index}` : `module${index}`)).join(', ')}];
const client = new McpClient({ name: 'consumer', version: '1' }, { trusted: true });
await client.connect(new StdioClientTransport({ command: 'node_modules/.bin/toolwire', args: ['serve', '--tools', 'calc'] }));
const result = await client.callTool('calculate', { expression: '6*7' });
await client.close();
console.log(JSON.stringify({ loaded: loaded.map((m) => Object.keys(m).length > 0), era: client.era, result }));
`,
    );
    const output = run(process.execPath, ['check.mjs'], consumer);
    const printed = JSON.parse(output.stdout) as {
      loaded: boolean[];
      era: string;
      result: { content: Array<{ type: string; text: string }>; isError?: boolean };
    };
    assert.deepEqual(
      printed.loaded,
      subpaths.map(() => true),
    );
    assert.equal(printed.era, 'modern');
    assert.equal(printed.result.isError, undefined);
    assert.match(printed.result.content[0]?.text ?? '', /42/);
  });

  it("starts the audit trail's writer thread from its own file of the bundled package", () => {
    // dist/ is bundled: the thread's entry is found from the package root, not from the chunk that asks for it.
    // better-sqlite3's native part as this suite's other tests load it: the consumer's install built one for the
    // node npm ran, which under the Node 22 and 24 suites (scripts/test-on-node.mjs) is not the node running this.
    const addon = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    cpSync(join(REPO, addon), join(consumer, addon));
    writeFileSync(
      join(consumer, 'audit-check.mjs'),
      `import { openAudit } from 'toolwire/policy';
const audit = await openAudit({ store: { kind: 'sqlite', path: 'trail.db' } }); // resolves once the thread is open
console.log(audit.store.description);
await audit.close();
`,
    );
    const output = run(process.execPath, ['audit-check.mjs'], consumer);
    assert.equal(output.stdout, `sqlite ${join(consumer, 'trail.db')}\n`);
  });

  it('type-checks a strict TypeScript file importing every subpath export, declarations included', () => {
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          verbatimModuleSyntax: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
          // @types/node is not a dependency of the package; the user's project brings its own.
          typeRoots: [join(REPO, 'node_modules', '@types')],
        },
        files: ['user.ts'],
      }),
    );
    writeFileSync(
      join(consumer, 'user.ts'),
      `// What a user writes: a server with a raw-JSON-Schema tool, HTTP and stdio serving, a client, the packs.
import { McpServer, ToolError, type ToolConfig } from 'toolwire';
import { McpClient, type CallOptions } from 'toolwire/client';
import { createFetchHandler, createNodeHandler, listenHttp, type HttpOptions } from 'toolwire/http';
import { HttpClientTransport } from 'toolwire/http-client';
import { StdioClientTransport, serveStdio } from 'toolwire/stdio';
import { PACKS, calcPack, type ToolPack } from 'toolwire/tools';

const server = new McpServer({ name: 'user', version: '1.0.0' });
server.tool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  handler: (args) => {
    const { a, b } = args as { a: unknown; b: unknown };
    if (typeof a !== 'number' || typeof b !== 'number') throw new ToolError('numbers only');
    return { sum: a + b };
  },
});
export const definition: ToolConfig | undefined = undefined;
const options: HttpOptions = { allowedHosts: ['mcp.example.com'], maxBodyBytes: 1024 };
export const handlers = [createNodeHandler(server, options), createFetchHandler(server)];
export const serving = [listenHttp, serveStdio];
const client = new McpClient({ name: 'user-client', version: '1.0.0' });
const call: CallOptions = { timeoutMs: 1000 };
export const transports = [
  new StdioClientTransport({ command: 'node', args: ['server.js'] }),
  new HttpClientTransport('http://127.0.0.1:3000/mcp'),
];
const pack: ToolPack<unknown> | undefined = PACKS.calc;
export { client, call, pack, calcPack };
`,
    );
    run(
      process.execPath,
      [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      consumer,
    );
  });
});
