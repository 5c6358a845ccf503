// Runs the test suite on other Node versions than the one running this script: `node scripts/test-on-node.mjs 22 24`.
// Each Node comes from the npm registry's node-<platform>-<arch> package (pinned below), installed once into
// node_modules/.cache/toolwire-node/ (npm ci empties it; the npm cache keeps the download). The suite runs with that
// binary first on PATH, so the processes the tests start run on it too. Exits 1 when any version's suite fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest release of each line when this was written; bump them deliberately, like any dependency. */
const PINNED = { 22: '22.23.3', 24: '24.21.0' };
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

const failed = [];
for (const major of majors) {
  const node = binary(major);
  const version = versionOf(node);
  if (version !== `v${PINNED[major]}`) {
    console.error(`test-on-node: no Node ${PINNED[major]} at ${node} (found ${version ?? 'nothing'})`);
    process.exit(1);
  }
  console.log(`\ntest-on-node: the test suite on Node ${version}`);
  const started = Date.now();
  const suite = spawnSync(node, ['scripts/run-tests.mjs'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: SUITE_TIMEOUT_MS,
    env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`test-on-node: Node ${version}: ${suite.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
  if (suite.status !== 0) failed.push(version);
}
if (failed.length > 0) {
  console.error(`test-on-node: the suite failed on ${failed.join(', ')}`);
  process.exit(1);
}
