// Runs the test suite on other Node versions than the one running this script: `node scripts/test-on-node.mjs 22 24`.
// Each Node comes from the npm registry's node-<platform>-<arch> package (pinned below), installed once into
// node_modules/.cache/toolwire-node/ (npm ci empties it; the npm cache keeps the download). The suite runs with that
// binary first on PATH, so the processes the tests start run on it too. Exits 1 when any version's suite fails.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os, { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest release of each line when this was written; bump them deliberately, like any dependency. */
const PINNED = { 22: '22.23.3', 24: '24.21.0' };
/**
 * Test files left out on a line, with the defect that makes them fail there: printed on every run, never silent.
 * None today. (Node 24's better-sqlite3 finalizer abort, which left the SQLite tests out, is avoided by never letting
 * a statement become garbage: src/policy/audit/sqlite-keep.ts.)
 */
const KNOWN_DEFECTS = {};
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PREFIX = join(ROOT, 'node_modules', '.cache', 'toolwire-node');
const INSTALL_TIMEOUT_MS = 10 * 60_000;
const SUITE_TIMEOUT_MS = 30 * 60_000;

const majors = process.argv.slice(2);
if (majors.length === 0 || majors.some((major) => !Object.hasOwn(PINNED, major))) {
  console.error(`usage: node scripts/test-on-node.mjs MAJOR…   (pinned: ${Object.keys(PINNED).join(', ')})`);
  process.exit(2);
}
const binary = (major) => join(PREFIX, 'node_modules', `node${major}`, 'bin', 'node');
const versionOf = (path) => {
  if (!existsSync(path)) return undefined;
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim() : undefined;
};

const missing = majors.filter((major) => versionOf(binary(major)) !== `v${PINNED[major]}`);
if (missing.length > 0) {
  mkdirSync(PREFIX, { recursive: true });
  writeFileSync(join(PREFIX, 'package.json'), '{ "name": "toolwire-node-binaries", "private": true }\n');
  // Every pinned version is named on each install: npm would prune an alias installed earlier with --no-save.
  const specs = Object.entries(PINNED).map(
    ([major, version]) => `node${major}@npm:node-${process.platform}-${process.arch}@${version}`,
  );
  console.log(`test-on-node: installing ${specs.join(' and ')}`);
  const install = spawnSync(
    'npm',
    ['install', '--prefix', PREFIX, '--no-save', '--no-audit', '--no-fund', '--prefer-offline', ...specs],
    { cwd: ROOT, stdio: 'inherit', timeout: INSTALL_TIMEOUT_MS },
  );
  if (install.status !== 0) {
    console.error(`test-on-node: npm install failed (${install.error?.message ?? `exit ${install.status}`})`);
    process.exit(1);
  }
}

// better-sqlite3 is a native module built for the Node that ran `npm ci`; another major needs its own build. Each is
// built once from the package's sources against that Node's headers (the registry package ships them), kept in the
// cache, swapped in for that major's run, and the original put back at the end.
const SQLITE_PACKAGE = join(ROOT, 'node_modules', 'better-sqlite3');
const SQLITE_BINDING = join(SQLITE_PACKAGE, 'build', 'Release', 'better_sqlite3.node');
const nodeGyp = () => {
  const npm = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim();
  const candidates = [
    join(npm, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(
      dirname(realpathSync(process.execPath)),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  ];
  return candidates.find((candidate) => existsSync(candidate));
};
function sqliteBindingFor(major, node) {
  // Keyed by the package's version too: a new better-sqlite3 must never run with an older build.
  const { version: sqliteVersion } = JSON.parse(readFileSync(join(SQLITE_PACKAGE, 'package.json'), 'utf8'));
  const cached = join(PREFIX, `better_sqlite3-${sqliteVersion}-node${major}-${PINNED[major]}.node`);
  if (existsSync(cached)) return cached;
  const gyp = nodeGyp();
  if (gyp === undefined) throw new Error('node-gyp (bundled with npm) was not found');
  const work = mkdtempSync(join(tmpdir(), `toolwire-sqlite-${major}-`));
  try {
    cpSync(SQLITE_PACKAGE, work, {
      recursive: true,
      filter: (path) => !path.includes(`${SQLITE_PACKAGE}/build`),
    });
    console.log(`test-on-node: building better-sqlite3 for Node ${PINNED[major]}`);
    const build = spawnSync(
      node,
      [
        gyp,
        'rebuild',
        '--release',
        `--nodedir=${join(dirname(node), '..')}`,
        `--jobs=${Math.max(1, os.availableParallelism?.() ?? 2)}`,
      ],
      {
        cwd: work,
        stdio: 'inherit',
        timeout: INSTALL_TIMEOUT_MS,
        env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
      },
    );
    if (build.status !== 0)
      throw new Error(`the build failed (${build.error?.message ?? `exit ${build.status}`})`);
    copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), cached);
    return cached;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
const originalBinding = join(PREFIX, 'better_sqlite3-original.node');
if (existsSync(SQLITE_BINDING)) {
  copyFileSync(SQLITE_BINDING, originalBinding);
  // However this ends, node_modules is left with the build of the Node that installed it.
  process.on('exit', () => copyFileSync(originalBinding, SQLITE_BINDING));
}

const failed = [];
for (const major of majors) {
  const node = binary(major);
  const version = versionOf(node);
  if (version !== `v${PINNED[major]}`) {
    console.error(`test-on-node: no Node ${PINNED[major]} at ${node} (found ${version ?? 'nothing'})`);
    process.exit(1);
  }
  if (existsSync(originalBinding)) {
    try {
      copyFileSync(sqliteBindingFor(major, node), SQLITE_BINDING);
    } catch (error) {
      console.error(`test-on-node: better-sqlite3 for Node ${version}: ${error.message}`);
      failed.push(version);
      continue;
    }
  }
  const defect = KNOWN_DEFECTS[major];
  if (defect !== undefined) {
    console.log(`test-on-node: Node ${version}: LEFT OUT ${defect.files.join(', ')}: ${defect.why}`);
  }
  console.log(`\ntest-on-node: the test suite on Node ${version}`);
  const started = Date.now();
  const suite = spawnSync(node, ['scripts/run-tests.mjs'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: SUITE_TIMEOUT_MS,
    env: {
      ...process.env,
      PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`,
      ...(defect !== undefined && { TOOLWIRE_TEST_EXCLUDE: defect.files.join(',') }),
    },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`test-on-node: Node ${version}: ${suite.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
  if (suite.status !== 0) failed.push(version);
}
if (failed.length > 0) {
  console.error(`test-on-node: the suite failed on ${failed.join(', ')}`);
  process.exit(1);
}
