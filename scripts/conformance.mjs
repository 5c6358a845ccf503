// Runs the official MCP conformance suite against toolwire: `npm run conformance`.
// Installs the pinned suite (and Node 22 when the system Node is older) into .conformance/, starts
// conformance/fixture-server.ts on a free loopback port, runs both requirement sets, prints one
// `SERVER <set> SCORED <passed>/<total>` line per set (and `CLIENT …` when conformance/client.ts exists),
// and exits 1 on any failure not in conformance/expected-failures.yml or on a stale entry there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SUITE = '@modelcontextprotocol/conformance';
const SUITE_VERSION = '0.2.0-alpha.12';
const SETS = ['2025-11-25', '2026-07-28'];
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOOLS = join(ROOT, '.conformance');
const BASELINE = 'conformance/expected-failures.yml';
const CLIENT = 'conformance/client.ts';
const READY_TIMEOUT_MS = 60_000; // tsx compiles the fixture on first start
const RUN_TIMEOUT_MS = 15 * 60_000; // one whole requirement set
const INSTALL_TIMEOUT_MS = 10 * 60_000;

const fail = (message) => {
  throw new Error(message);
};
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

// ---- tools: the pinned suite, and Node >= 22 to run it ---------------------------------------------------------

function ensureTools() {
  const suiteDir = join(TOOLS, 'node_modules', SUITE);
  const needNode = Number(process.versions.node.split('.')[0]) < 22;
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const nodeBin = needNode ? join(TOOLS, 'node_modules', nodePackage, 'bin', 'node') : process.execPath;
  const suiteOk =
    existsSync(join(suiteDir, 'package.json')) &&
    readJson(join(suiteDir, 'package.json')).version === SUITE_VERSION;
  const nodeOk = !needNode || nodeMajor(nodeBin) >= 22;
  if (!suiteOk || !nodeOk) {
    mkdirSync(TOOLS, { recursive: true });
    const manifest = join(TOOLS, 'package.json');
    if (!existsSync(manifest))
      writeFileSync(manifest, '{ "name": "toolwire-conformance-tools", "private": true }\n');
    // Both are named on every install: npm prunes packages added earlier with --no-save unless named again.
    const specs = [`${SUITE}@${SUITE_VERSION}`, ...(needNode ? [`${nodePackage}@22`] : [])];
    console.log(`conformance: installing ${specs.join(' and ')} into .conformance/`);
    const install = ['install', '--prefix', TOOLS, '--no-save', '--no-audit', '--no-fund', ...specs];
    const npm = spawnSync('npm', install, { cwd: ROOT, stdio: 'inherit', timeout: INSTALL_TIMEOUT_MS });
    if (npm.status !== 0) fail(`npm install failed (${npm.error?.message ?? `exit ${npm.status}`})`);
  }
  // node-<platform>-<arch> exists for linux and darwin; elsewhere run this script with Node >= 22 itself.
  if (nodeMajor(nodeBin) < 22) fail(`no Node >= 22 at ${nodeBin}; run this script with Node >= 22`);
  const cli = join(suiteDir, 'dist', 'index.js');
  if (!existsSync(cli)) fail(`the suite's CLI is missing at ${cli}`);
  return { nodeBin, cli, requirements: join(suiteDir, 'requirements') };
}

/** The major version of the Node binary at `path`, or 0 when there is none. */
function nodeMajor(path) {
  if (!existsSync(path)) return 0;
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return result.status === 0 ? Number(/^v(\d+)\./.exec(result.stdout)?.[1] ?? 0) : 0;
}

// ---- small YAML readers (the two shapes we need, no dependency) ----------------------------------------------

/** Requirement set: scored scenarios per leg, and the not_scored entries with their leg. */
function readRequirements(path) {
  const scored = { server: [], client: [] };
  const notScored = { server: [], client: [] };
  let section;
  let pending;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const top = /^([a-z_]+):\s*$/.exec(line);
    if (top) section = top[1];
    const item = /^ {2}- (?:scenario: )?([^\s#]+)/.exec(line);
    if (item && (section === 'server' || section === 'client')) scored[section].push(item[1]);
    if (item && section === 'not_scored') pending = item[1];
    const leg = /^ {4}leg: (server|client)/.exec(line);
    if (leg && pending) notScored[leg[1]].push(pending);
  }
  return { scored, notScored };
}

/** expected-failures.yml: entries per leg; every entry must say why in a `#` comment (same line or the line above). */
function readBaseline(path) {
  const entries = { server: [], client: [] };
  if (!existsSync(path)) return entries;
  let section;
  let commentAbove = false;
  for (const [index, line] of readFileSync(path, 'utf8').split('\n').entries()) {
    const top = /^([a-z_]+):/.exec(line);
    if (top) section = top[1];
    const item = /^\s+-\s+['"]?([^'"\s#]+)['"]?\s*(#.*)?$/.exec(line);
    if (item && section in entries) {
      if (!item[2] && !commentAbove)
        fail(`${BASELINE}:${index + 1}: "${item[1]}" needs a # comment saying why`);
      entries[section].push(item[1]);
    }
    commentAbove = /^\s*#/.test(line);
  }
  return entries;
}

// ---- the fixture server ----------------------------------------------------------------------------------------

function startFixture(logPath) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/fixture-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`fixture not ready after ${READY_TIMEOUT_MS} ms; see ${logPath}`)),
      READY_TIMEOUT_MS,
    );
    const onData = (chunk) => {
      log += chunk;
      const match = /toolwire: listening on (http:\/\/\S+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture exited (code ${code}) before listening; see ${logPath}`));
    });
  });
  const stop = async () => {
    writeFileSync(logPath, log);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { pid: child.pid, ready, stop };
}

// ---- running one leg of one set, and reading its results --------------------------------------------------------

function runSuite(tools, args, logPath) {
  return new Promise((resolve) => {
    const child = spawn(tools.nodeBin, [tools.cli, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\nconformance: killed after ${RUN_TIMEOUT_MS} ms\n`;
      child.kill('SIGKILL');
    }, RUN_TIMEOUT_MS);
    child.once('close', (code) => {
      clearTimeout(timer);
      writeFileSync(logPath, output);
      resolve(code ?? 1);
    });
  });
}

const STAMP = /-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;
/** A scenario that threw leaves its directory without checks.json; the suite counts it as failed. */
const CRASHED = [{ id: 'scenario-crashed', status: 'FAILURE', errorMessage: 'no checks.json; see the log' }];

/** scenario name → its checks, from DIR/[server-]<scenario>-<timestamp>/checks.json (auth/* nests one level). */
function readResults(dir, prefix) {
  const results = new Map();
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(current, entry.name);
      const checks = join(path, 'checks.json');
      if (!existsSync(checks) && !STAMP.test(entry.name)) {
        walk(path);
        continue;
      }
      const name = relative(dir, path).replaceAll('\\', '/').replace(STAMP, '');
      results.set(
        name.startsWith(prefix) ? name.slice(prefix.length) : name,
        existsSync(checks) ? readJson(checks) : CRASHED,
      );
    }
  };
  if (existsSync(dir)) walk(dir);
  return results;
}

const isFailure = (check) => check.status === 'FAILURE';
/** The suite's baseline rule counts a WARNING as failing too; we mirror it so our verdict matches its exit code. */
const isFlagged = (check) => check.status === 'FAILURE' || check.status === 'WARNING';
const ids = (checks) => [
  ...new Set(checks.map((c) => (c.status === 'WARNING' ? `${c.id} (warning)` : c.id))),
];

/** One scored scenario against the baseline: whole-scenario entries and `<scenario>:<check-id>` entries. */
function judge(scenario, checks, baseline) {
  const flagged = checks.filter(isFlagged);
  const whole = baseline.includes(scenario);
  const listed = baseline
    .filter((e) => e.startsWith(`${scenario}:`))
    .map((e) => e.slice(scenario.length + 1));
  const problems = [];
  if (whole && flagged.length === 0) problems.push(`${scenario}: listed in ${BASELINE} but passes (stale)`);
  for (const id of listed) {
    const passes = checks.some((c) => c.id === id && c.status === 'SUCCESS');
    if (passes && !flagged.some((c) => c.id === id))
      problems.push(`${scenario}:${id}: listed but passes (stale)`);
  }
  const unexpected = whole ? [] : flagged.filter((c) => !listed.includes(c.id));
  if (unexpected.length > 0) problems.push(`${scenario}: ${ids(unexpected).join(', ')}`);
  return { flagged, expected: unexpected.length === 0, problems };
}

/** Runs one leg (server or client) of one requirement set; prints its lines and returns what breaks the build. */
async function runLeg(tools, leg, set, args, outDir, baselines) {
  const { scored, notScored } = readRequirements(join(tools.requirements, `${set}.yaml`));
  const baseline = baselines[leg];
  const dir = join(outDir, `${leg}-${set}`);
  const log = relative(ROOT, `${dir}.log`);
  const flags = ['--requirements', set, '-o', dir];
  if (existsSync(join(ROOT, BASELINE))) flags.push('--expected-failures', BASELINE);
  const code = await runSuite(tools, [...args, ...flags], `${dir}.log`);
  const results = readResults(dir, leg === 'server' ? 'server-' : '');
  const problems = [];
  const lines = [];
  let passed = 0;
  for (const scenario of scored[leg]) {
    const checks = results.get(scenario);
    if (checks === undefined) {
      problems.push(`${scenario}: no results (see ${log})`);
      continue;
    }
    if (!checks.some(isFailure)) passed++;
    const verdict = judge(scenario, checks, baseline);
    problems.push(...verdict.problems);
    if (verdict.flagged.length === 0) continue;
    const status = checks.some(isFailure) ? 'FAIL' : 'WARN';
    lines.push(
      `  ${status} ${scenario}${verdict.expected ? ' [expected]' : ''}: ${ids(verdict.flagged).join(', ')}`,
    );
  }
  console.log(`${leg.toUpperCase()} ${set} SCORED ${passed}/${scored[leg].length}`);
  for (const line of lines) console.log(line);
  // Not-scored scenarios (pending, extension, added after release) are held to the same bar: a FAILURE breaks the
  // build unless the baseline lists the scenario, and a listed one that passes is stale.
  for (const scenario of notScored[leg]) {
    const checks = results.get(scenario);
    const failed = checks === undefined || checks.some(isFailure);
    const listed = baseline.includes(scenario);
    console.log(
      `  not scored: ${scenario} ${!checks ? 'NOT RUN' : failed ? 'FAIL' : 'PASS'}${listed ? ' [expected]' : ''}`,
    );
    if (failed && !listed)
      problems.push(
        `${scenario} (not scored): ${checks ? ids(checks.filter(isFailure)).join(', ') : 'no results'}`,
      );
    if (!failed && listed) problems.push(`${scenario}: listed in ${BASELINE} but passes (stale)`);
  }
  if (code !== 0 && problems.length === 0) problems.push(`the suite exited ${code} (see ${log})`);
  return problems.map((problem) => `${leg} ${set}: ${problem}`);
}

// ---- main ------------------------------------------------------------------------------------------------------

async function main() {
  const tools = ensureTools();
  const baselines = readBaseline(join(ROOT, BASELINE)); // checked before anything starts
  const outDir = join(ROOT, 'conformance-results', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(outDir, { recursive: true });
  const problems = [];
  const fixture = startFixture(join(outDir, 'fixture.log'));
  const stopOnSignal = () => fixture.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    const url = await fixture.ready;
    console.log(`conformance: fixture (pid ${fixture.pid}) at ${url}; results in ${relative(ROOT, outDir)}/`);
    for (const set of SETS)
      problems.push(...(await runLeg(tools, 'server', set, ['server', '--url', url], outDir, baselines)));
  } finally {
    await fixture.stop();
  }
  if (existsSync(join(ROOT, CLIENT))) {
    const command = `${process.execPath} --import tsx ${CLIENT}`;
    for (const set of SETS)
      problems.push(
        ...(await runLeg(tools, 'client', set, ['client', '--command', command], outDir, baselines)),
      );
  }
  if (problems.length > 0) {
    console.log(`\nconformance: ${problems.length} problem(s) not covered by ${BASELINE}:`);
    for (const problem of problems) console.log(`  ${problem}`);
    process.exitCode = 1;
  } else console.log(`\nconformance: every failure is listed in ${BASELINE}, and no entry there is stale`);
}

main().catch((error) => {
  console.error(`conformance: ${error.message}`);
  process.exitCode = 1;
});
