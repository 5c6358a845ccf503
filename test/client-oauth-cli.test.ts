// `toolwire login` / `logout` and the stored tokens `list` and `call` use, run in process (main with its own io)
// against the test authorization server and a protected toolwire server on 127.0.0.1: the "browser" is this test
// following the printed authorization URL. The token file is 0600 in a 0700 directory and no token is ever printed.

import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { browserOpener } from '../src/cli/browser.js';
import { main } from '../src/cli/main.js';
import { tokenFile } from '../src/cli/oauth-tokens.js';
import { startTestAuthServer, type TestAuthServer } from './support/oauth-server.js';
import { startProtectedServer, type ProtectedServer } from './support/protected-server.js';

/** Collects what the CLI writes and calls `onLine` for each complete line. */
class Capture extends Writable {
  text = '';
  constructor(private readonly onLine: (line: string) => void = () => undefined) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    const before = this.text;
    this.text += chunk.toString();
    const lines = this.text.slice(before.lastIndexOf('\n') + 1).split('\n');
    for (const line of lines.slice(0, -1)) this.onLine(line);
    done();
  }
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('toolwire login / logout and stored tokens', () => {
  let as: TestAuthServer;
  let server: ProtectedServer;
  let home = '';
  let env: NodeJS.ProcessEnv = {};
  let url = '';

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'toolwire-oauth-'));
    env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), PATH: process.env.PATH, NODE_ENV: 'test' };
    as = await startTestAuthServer({
      resource: () => url,
      refreshTokens: true,
      revocation: true,
      tokenLifetimeS: 3600,
    });
    server = await startProtectedServer(as);
    url = server.url;
  });
  after(async () => {
    await server.close();
    await as.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function run(args: string[], onStderrLine?: (line: string) => void): Promise<Run> {
    const stdout = new Capture();
    const stderr = new Capture(onStderrLine);
    const code = await main(args, {
      stdout,
      stderr,
      stdin: process.stdin,
      env,
      cwd: home,
    } as Parameters<typeof main>[1]);
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  /** Plays the user's browser: follows the authorization URL the CLI printed, to the loopback redirect. */
  const browser = (line: string): void => {
    if (!line.startsWith('  http')) return;
    void fetch(line.trim(), { redirect: 'follow' }).then((response) => response.body?.cancel());
  };

  const stored = (): { tokens: { accessToken: string; refreshToken: string } } =>
    JSON.parse(readFileSync(tokenFile(url, env), 'utf8')) as {
      tokens: { accessToken: string; refreshToken: string };
    };

  it('login prints the URL, waits for the loopback redirect, and saves the tokens 0600 in a 0700 directory', async () => {
    const result = await run(['login', url, '--no-browser'], browser);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    const lines = result.stderr.split('\n');
    assert.equal(lines[0], `toolwire: open this URL in a browser to authorize toolwire for ${url}:`);
    assert.match(lines[1] ?? '', new RegExp(`^  ${as.issuer}/authorize\\?response_type=code&client_id=`));
    assert.match(
      lines[2] ?? '',
      /^toolwire: waiting for the browser to come back to http:\/\/127\.0\.0\.1:\d+\/callback \(Ctrl-C to give up\)$/,
    );
    assert.equal(
      lines[3],
      `toolwire: logged in to ${url} (authorization server ${as.issuer}; scopes: files:read; refreshed automatically)`,
    );
    assert.equal(lines[4], `toolwire: tokens saved in ${tokenFile(url, env)}`);
    const file = tokenFile(url, env);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);
    assert.equal(dirname(file), join(home, 'config', 'toolwire', 'tokens'));
    const { tokens } = stored();
    assert.ok(as.verify(tokens.accessToken));
    assert.ok(!result.stderr.includes(tokens.accessToken) && !result.stderr.includes(tokens.refreshToken));
    const authorization = as.seen.authorizations.at(-1);
    assert.equal(authorization?.get('resource'), url);
    assert.equal(authorization?.get('code_challenge_method'), 'S256');
  });

  it('list and call use the stored token; the token is never printed', async () => {
    const listed = await run(['list', url]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /\bread\b/);
    assert.match(listed.stdout, /\bwrite\b/);
    const called = await run(['call', url, 'read', '--yes']);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(called.stdout, 'read by user with files:read\n');
    const { tokens } = stored();
    for (const text of [listed.stdout, listed.stderr, called.stdout, called.stderr]) {
      assert.ok(!text.includes(tokens.accessToken) && !text.includes(tokens.refreshToken));
    }
  });

  it('--header Authorization overrides the stored token', async () => {
    const result = await run(['list', url, '--header', 'Authorization: Bearer not-a-token']);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /^toolwire: http:\/\/127\.0\.0\.1:\d+\/mcp: POST answered HTTP 401 /);
  });

  it('a token the server no longer takes is refreshed silently and the file updated', async () => {
    const before = stored().tokens;
    as.advance(3_700_000); // past the access token's hour at the AS; the CLI's clock does not know
    const result = await run(['call', url, 'read', '--yes']);
    assert.equal(result.code, 0, result.stderr);
    const after = stored().tokens;
    assert.notEqual(after.accessToken, before.accessToken);
    assert.notEqual(after.refreshToken, before.refreshToken, 'the AS rotated it');
    assert.equal(statSync(tokenFile(url, env)).mode & 0o777, 0o600);
  });

  it('logout revokes and deletes the tokens; list then says to log in', async () => {
    const { tokens } = stored();
    const result = await run(['logout', url]);
    assert.deepEqual(result, {
      code: 0,
      stdout: '',
      stderr: `toolwire: logged out of ${url} (tokens revoked and deleted)\n`,
    });
    assert.equal(existsSync(tokenFile(url, env)), false);
    assert.equal(as.verify(tokens.accessToken), undefined);
    const again = await run(['logout', url]);
    assert.equal(again.stderr, `toolwire: no stored tokens for ${url}\n`);
    const listed = await run(['list', url]);
    assert.equal(listed.code, 3);
    assert.equal(
      listed.stderr,
      `toolwire: ${url}: POST failed: ${url} requires OAuth authorization: run "toolwire login ${url}"\n`,
    );
  });

  it('login refuses a target that is not an HTTP server', async () => {
    const result = await run(['login', 'node server.js']);
    assert.deepEqual(result, {
      code: 2,
      stdout: '',
      stderr: 'toolwire: "node server.js" is not an HTTP server: only http(s) servers use OAuth login\n',
    });
  });
});

describe('toolwire login: the browser opener', () => {
  it('opens a browser only with a display and a known opener, never under CI or tests', () => {
    const bin = mkdtempSync(join(tmpdir(), 'toolwire-opener-'));
    try {
      mkdirSync(join(bin, 'b'));
      const opener = join(bin, 'b', 'xdg-open');
      writeFileSync(opener, '#!/bin/sh\n');
      chmodSync(opener, 0o755);
      const desktop = { PATH: join(bin, 'b'), DISPLAY: ':0' };
      assert.equal(browserOpener(desktop, 'linux'), opener);
      assert.equal(browserOpener({ ...desktop, WAYLAND_DISPLAY: 'w', DISPLAY: '' }, 'linux'), opener);
      assert.equal(browserOpener({ PATH: desktop.PATH }, 'linux'), undefined, 'no display');
      assert.equal(browserOpener({ ...desktop, CI: 'true' }, 'linux'), undefined);
      assert.equal(browserOpener({ ...desktop, NODE_ENV: 'test' }, 'linux'), undefined);
      assert.equal(browserOpener({ ...desktop, PATH: tmpdir() }, 'linux'), undefined, 'no opener installed');
      assert.equal(browserOpener(desktop, 'win32'), undefined);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
