#!/usr/bin/env node
// toolwire benchmark: toolwire, the official SDK v2 and a bare node:http ceiling, measured in one run, interleaved
// round by round (A B C A B C …) so that the machine's drift cancels out. Load comes from wrk (a separate process)
// for HTTP and from this process for stdio; every answer is checked. Prints medians and ratios; raw JSON goes to
// bench/results/.
//
//   npm run bench                      full run (5 rounds of 4 s per measurement; about 10 minutes, 16 with the gateway rows)
//   npm run bench -- --quick           3 rounds of 1 s (under 3 minutes), for development
//   npm run bench -- --only call-c16,list-1k --servers toolwire,bare --rounds 3 --seconds 2
//   npm run bench -- --only startup,cli --rounds 3     startup rows and whole CLI command lines only
//   npm run bench -- --cpu-prof [--only call-c16] [--servers sdk]    profile one server under one workload
//   npm run bench -- --only gateway --servers toolwire                 the gateway rows and their direct baselines

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.mjs';
import {
  cpuSeconds,
  rssMiB,
  rssPeak,
  serverCommand,
  startHttpServer,
  startStdioServer,
  stop,
} from './lib/processes.mjs';
import { measureStartup, measureStdio, StdioPeer } from './lib/stdio.mjs';
import { summarizeProfile } from './lib/profile.mjs';
import { ensureWrk, runWrk } from './lib/wrk.mjs';
import {
  SERVERS,
  SERVER_TITLES,
  WORKLOADS,
  checkHttpCall,
  closeLegacySession,
  httpRequest,
  isRightSum,
  openLegacySession,
  stdioCallLine,
} from './lib/workloads.mjs';
import { printReport } from './lib/report.mjs';
import { CLI_LINES, timeCommand } from './lib/cli.mjs';
import { benchPolicy } from './lib/policy.mjs';
import { GATEWAY_VARIANTS, startGatewayVariant } from './lib/gateway.mjs';
import { GATEWAY_IDS, RIVAL_IDS } from './lib/gateway-workloads.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(ROOT, 'bench', 'results');
const STARTUP_TOOLS = [10, 1000];

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      only: { type: 'string' },
      servers: { type: 'string' },
      'cpu-prof': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      [
        'usage: npm run bench -- [--quick] [--rounds N] [--seconds S] [--only ids] [--servers names] [--cpu-prof]',
        `  workloads: ${WORKLOADS.map((w) => w.id).join(', ')}, startup, cli (gateway: call-c16 and every gateway row)`,
        `  servers:   ${SERVERS.join(', ')}`,
        '',
      ].join('\n'),
    );
    process.exit(0);
  }
  const integer = (text, fallback, name, min, max) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`--${name} must be an integer ${min}..${max}`);
    return value;
  };
  const list = (text, known, name) => {
    if (text === undefined) return known;
    // "gateway": the gateway rows and the direct call they are judged against
    const picked = text
      .split(',')
      .map((item) => item.trim())
      .flatMap((item) => (name === 'only' && item === 'gateway' ? ['call-c16', ...GATEWAY_IDS] : [item]));
    const unknown = picked.filter((item) => !known.includes(item));
    if (unknown.length > 0)
      throw new Error(`--${name}: unknown ${unknown.join(', ')} (known: ${known.join(', ')})`);
    return known.filter((item) => picked.includes(item));
  };
  const quick = values.quick;
  return {
    quick,
    rounds: integer(values.rounds, quick ? 3 : 5, 'rounds', 1, 50),
    seconds: integer(values.seconds, quick ? 1 : 4, 'seconds', 1, 120),
    warmSeconds: quick ? 1 : 2,
    startupSpawns: quick ? 1 : 3,
    cliRuns: quick ? 2 : 4,
    only: list(values.only, [...WORKLOADS.map((w) => w.id), 'startup', 'cli'], 'only'),
    onlyGiven: values.only !== undefined,
    secondsGiven: values.seconds !== undefined,
    servers: list(values.servers, SERVERS, 'servers'),
    cpuProf: values['cpu-prof'],
  };
}

function machine(wrk) {
  const cpus = os.cpus();
  let wrkVersion;
  try {
    wrkVersion = execFileSync(wrk, ['-v'], { encoding: 'utf8' }).split('\n')[0].trim();
  } catch (error) {
    // wrk -v exits 1 after printing its version
    wrkVersion =
      String(error.stdout ?? '')
        .split('\n')[0]
        .trim() || 'wrk';
  }
  return {
    node: process.version,
    platform: `${os.platform()} ${os.arch()} ${os.release()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadGenerator: wrkVersion.replace(/\s+\[.*$/, ''),
  };
}

/** The servers a workload runs on: its own list (policy rows are toolwire's alone), among those picked. */
const serversOf = (workload, opts) => opts.servers.filter((name) => workload.servers?.includes(name) ?? true);
/** Which started HTTP server a workload uses. */
const httpKey = (name, workload) =>
  `${name}/${workload.tools}${workload.variant === undefined ? '' : `/${workload.variant}`}`;

/**
 * The environment that turns a variant on in bench/servers/toolwire.mjs, and the authorization header its requests
 * carry: "policy" (a key set made for this run and its token), "audit" (a SQLite trail in `scratch`), and
 * "audit-sanitise" (that trail and clean outputs).
 */
async function variantSetup(workload, scratch) {
  // The gateway rows start their own processes (bench/lib/gateway.mjs).
  if (GATEWAY_VARIANTS.includes(workload.variant)) {
    const dir = join(scratch, `${workload.variant}-${Date.now()}`);
    return {
      env: {},
      authorization: undefined,
      start: (track) => startGatewayVariant(workload, dir, track),
    };
  }
  if (workload.variant === 'policy') {
    const policy = await benchPolicy();
    return { env: policy.env, authorization: policy.authorization };
  }
  if (workload.variant === 'audit' || workload.variant === 'audit-sanitise') {
    const audit = join(scratch, `audit-${Date.now()}-${Math.random()}.db`);
    const sanitise = workload.variant === 'audit-sanitise' ? { BENCH_SANITISE: '1' } : {};
    return { env: { BENCH_AUDIT: audit, ...sanitise }, authorization: undefined };
  }
  return { env: {}, authorization: undefined };
}

/** One HTTP measurement against one server: opens a session first when the workload needs one. */
async function measureHttp(wrk, server, workload, seconds) {
  if (server.measure !== undefined) return server.measure(workload, seconds); // a load wrk cannot make (mcp-hub's /mcp)
  const session = workload.legacy ? await openLegacySession(server.url) : {};
  const sampler = workload.rssUnderLoad ? rssPeak(server.pid) : undefined;
  try {
    const result = await runWrk({
      wrk,
      url: server.url,
      connections: workload.connections,
      seconds,
      ...(server.request?.(session) ?? httpRequest(workload, session, server.authorization)),
    });
    if (sampler !== undefined) result.rssPeakMiB = sampler();
    return result;
  } finally {
    sampler?.();
    if (workload.legacy) await closeLegacySession(server.url, session);
  }
}

function measureStdioWorkload(peer, workload, seconds, request = stdioCallLine) {
  return measureStdio(peer, {
    inFlight: workload.inFlight,
    seconds,
    request,
    check: isRightSum,
  });
}

async function startupOnce(name, tools, extra = []) {
  const [command, args] = serverCommand(name, 'stdio', tools);
  return measureStartup(command, [...args, ...extra], stdioCallLine, isRightSum);
}

async function benchmark(opts, wrk) {
  const workloads = WORKLOADS.filter((w) => opts.only.includes(w.id));
  const http = new Map(); // `${server}/${tools}` → server
  const stdio = new Map(); // server → { server, peer }
  const idle = {}; // `${server}/${tools}` → MiB after start and one call
  const started = [];
  const scratch = mkdtempSync(join(tmpdir(), 'toolwire-bench-'));
  // The CLI remembers servers (tool pins) in its config directory: this run's own, never the user's.
  const cliEnv = { ...process.env, XDG_CONFIG_HOME: join(scratch, 'config') };
  const log = (text) => process.stderr.write(`${text}\n`);
  try {
    for (const workload of workloads.filter((w) => w.kind === 'http')) {
      for (const name of serversOf(workload, opts)) {
        const key = httpKey(name, workload);
        if (http.has(key)) continue;
        const setup = await variantSetup(workload, scratch);
        const server =
          setup.start === undefined
            ? await startHttpServer(name, workload.tools, [], setup.env)
            : await setup.start((child) => started.push(child));
        server.authorization = setup.authorization;
        if (!started.includes(server.child)) started.push(server.child);
        await (server.check?.() ?? checkHttpCall(server.url, server.authorization));
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (workload.variant === undefined) idle[`${name}/${workload.tools}`] = rssMiB(server.pid);
        http.set(key, server);
      }
    }
    if (workloads.some((w) => w.kind === 'stdio' && w.variant === undefined)) {
      for (const name of opts.servers) {
        const server = startStdioServer(name, 10);
        started.push(server.child);
        stdio.set(name, { server, peer: new StdioPeer(server.child) });
      }
    }
    // The gateway served over stdio: its own process and request line (bench/lib/gateway.mjs).
    for (const workload of workloads.filter((w) => w.kind === 'stdio' && w.variant !== undefined)) {
      const setup = await variantSetup(workload, scratch);
      const server = await setup.start((child) => started.push(child));
      await server.check();
      stdio.set(`toolwire/${workload.variant}`, { server, peer: server.peer, request: server.line });
    }
    const stdioOf = (name, workload) =>
      stdio.get(workload.variant === undefined ? name : `${name}/${workload.variant}`);

    const run = async (name, workload, seconds) => {
      const server =
        workload.kind === 'http' ? http.get(httpKey(name, workload)) : stdioOf(name, workload).server;
      const before = cpuSeconds(server.pid);
      const result =
        workload.kind === 'http'
          ? await measureHttp(wrk, server, workload, seconds)
          : await measureStdioWorkload(
              stdioOf(name, workload).peer,
              workload,
              seconds,
              stdioOf(name, workload).request,
            );
      const after = cpuSeconds(server.pid);
      const answered = result.requests - result.errors;
      if (before !== undefined && after !== undefined && answered > 0) {
        result.cpuUsPerRequest = ((after - before) * 1e6) / answered;
      }
      return result;
    };

    log(`bench: warming up (${opts.warmSeconds} s per workload and server)`);
    for (const workload of workloads)
      for (const name of serversOf(workload, opts)) await run(name, workload, opts.warmSeconds);
    if (opts.only.includes('cli'))
      for (const line of CLI_LINES) await timeCommand(line, { cwd: scratch, env: cliEnv });

    const runs = []; // { round, workload, server, ...result }
    const startups = []; // { round, tools, server, ms }
    const commands = []; // { round, id, ms }: whole CLI command lines
    for (let round = 1; round <= opts.rounds; round++) {
      log(`bench: round ${round} of ${opts.rounds}`);
      for (const workload of workloads) {
        for (const name of serversOf(workload, opts)) {
          const result = await run(name, workload, opts.seconds);
          runs.push({ round, workload: workload.id, server: name, ...result });
          if (result.errors > 0)
            log(`bench:   ${name} ${workload.id}: ${result.errors} errors, e.g. ${result.sample}`);
        }
      }
      if (opts.only.includes('startup')) {
        for (const tools of STARTUP_TOOLS) {
          for (const name of opts.servers) {
            const times = [];
            for (let i = 0; i < opts.startupSpawns; i++) times.push(await startupOnce(name, tools));
            startups.push({ round, tools, server: name, ms: median(times), spawns: times });
            if (name !== 'toolwire') continue;
            // The same server with its tools' JSON Schemas as written (no Zod import): shown, not judged.
            const plain = [];
            for (let i = 0; i < opts.startupSpawns; i++)
              plain.push(await startupOnce(name, tools, ['--schemas', 'json']));
            startups.push({ round, tools, server: 'toolwire-json', ms: median(plain), spawns: plain });
          }
        }
      }
      if (opts.only.includes('cli')) {
        // Interleaved line by line (A B C A B C …), like the servers, so that drift hits every line alike.
        for (let i = 0; i < opts.cliRuns; i++) {
          for (const line of CLI_LINES) {
            const ms = await timeCommand(line, { cwd: scratch, env: cliEnv });
            commands.push({ round, id: line.id, ms });
          }
        }
      }
    }
    return { workloads, runs, startups, commands, idle };
  } finally {
    for (const child of started) await stop(child);
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function profile(opts, wrk) {
  const name = opts.servers[0];
  // Without --only, the workload the targets care most about.
  const picked = opts.onlyGiven ? opts.only : ['call-c16'];
  const workload = WORKLOADS.find((w) => picked.includes(w.id));
  if (workload === undefined)
    throw new Error('--cpu-prof profiles an HTTP or stdio workload: name one in --only');
  const seconds = opts.secondsGiven ? opts.seconds : 10;
  const dir = join(RESULTS, 'profiles');
  mkdirSync(dir, { recursive: true });
  const before = new Set(readdirSync(dir));
  const flags = ['--cpu-prof', '--cpu-prof-dir', dir];
  process.stderr.write(`bench: profiling ${name} under ${workload.id} for ${seconds} s\n`);
  if (GATEWAY_VARIANTS.includes(workload.variant))
    throw new Error(`--cpu-prof profiles the bench servers, not the processes of ${workload.id}`);
  if (workload.kind === 'http') {
    const scratch = mkdtempSync(join(tmpdir(), 'toolwire-bench-'));
    const setup = await variantSetup(workload, scratch);
    const server = await startHttpServer(name, workload.tools, flags, setup.env);
    server.authorization = setup.authorization;
    try {
      await checkHttpCall(server.url, server.authorization);
      const result = await measureHttp(wrk, server, workload, seconds);
      process.stderr.write(`bench: ${Math.round(result.rps)} req/s, ${result.errors} errors\n`);
    } finally {
      await stop(server.child);
      rmSync(scratch, { recursive: true, force: true });
    }
  } else {
    const server = startStdioServer(name, workload.tools, flags);
    try {
      const result = await measureStdioWorkload(new StdioPeer(server.child), workload, seconds);
      process.stderr.write(`bench: ${Math.round(result.rps)} req/s, ${result.errors} errors\n`);
    } finally {
      await stop(server.child);
    }
  }
  const written = readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile') && !before.has(file))
    .map((file) => join(dir, file))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (written.length === 0) throw new Error(`no profile was written to ${dir}`);
  process.stdout.write(
    `${summarizeProfile(written[0])}\n\nOpen it in Chrome DevTools (Performance → Load profile) or VS Code.\n`,
  );
}

async function main() {
  const opts = options();
  if (!existsSync(join(ROOT, 'dist', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const wrk = ensureWrk();
  if (opts.cpuProf) return profile(opts, wrk);
  const started = Date.now();
  const info = machine(wrk);
  const measured = await benchmark(opts, wrk);
  const report = printReport({ ...measured, opts, info, titles: SERVER_TITLES });
  mkdirSync(RESULTS, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const raw = {
    at: new Date().toISOString(),
    machine: info,
    options: opts,
    elapsedSeconds: Math.round((Date.now() - started) / 1000),
    ...measured,
    workloads: measured.workloads.map((w) => w.id),
    summary: report.summary,
    targets: report.targets,
  };
  const json = `${JSON.stringify(raw, null, 2)}\n`;
  writeFileSync(join(RESULTS, `${stamp}.json`), json);
  writeFileSync(join(RESULTS, 'latest.json'), json);
  process.stdout.write(`\nraw results: bench/results/${stamp}.json (${raw.elapsedSeconds} s)\n`);
  const ourErrors = measured.runs
    .filter((r) => r.server === 'toolwire' && !RIVAL_IDS.includes(r.workload))
    .reduce((sum, r) => sum + r.errors, 0);
  if (ourErrors > 0) {
    process.stderr.write(`bench: toolwire gave ${ourErrors} wrong or missing answers under load\n`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
