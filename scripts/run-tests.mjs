// Runs every test file under test/ and src/ with Node's own test runner (TypeScript through tsx).
// Node 20 does not expand globs for --test, so the files are listed here.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = ['test', 'src'];
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts')) files.push(path);
  }
};
for (const root of roots) {
  try {
    walk(root);
  } catch {
    // a missing root is fine
  }
}
const filter = process.argv.slice(2);
// TOOLWIRE_TEST_EXCLUDE: comma-separated paths left out (scripts/test-on-node.mjs names known defects this way).
const excluded = (process.env.TOOLWIRE_TEST_EXCLUDE ?? '').split(',').filter((part) => part !== '');
const selected = (
  filter.length ? files.filter((f) => filter.some((part) => f.includes(part))) : files
).filter((f) => !excluded.some((part) => f.includes(part)));
selected.sort();
if (selected.length === 0) {
  // node --test without files would discover on its own, fixtures (servers that wait on stdin) included.
  console.error(`run-tests: no test file matches ${filter.map((part) => JSON.stringify(part)).join(', ')}`);
  process.exit(2);
}
// Hermetic: the CLI children the tests start keep what they remember (login tokens, tool pins) in a configuration
// directory of this run, never the developer's ~/.config; and `toolwire list/call` do not pin tools unless a test
// turns pinning on (test/cli-pins.test.ts does), so one server's tools changing between two tests warns no one.
const configHome = mkdtempSync(join(tmpdir(), 'toolwire-test-config-'));
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...selected],
  {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test', XDG_CONFIG_HOME: configHome, TOOLWIRE_PINS: 'off' },
  },
);
rmSync(configHome, { recursive: true, force: true });
process.exit(result.status ?? 1);
