// `toolwire serve` configuration, run as a real process: mistakes stop it at startup with exit 2 and a message that
// names the bad key; the user's own tool modules are served and callable; `timeouts` overrides a tool's time limit.

import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  makeWorkspace,
  parseJson,
  runCli,
  serveTarget,
  startHttpServe,
  withoutLateDiscoverWarning,
  writeConfig,
  type HttpServe,
  type Workspace,
} from './fixtures/serve/harness.js';
import type { PrintedResult } from './fixtures/serve/tool-calls.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/serve/', import.meta.url)).replace(/\/$/, '');
const PACK_NAMES = 'calc, files, search, csv, exec, http, github';

let ws: Workspace;

before(async () => {
  ws = await makeWorkspace();
  // Broken modules are written here rather than kept as fixtures, which the linters would have to parse.
  await writeFile(join(ws.base, 'broken-tools.mjs'), 'export default [\n  { name: "x",\n  }}\n];\n');
  await writeFile(
    join(ws.base, 'throwing-tools.mjs'),
    '// needs a key\nthrow new Error("no API key configured");\n',
  );
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
      'toolwire: config has an unknown key "tool"; allowed keys: tools, roots, refuseHardLinks, timeouts, packs, http, policy, mcpServers, gateway, $schema',
  },
  {
    name: 'an unknown pack name in packs',
    config: { packs: { shell: {} } },
    message: () => `toolwire: packs has an unknown key "shell"; allowed keys: ${PACK_NAMES}`,
  },
  {
    name: 'an unknown key inside a pack',
    config: { packs: { files: { maxReadByte: 4096 } } },
    message: () => 'toolwire: packs.files has an unknown key "maxReadByte"; allowed keys: maxReadBytes',
  },
  {
    name: 'an unknown pack in the config\'s "tools"',
    config: { tools: ['calc,shell'] },
    message: () =>
      `toolwire: tools[0] must name packs (${PACK_NAMES}) or modules like "./my-tools.js", separated by commas; got "calc,shell"`,
  },
  {
    name: 'a time limit of 0 ms',
    config: { timeouts: { nap: 0 } },
    message: () =>
      'toolwire: timeouts.nap must be a whole number of milliseconds from 1 to 2147483647; got 0',
  },
  {
    name: 'issue 14: requestTimeoutMs in "http" is refused with what replaced it',
    config: { http: { requestTimeoutMs: 30000 } },
    message: () =>
      "toolwire: http key \"requestTimeoutMs\" is no longer a setting: a request's time limit is now what it runs: the tool's timeoutMs, else the server's defaultTimeoutMs (60 s); remove it",
  },
  {
    name: 'an unknown key in "http"',
    config: { http: { allowedHost: ['mcp.example.com'] } },
    message: () =>
      'toolwire: http has an unknown key "allowedHost"; allowed keys: allowedHosts, allowedOrigins, dnsRebindingProtection, cors, maxBodyBytes, maxBufferedBodyBytes, maxBufferedBodyBytesPerAddress, maxJsonDepth, bodyTimeoutMs, bodyIdleTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs, maxConnections, hardMaxConnections, retryAfterSeconds, path, legacy',
  },
  {
    name: 'a legacy session limit of 0 in "http"',
    config: { http: { legacy: { maxSessions: 0 } } },
    message: () =>
      'toolwire: http.legacy.maxSessions must be a whole number of sessions from 1 to 1000000; got 0',
  },
  {
    name: 'an origin with a path in "http"',
    config: {
      http: {
        allowedOrigins: ['https://app.example.com/'],
        cors: { origins: ['https://app.example.com/page'] },
      },
    },
    message: () =>
      'toolwire: http.cors.origins[0] must be an origin (scheme, host and optional port) like "https://app.example.com", or "*"; got "https://app.example.com/page"',
  },
  {
    name: 'a body limit that is not a number of bytes (--max-body-bytes)',
    args: ['--http', '127.0.0.1:0', '--max-body-bytes', '4MB'],
    message: () =>
      'toolwire: --max-body-bytes must be a whole number of bytes from 1 to 1073741824; got "4MB"',
  },
  {
    name: 'a Host name with a space (--allowed-hosts)',
    args: ['--http', '127.0.0.1:0', '--allowed-hosts', 'mcp.example.com,bad host'],
    message: () =>
      'toolwire: --allowed-hosts[1] must be a host name or address, with an optional port, as clients send it in the Host header (like "mcp.example.com", "mcp.example.com:8443" or "[::1]:3333"); got "bad host"',
  },
  {
    name: 'a hard connection cap below the soft one in "http"',
    config: { http: { maxConnections: 10, hardMaxConnections: 5 } },
    message: () => 'toolwire: http.hardMaxConnections (5) must be at least http.maxConnections (10)',
  },
  {
    name: 'a body buffer smaller than the body limit, the buffer from a flag and the limit from the file',
    config: { http: { maxBodyBytes: 8_388_608 } },
    args: ['--http', '127.0.0.1:0', '--max-buffered-body-bytes', '5000000'],
    message: () =>
      'toolwire: --max-buffered-body-bytes (5000000) must be at least http.maxBodyBytes (8388608)',
  },
  {
    name: 'a body buffer smaller than the default body limit (--max-buffered-body-bytes)',
    args: ['--http', '127.0.0.1:0', '--max-buffered-body-bytes', '1000'],
    message: () =>
      'toolwire: --max-buffered-body-bytes (1000) must be at least --max-body-bytes (4194304, its default)',
  },
  {
    name: 'an HTTP flag without --http',
    args: ['--allowed-hosts', 'mcp.example.com'],
    message: () => 'toolwire: --allowed-hosts applies to --http only',
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
    name: 'a tool module with a syntax error, saying where (regression: the line was lost)',
    args: ['--tools', './broken-tools.mjs'],
    message: () =>
      `toolwire: cannot load tool module ./broken-tools.mjs: Unexpected token '}' (at ${join(ws.base, 'broken-tools.mjs')}:3)`,
  },
  {
    name: 'a tool module that throws while it loads, saying where',
    args: ['--tools', './throwing-tools.mjs'],
    message: () =>
      `toolwire: cannot load tool module ./throwing-tools.mjs: no API key configured (at ${join(ws.base, 'throwing-tools.mjs')}:2:7)`,
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

  it("a module's console.log goes to stderr, not into the protocol on stdout (regression: it corrupted the stream)", async () => {
    const noisy = serveTarget(['--tools', './noisy-tools.mjs'], FIXTURES);
    const run = await runCli(['call', noisy, 'echo_noisily', 'text=hi', '--json', '--yes'], {
      cwd: FIXTURES,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((parseJson(run) as PrintedResult).content, [{ type: 'text', text: 'hi' }]);
  });

  it('--tools ./my-tools.mjs serves its tool, callable with key=value arguments', async () => {
    const run = await runCli(['call', target, 'shout', 'word=hello', '--json', '--yes'], { cwd: FIXTURES });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((parseJson(run) as PrintedResult).structuredContent, { shouted: 'HELLO!' });
  });

  it("its raw JSON Schema is enforced: an unknown argument exits 1 with the tool's message", async () => {
    // JSON arguments go to the server as they are (key=value pairs are checked against the schema before sending).
    const run = await runCli(['call', target, 'shout', '{"word": "hi", "loud": "yes"}', '--yes'], {
      cwd: FIXTURES,
    });
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

interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A modern server/discover POST with the headers given (node:http, so Host can be any name), padded to `bytes`. */
function discover(
  url: string,
  headers: Record<string, string>,
  bytes = 0,
  agent?: Agent,
): Promise<HttpAnswer> {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        padding: '',
      },
    },
  };
  const unpadded = JSON.stringify(message).length;
  message.params._meta.padding = 'x'.repeat(Math.max(0, bytes - unpadded));
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ...(agent !== undefined && { agent }),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'server/discover',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe(
  'toolwire serve --http takes the HTTP safety settings from flags and the config',
  { concurrency: 2 },
  () => {
    const servers: HttpServe[] = [];
    after(() => {
      for (const server of servers) server.kill();
    });

    it('A1 regression: --allowed-hosts sets the Host names answered (serve --http 0.0.0.0 said "set allowedHosts" and nothing could)', async () => {
      const server = await startHttpServe(['--allowed-hosts', 'mcp.example.test'], process.env);
      servers.push(server);
      const port = new URL(server.url).port;
      const named = await discover(server.url, { host: `mcp.example.test:${port}` });
      assert.equal(named.status, 200, named.body);
      // The list replaces the loopback defaults: the address itself is now a name the server does not answer.
      const loopback = await discover(server.url, { host: `127.0.0.1:${port}` });
      assert.equal(loopback.status, 421);
      assert.equal(
        (JSON.parse(loopback.body) as { error: { message: string } }).error.message,
        `Misdirected Request: Host "127.0.0.1:${port}" is not allowed here (see allowedHosts)`,
      );
    });

    it('the config\'s "http" section sets origins, CORS and limits, and a flag overrides the file', async () => {
      const origin = 'https://app.example.test';
      const config = await writeConfig(
        ws.base,
        { http: { allowedOrigins: [origin], cors: { origins: [origin] }, maxBodyBytes: 100_000 } },
        'http-section.json',
      );
      const server = await startHttpServe(['--config', config, '--max-body-bytes', '600'], process.env);
      servers.push(server);
      const allowed = await discover(server.url, { origin });
      assert.equal(allowed.status, 200, allowed.body);
      assert.equal(allowed.headers['access-control-allow-origin'], origin);
      const other = await discover(server.url, { origin: 'https://other.example.test' });
      assert.equal(other.status, 403, other.body);
      assert.equal(other.headers['access-control-allow-origin'], undefined);
      // 600 bytes from the flag, not 100,000 from the file.
      assert.equal((await discover(server.url, {}, 590)).status, 200);
      const big = await discover(server.url, {}, 700);
      assert.equal(big.status, 413);
      assert.equal(
        (JSON.parse(big.body) as { error: { message: string } }).error.message,
        'Payload Too Large: the body exceeds 600 bytes',
      );
    });

    it('the connection-level limits reach the node:http server: --max-connections 1 answers a second connection 503 with --retry-after-seconds', async () => {
      const server = await startHttpServe(
        ['--max-connections', '1', '--retry-after-seconds', '7', '--keep-alive-timeout-ms', '60000'],
        process.env,
      );
      servers.push(server);
      const first = new Agent({ keepAlive: true, maxSockets: 1 });
      const second = new Agent({ keepAlive: false });
      try {
        assert.equal((await discover(server.url, {}, 0, first)).status, 200);
        // The first connection stays open (keep-alive), so this one is over the cap.
        const refused = await discover(server.url, {}, 0, second);
        assert.equal(refused.status, 503, refused.body);
        assert.equal(refused.headers['retry-after'], '7');
      } finally {
        first.destroy();
        second.destroy();
      }
    });
  },
);
