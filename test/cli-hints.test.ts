// What a newcomer hit (issue 13), each with the exact text now shown: pasteable hints for stdio command lines, 401/403
// pointing at --header, https to a plain-HTTP port, unknown config names and entry keys, mistyped argument keys, and
// a result printed once when its text is structuredContent pretty-printed.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FIXTURES, fixtureTarget, runCli } from './fixtures/client/harness.js';

const TEST_MS = 120_000; // a hang guard: a test runs several CLI processes, each allowed CLI_LIMIT_MS on a loaded machine
const USAGE_HINT = 'run "toolwire --help" for usage\n';
const RAW = fixtureTarget('raw-server.mjs', 'ok');
const ENTRY_KEYS = 'an entry has command, args, env, cwd, url, headers, trusted';
const RAW_REFUSAL =
  'toolwire: refusing to call "work": the server says it is read-only, but that is the server\'s own claim and ' +
  'this server is not trusted (there is no terminal to ask you)\n' +
  "pass --trust to trust this server's annotations, or --yes to call it anyway\n";

describe('hints a newcomer can act on', () => {
  let dir = '';
  let config = '';
  let http: Server;
  let port = 0;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolwire-hints-'));
    config = join(dir, 'servers.json');
    const raw = [process.execPath, join(FIXTURES, 'raw-server.mjs'), 'ok'];
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          raw: { command: raw[0], args: raw.slice(1) },
          typo: { command: raw[0], args: raw.slice(1), trustd: true },
          misspelt: { comand: 'node', args: ['x.js'] },
          text: 'node server.js',
        },
      }),
    );
    // Answers every request with the status its path names: /401, /403.
    http = createServer((req, res) => {
      res.writeHead(Number(req.url?.slice(1, 4)), { 'content-type': 'text/plain' }).end('no entry');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port; // a TCP listener
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'regression: the hint after an unknown tool quotes a stdio command line so it pastes into a shell',
    { timeout: TEST_MS },
    async () => {
      assert.deepEqual(await runCli(['call', RAW, 'wrok', '--yes']), {
        code: 2,
        stdout: '',
        stderr:
          `toolwire: the server has no tool "wrok" (did you mean "work"?); to see its tools, run: toolwire list '${RAW}'\n` +
          USAGE_HINT,
      });
      assert.deepEqual(await runCli(['call', 'raw', 'nope', '--yes', '--config', config]), {
        code: 2,
        stdout: '',
        stderr: `toolwire: the server has no tool "nope"; to see its tools, run: toolwire list raw --config ${config}\n${USAGE_HINT}`,
      });
    },
  );

  it(
    'regression: HTTP 401 and 403 point at --header "Authorization: Bearer …", not at the URL',
    { timeout: TEST_MS },
    async () => {
      const hint = '--header "Authorization: Bearer <token>" (or "headers" in its mcpServers entry)';
      const url401 = `http://127.0.0.1:${port}/401`;
      assert.deepEqual(await runCli(['list', url401]), {
        code: 3,
        stdout: '',
        stderr:
          `toolwire: ${url401}: POST answered HTTP 401 Unauthorized: no entry\n` +
          `the server wants credentials: pass them with ${hint}\n`,
      });
      const url403 = `http://127.0.0.1:${port}/403`;
      assert.deepEqual(await runCli(['list', url403]), {
        code: 3,
        stdout: '',
        stderr:
          `toolwire: ${url403}: POST answered HTTP 403 Forbidden: no entry\n` +
          `the server refused the credentials sent, or they do not allow this: check ${hint}\n`,
      });
    },
  );

  it(
    'regression: an https URL to a plain-HTTP port says so instead of printing OpenSSL text',
    { timeout: TEST_MS },
    async () => {
      const url = `https://127.0.0.1:${port}/mcp`;
      assert.deepEqual(await runCli(['list', url]), {
        code: 3,
        stdout: '',
        stderr: `toolwire: ${url}: the server did not answer with TLS; if it serves plain HTTP, use http://127.0.0.1:${port}/mcp\n`,
      });
    },
  );

  it(
    'regression: an unknown server name lists the names the config has, with a did-you-mean',
    { timeout: TEST_MS },
    async () => {
      assert.deepEqual(await runCli(['list', 'rwa', '--config', config]), {
        code: 3,
        stdout: '',
        stderr:
          'toolwire: rwa: cannot start "rwa": not found\n' +
          `"rwa" is not a server in ${config} either (did you mean "raw"?); it has: raw, typo, misspelt, text\n`,
      });
      assert.deepEqual(await runCli(['list', 'files'], { cwd: dir }), {
        code: 3,
        stdout: '',
        stderr:
          'toolwire: files: cannot start "files": not found\n' +
          `"files" is not a server name either: there is no ${join(dir, 'toolwire.json')} (--config FILE reads another file)\n`,
      });
    },
  );

  it(
    'regression: an unknown key in a server entry is named, with the key it probably meant',
    { timeout: TEST_MS },
    async () => {
      // "trustd" is not "trusted": the warning says so, and the refusal that follows is no mystery.
      assert.deepEqual(await runCli(['call', 'typo', 'work', '--config', config]), {
        code: 2,
        stdout: '',
        stderr:
          `toolwire: warning: server "typo" in ${config}: unknown key "trustd" (did you mean "trusted"?) is ignored; ` +
          `${ENTRY_KEYS}\n${RAW_REFUSAL}`,
      });
      assert.deepEqual(await runCli(['list', 'misspelt', '--config', config]), {
        code: 2,
        stdout: '',
        stderr:
          'toolwire: server "misspelt" in the config needs "command" (stdio) or "url" (HTTP)\n' +
          `server "misspelt" in ${config}: unknown key "comand" (did you mean "command"?) is ignored; ${ENTRY_KEYS}\n` +
          USAGE_HINT,
      });
      assert.deepEqual(await runCli(['list', 'text', '--config', config]), {
        code: 2,
        stdout: '',
        stderr: `toolwire: server "text" in ${config} must be an object with "command" (stdio) or "url" (HTTP)\n${USAGE_HINT}`,
      });
    },
  );

  it(
    'regression: a mistyped argument key gets a did-you-mean; an undeclared one far from any is passed on',
    { timeout: TEST_MS },
    async () => {
      assert.deepEqual(await runCli(['call', RAW, 'work', 'jbo=x', '--yes']), {
        code: 2,
        stdout: '',
        stderr: `toolwire: tool "work" has no argument "jbo" (did you mean "job"?); its arguments: job\n${USAGE_HINT}`,
      });
      // The schema does not forbid other keys and "priority" is no near miss: the server decides.
      assert.deepEqual(await runCli(['call', RAW, 'work', 'priority=high', '--yes']), {
        code: 0,
        stdout: 'done\n{\n  "count": 1\n}\n',
        stderr: '',
      });
    },
  );

  it(
    'regression: a text block that is structuredContent pretty-printed is printed once',
    { timeout: TEST_MS },
    async () => {
      assert.deepEqual(
        await runCli(['call', fixtureTarget('cli-fixture-server.mjs', 'pretty'), 'work', '--yes']),
        {
          code: 0,
          stdout: '{\n  "sum": 5,\n  "parts": [\n    2,\n    3\n  ]\n}\n',
          stderr: '',
        },
      );
    },
  );
});
