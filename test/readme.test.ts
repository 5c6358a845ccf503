// Every code block of README.md, checked as written. ts: an excerpt of a file under examples/ (its lines in order;
// `// …` where lines are left out; `toolwire/…` imports stand for the example's `../src/…` ones). json: valid against
// schema/toolwire.schema.json, and the servers it describes started and listed (`/path/to/toolwire` is a fresh build
// of this checkout, `/path/to/project` a temporary directory; `url` servers are only checked). sh: run by bash from
// the repository root with that build's `toolwire` first on PATH, `127.0.0.1:3333` standing for a `toolwire serve
// --http` started here on a free port. text: output, not run. `<!-- readme-test: skip: REASON -->` above a block
// leaves it out, and says why.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { McpClient } from '../src/client/index.js';
import { StdioClientTransport } from '../src/transports/stdio/index.js';

const REPO = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const STEP_TIMEOUT_MS = 120_000;
const MAX_SKIPPED = 3;

interface Block {
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  skip: string | undefined;
}

function readBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)\s*$/.exec(lines[index] as string);
    if (open === null) continue;
    const end = lines.findIndex((line, at) => at > index && line === '```');
    assert.notEqual(end, -1, `README.md:${index + 1}: a code block that never closes`);
    const marker = /^<!-- readme-test: skip: (.+?) -->$/.exec(lines[index - 2] ?? '');
    blocks.push({
      lang: open[1] ?? '',
      code: lines.slice(index + 1, end).join('\n'),
      line: index + 1,
      skip: lines[index - 1] === '' ? marker?.[1] : undefined,
    });
    index = end;
  }
  return blocks;
}

const blocks = readBlocks(README);
const run = (block: Block): boolean => block.skip === undefined;

/** `toolwire/…` subpath → the module examples/ imports instead, from package.json's exports. */
const SUBPATHS: Array<[string, string]> = Object.entries(
  (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { exports: Record<string, unknown> })
    .exports,
).flatMap(([key, target]) => {
  const file = typeof target === 'object' && target !== null ? (target as { default?: string }).default : '';
  const match = /^\.\/dist\/(.+)\.js$/.exec(file ?? '');
  return match === null
    ? []
    : [[key.replace(/^\./, 'toolwire'), `../src/${match[1]}.js`] as [string, string]];
});

const asInExamples = (line: string): string =>
  SUBPATHS.reduce((text, [name, path]) => text.replace(`from '${name}';`, `from '${path}';`), line);

/** Where the excerpt's lines stop matching `file`, or undefined when all are found in order. */
function missingLine(excerpt: readonly string[], file: readonly string[]): string | undefined {
  let at = 0;
  for (const line of excerpt) {
    while (at < file.length && file[at] !== line) at++;
    if (at === file.length) return line;
    at++;
  }
  return undefined;
}

let work: string;
let checkout: string;
let pathDir: string;
let httpServer: ChildProcess | undefined;
let httpAddress: string;
const validate = new Ajv({ strict: true, strictRequired: false }).compile(
  JSON.parse(readFileSync(join(REPO, 'schema', 'toolwire.schema.json'), 'utf8')) as object,
);

/** The environment the README's commands run in: the fresh build's `toolwire` first on PATH. */
const env = (): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${pathDir}${delimiter}${process.env.PATH ?? ''}`,
});

/** Resolves with the first `toolwire: listening on URL` line of a serving child's stderr (bounded). */
function listening(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} did not listen in time:\n${stderr}`)),
      STEP_TIMEOUT_MS,
    );
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /toolwire: listening on (http:\/\/\S+)\n/.exec(stderr);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before listening:\n${stderr}`));
    });
  });
}

const stop = async (child: ChildProcess | undefined): Promise<void> => {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
};

before(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'toolwire-readme-')));
  // A checkout as `npm ci` leaves it: bin/, package.json, schema/ and a dist/ built from these sources.
  checkout = join(work, 'toolwire');
  mkdirSync(checkout);
  for (const part of ['bin', 'schema', 'package.json'])
    cpSync(join(REPO, part), join(checkout, part), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(checkout, 'node_modules'));
  const build = spawnSync(
    process.execPath,
    [
      join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(REPO, 'tsconfig.build.json'),
      '--outDir',
      join(checkout, 'dist'),
      // Emit only: the typecheck is npm run check's job, and this build is what runs, not what is published.
      '--noCheck',
      '--declaration',
      'false',
    ],
    { encoding: 'utf8', timeout: 5 * 60_000 },
  );
  assert.equal(build.status, 0, `the build failed:\n${build.stdout}${build.stderr}`);
  pathDir = join(work, 'path');
  mkdirSync(pathDir);
  const shim = join(pathDir, 'toolwire');
  writeFileSync(
    shim,
    `#!/bin/sh\nexec "${process.execPath}" "${join(checkout, 'bin', 'toolwire.js')}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  mkdirSync(join(work, 'project'));
  mkdirSync(join(work, 'home'));
  writeFileSync(join(work, 'project', 'notes.txt'), 'a file in the project\n');
  // What `npm start` runs, on a free port, from the repository root (the README reads README.md through it).
  httpServer = spawn(
    process.execPath,
    [join(checkout, 'bin', 'toolwire.js'), 'serve', '--http', '127.0.0.1:0'],
    {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  httpAddress = new URL(await listening(httpServer, 'npm start')).host;
});

after(async () => {
  await stop(httpServer);
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** Starts a stdio server as the host would and lists its tools; returns their names. */
async function listTools(
  command: string,
  args: string[],
  extra: { env?: Record<string, string>; cwd?: string },
) {
  const client = new McpClient({ name: 'readme-test', version: '1' }, { logger: { warn: () => undefined } });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      env: { ...(env() as Record<string, string>), ...extra.env },
      ...(extra.cwd !== undefined && { cwd: extra.cwd }),
    }),
  );
  try {
    return (await client.listTools()).map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

const placeholders = (text: string): string =>
  text.replaceAll('/path/to/toolwire', checkout).replaceAll('/path/to/project', join(work, 'project'));

describe('README.md', () => {
  it('has a language on every block, and at most a few skipped blocks, each saying why', () => {
    assert.deepEqual(
      blocks.filter((block) => !['sh', 'ts', 'json', 'text'].includes(block.lang)).map((block) => block.line),
      [],
    );
    const skipped = blocks.filter((block) => !run(block));
    assert.ok(skipped.length <= MAX_SKIPPED, `skipped: ${skipped.map((block) => block.line).join(', ')}`);
    assert.ok(blocks.filter(run).length >= 10, 'the README test found its blocks');
  });

  const examples = readdirSync(join(REPO, 'examples'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ name, lines: readFileSync(join(REPO, 'examples', name), 'utf8').split('\n') }));

  for (const block of blocks.filter((b) => run(b) && b.lang === 'ts')) {
    it(`ts block at line ${block.line} is an excerpt of a file under examples/`, () => {
      const excerpt = block.code
        .split('\n')
        .filter((line) => line.trim() !== '' && line.trim() !== '// …')
        .map(asInExamples);
      const found = examples.filter((file) => missingLine(excerpt, file.lines) === undefined);
      assert.ok(
        found.length > 0,
        examples
          .map((file) => `examples/${file.name}: no line ${JSON.stringify(missingLine(excerpt, file.lines))}`)
          .join('\n'),
      );
    });
  }

  blocks
    .filter((b) => run(b) && b.lang === 'json')
    .forEach((block, index) => {
      it(`json block at line ${block.line} is a valid toolwire.json whose servers start`, async () => {
        const config = JSON.parse(placeholders(block.code)) as {
          $schema?: string;
          http?: unknown;
          mcpServers?: Record<
            string,
            { command?: string; args?: string[]; env?: Record<string, string>; url?: string }
          >;
        };
        assert.equal(validate(config), true, JSON.stringify(validate.errors));
        if (config.$schema !== undefined) {
          // The path a project that installed toolwire has: a file the package ships.
          const shipped = config.$schema.replace(/^\.\/node_modules\/toolwire\//, '');
          assert.ok(existsSync(join(REPO, shipped)), config.$schema);
        }
        if (config.mcpServers !== undefined) {
          for (const [name, server] of Object.entries(config.mcpServers)) {
            if (server.url !== undefined) continue; // no network here: the schema check above is all
            // npx would look toolwire up on the npm registry, where this package is not: a checkout cannot use it.
            assert.notEqual(server.command, 'npx', `server "${name}" runs npx`);
            const tools = await listTools(server.command as string, server.args ?? [], {
              ...(server.env !== undefined && { env: server.env }),
              cwd: REPO,
            });
            assert.ok(tools.length > 0, `server "${name}" lists no tools`);
          }
          return;
        }
        // A `toolwire serve` config: served from a directory of its own, with the roots it names.
        const directory = join(work, `config-${index}`);
        for (const root of (config as { roots?: string[] }).roots ?? [])
          mkdirSync(join(directory, root), { recursive: true });
        mkdirSync(directory, { recursive: true });
        const file = join(directory, 'toolwire.json');
        writeFileSync(file, block.code);
        const bin = join(checkout, 'bin', 'toolwire.js');
        if (config.http === undefined) {
          const tools = await listTools(process.execPath, [bin, 'serve', '--config', file], {
            cwd: directory,
          });
          assert.ok(tools.length > 0, 'the server lists no tools');
          return;
        }
        const child = spawn(process.execPath, [bin, 'serve', '--http', '127.0.0.1:0', '--config', file], {
          cwd: directory,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        try {
          assert.match(await listening(child, 'serve --config'), /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        } finally {
          await stop(child);
        }
      });
    });

  for (const block of blocks.filter((b) => run(b) && b.lang === 'sh')) {
    it(`sh block at line ${block.line} runs`, () => {
      const script = block.code.replaceAll('127.0.0.1:3333', httpAddress);
      const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: REPO,
        // A home of its own: `toolwire install` (even with --dry-run) reads the host's file there.
        env: { ...env(), HOME: join(work, 'home') },
        encoding: 'utf8',
        timeout: STEP_TIMEOUT_MS,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      assert.equal(
        result.status,
        0,
        `exit ${result.status ?? result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`,
      );
    });
  }
});
