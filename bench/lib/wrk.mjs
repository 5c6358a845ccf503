// HTTP load from a separate process: wrk (C, one thread), driven by a generated Lua script that sends one fixed
// request and checks every response body while under load. A response that lacks an expected fragment, carries a
// rejected one, or has a status other than 200 counts as an error: a fast wrong answer is not throughput.

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Finds wrk, installing the Debian package when we may (root, apt-get present). Throws a clear message otherwise. */
export function ensureWrk() {
  const found = () => {
    try {
      return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  let path = found();
  if (path !== '') return path;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = (() => {
    try {
      execFileSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  if (root && apt) {
    process.stderr.write('bench: installing wrk (apt-get install -y wrk) …\n');
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'wrk'], { stdio: 'ignore' });
    path = found();
    if (path !== '') return path;
  }
  throw new Error(
    'bench: the load generator wrk is not installed and could not be installed here. ' +
      'Install it (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk) and run again.',
  );
}

/** A Lua long string that cannot be closed early by the text it holds. */
function luaString(text) {
  let level = 1;
  while (text.includes(`]${'='.repeat(level)}]`)) level++;
  const eq = '='.repeat(level);
  return `[${eq}[${text}]${eq}]`;
}

function script({ body, headers, expect, reject, method = 'POST', pages = [], uniqueIds = false }) {
  const lines = [`wrk.method = ${luaString(method)}`];
  if (body !== undefined) lines.push(`wrk.body = ${luaString(body)}`);
  for (const [name, value] of Object.entries(headers))
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`); // "[[" would open a long string
  lines.push(`local expect = { ${expect.map(luaString).join(', ')} }`);
  lines.push(`local reject = { ${reject.map(luaString).join(', ')} }`);
  // A list served in pages: requests go round the pages' bodies, and an answer must be one of the pages (all of that
  // page's fragments). Answers are not tied to requests here, only to "some page".
  lines.push(`local pages = { ${pages.map((p) => `{ ${p.expect.map(luaString).join(', ')} }`).join(', ')} }`);
  if (pages.length > 0) {
    lines.push(`local bodies = { ${pages.map((p) => luaString(p.body)).join(', ')} }`);
    lines.push(`local turn = 0
function request()
  turn = turn % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[turn])
end`);
  }
  if (uniqueIds) {
    // Requests of one session must not share an id while in flight: each gets the next number in place of `"id":1`.
    const [head, tail, extra] = body.split('"id":1');
    if (tail === undefined || extra !== undefined) throw new Error('uniqueIds needs a body with one "id":1');
    lines.push(`local head, tail = ${luaString(`${head}"id":`)}, ${luaString(tail)}
local next_id = 0
function request()
  next_id = next_id + 1
  return wrk.format(nil, nil, nil, head .. next_id .. tail)
end`);
  }
  lines.push(`
bad = 0
first_bad = nil
local find = string.find

function response(status, headers, body)
  local ok = status == 200 and body ~= nil
  if ok then
    for i = 1, #expect do
      if not find(body, expect[i], 1, true) then ok = false; break end
    end
  end
  if ok then
    for i = 1, #reject do
      if find(body, reject[i], 1, true) then ok = false; break end
    end
  end
  if ok and #pages > 0 then
    local one = false
    for p = 1, #pages do
      local all = true
      for i = 1, #pages[p] do
        if not find(body, pages[p][i], 1, true) then all = false; break end
      end
      if all then one = true; break end
    end
    ok = one
  end
  if not ok then
    bad = bad + 1
    if first_bad == nil then first_bad = status .. " " .. string.sub(body or "", 1, 300) end
  end
end

local threads = {}
function setup(thread) table.insert(threads, thread) end

function done(summary, latency, requests)
  local total_bad, sample = 0, ""
  for _, t in ipairs(threads) do
    total_bad = total_bad + t:get("bad")
    local fb = t:get("first_bad")
    if fb ~= nil and sample == "" then sample = fb end
  end
  local e = summary.errors
  io.write(string.format('BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"bad":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d}\\n',
    summary.requests, summary.duration, summary.bytes, total_bad, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
  io.write("BENCH_SAMPLE " .. string.gsub(sample, "[\\r\\n]", " ") .. "\\n")
end
`);
  return lines.join('\n');
}

/**
 * Runs wrk against url for `seconds` with `connections` open, every one sending `body` with `headers` (`method`:
 * POST unless given; `pages`: [{ body, expect }] to go round instead of one body; `uniqueIds`: a new JSON-RPC id per
 * request, for sessions).
 * @returns {Promise<{requests:number, rps:number, errors:number, sample:string, p50Ms:number, p99Ms:number, maxMs:number}>}
 */
export async function runWrk({
  wrk,
  url,
  body,
  headers,
  connections,
  seconds,
  expect,
  reject = [],
  method,
  pages,
  uniqueIds,
}) {
  const dir = mkdtempSync(join(tmpdir(), 'toolwire-bench-'));
  const file = join(dir, 'load.lua');
  writeFileSync(file, script({ body, headers, expect, reject, method, pages, uniqueIds }));
  try {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', file, url];
    const stdout = await new Promise((resolve, reject_) => {
      execFile(
        wrk,
        args,
        { encoding: 'utf8', timeout: (seconds + 30) * 1000, maxBuffer: 1 << 20 },
        (error, out, err) =>
          error ? reject_(new Error(`wrk failed: ${error.message}\n${err}`)) : resolve(out),
      );
    });
    const json = /^BENCH_JSON (.*)$/m.exec(stdout);
    if (json === null) throw new Error(`wrk printed no result:\n${stdout}`);
    const raw = JSON.parse(json[1]);
    const sample = /^BENCH_SAMPLE (.*)$/m.exec(stdout)?.[1] ?? '';
    const errors = raw.bad + raw.connect + raw.read + raw.write + raw.timeout;
    return {
      requests: raw.requests,
      // correct answers only; a list in pages counts once per round of its pages
      rps: (raw.requests - raw.bad) / (raw.durationUs / 1e6) / Math.max(1, pages?.length ?? 1),
      errors,
      sample: sample.trim(),
      p50Ms: raw.p50Us / 1000,
      p99Ms: raw.p99Us / 1000,
      maxMs: raw.maxUs / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
