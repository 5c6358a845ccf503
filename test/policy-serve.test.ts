// `toolwire serve --config` with a "policy" section, end to end over real HTTP on loopback: a JWKS served by the test
// stands for the authorization server. Allowed, hidden, step-up and rate-limited calls on both eras; the inbound
// token never travels on (B1), toolwire serves no authorization endpoints of its own (B8), and a policy that names a
// bad key fails at startup with that key's name.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { REPO, cliArgv, runCli } from './fixtures/serve/harness.js';
import { bearer, callTool, legacySession, modernRequest } from './support/http-mcp.js';

const ISSUER_PATH = '/issuer';

let directory: string;
let keyServer: Server;
let upstream: Server;
let issuer: string;
let upstreamOrigin: string;
const upstreamHeaders: IncomingHttpHeaders[] = [];
let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let child: ChildProcess | undefined;
let url: string;

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

async function token(scope: string, subject = 'ada'): Promise<string> {
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(url)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey);
}

before(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolwire-policy-serve-'));
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  keyServer = createServer((request, response) => {
    if (request.url === '/jwks.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    response.writeHead(404).end();
  });
  issuer = `${await listen(keyServer)}${ISSUER_PATH}`;
  upstream = createServer((request, response) => {
    upstreamHeaders.push(request.headers);
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('upstream says hi');
  });
  upstreamOrigin = await listen(upstream);
  // The resource must be the URL clients use: serve once on a chosen free port.
  const probe = createServer();
  const port = Number(new URL(await listen(probe)).port);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  url = `http://127.0.0.1:${port}/mcp`;
  const config = {
    tools: ['calc', 'files', 'http'],
    packs: { http: { enabled: true, allowHosts: ['127.0.0.1'] } },
    policy: {
      oauth: {
        resource: url,
        authorizationServers: [issuer],
        jwksUri: `${issuer.replace(ISSUER_PATH, '')}/jwks.json`,
        allowInsecureUrls: true,
      },
      scopes: {
        rules: [
          { annotations: ['read-only'], see: ['tools:read'] },
          { tools: ['http_request'], see: ['tools:read'], call: ['tools:read', 'net:fetch'] },
        ],
      },
      rateLimits: { tools: { calculate: { points: 3, durationSeconds: 3600 } } },
      audit: { sqlite: './audit.db' },
    },
  };
  const file = join(directory, 'toolwire.json');
  writeFileSync(file, JSON.stringify(config));
  child = spawn(process.execPath, [...cliArgv(), 'serve', '--http', `127.0.0.1:${port}`, '--config', file], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child!.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('toolwire: policy:')) resolve();
    });
    child!.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
});

after(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  keyServer.close();
  upstream.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('toolwire serve with a policy: who may call what, and how often', () => {
  it('B4 without a token: 401 pointing at the metadata, which names the resource and its authorization server', async () => {
    const answer = await callTool(url, 'calculate', { expression: '1+1' });
    assert.equal(answer.status, 401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    assert.equal(metadataUrl, `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await (await fetch(metadataUrl!)).json()) as Record<string, unknown>;
    assert.equal(metadata.resource, url);
    assert.deepEqual(metadata.authorization_servers, [issuer]);
  });

  it('a read-scoped token lists only what it may see, on both eras, and calls it', async () => {
    const reader = await token('tools:read');
    const listed = await modernRequest(url, 'tools/list', {}, bearer(reader));
    const names = (listed.body?.result?.tools as Array<{ name: string }>).map((tool) => tool.name).sort();
    assert.deepEqual(names, ['calculate', 'http_request', 'list_directory', 'read_file']);
    assert.equal(listed.body?.result?.cacheScope, 'private');
    const session = await legacySession(url, bearer(reader));
    const legacy = await session.request('tools/list', {});
    assert.deepEqual(
      (legacy.body?.result?.tools as Array<{ name: string }>).map((tool) => tool.name).sort(),
      names,
    );
    const called = await callTool(url, 'calculate', { expression: '6*7' }, bearer(reader));
    assert.equal((called.body?.result?.content as Array<{ text: string }>)[0]?.text, '6*7 = 42', called.text);
  });

  it('B9 a visible tool without its call scope gets 403 insufficient_scope with the precise missing scope', async () => {
    const answer = await callTool(
      url,
      'http_request',
      { url: `${upstreamOrigin}/x` },
      bearer(await token('tools:read')),
    );
    assert.equal(answer.status, 403, answer.text);
    assert.match(answer.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
    assert.match(answer.headers.get('www-authenticate') ?? '', /scope="net:fetch"/);
    assert.equal(answer.body?.error?.code, -31003);
  });

  it('B1 the inbound bearer token never travels on: the http tool sends no Authorization and no client header upstream', async () => {
    const fetcher = await token('tools:read net:fetch', 'grace');
    upstreamHeaders.length = 0;
    const answer = await callTool(
      url,
      'http_request',
      { url: `${upstreamOrigin}/x` },
      {
        ...bearer(fetcher),
        'x-upstream-authorization': 'Bearer smuggled',
      },
    );
    assert.equal(answer.status, 200, answer.text);
    assert.equal(upstreamHeaders.length, 1);
    const sent = JSON.stringify(upstreamHeaders[0]);
    assert.equal(upstreamHeaders[0]?.authorization, undefined);
    assert.ok(!sent.includes(fetcher) && !sent.includes('smuggled'), sent);
  });

  it('F2 a per-tool limit: the fourth call is 429 with Retry-After, and a new session does not reset it', async () => {
    const caller = await token('tools:read', 'linus');
    for (let i = 0; i < 3; i++) {
      const ok = await callTool(url, 'calculate', { expression: '1+1' }, bearer(caller));
      assert.equal(ok.status, 200, ok.text);
    }
    const limited = await callTool(url, 'calculate', { expression: '1+1' }, bearer(caller));
    assert.equal(limited.status, 429, limited.text);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.body?.error?.code, -31429);
    const session = await legacySession(url, bearer(caller));
    const again = await session.request('tools/call', {
      name: 'calculate',
      arguments: { expression: '1+1' },
    });
    assert.equal(again.body?.error?.code, -31429, again.text);
    // Another subject has its own bucket.
    const other = await callTool(
      url,
      'calculate',
      { expression: '1+1' },
      bearer(await token('tools:read', 'ken')),
    );
    assert.equal(other.status, 200);
  });

  it('H1 the audit trail the config names holds one record per call outcome, and its chain verifies', async () => {
    const trail = await runCli([
      'audit',
      '--config',
      join(directory, 'toolwire.json'),
      '--json',
      '--limit',
      '1000',
    ]);
    assert.equal(trail.code, 0, trail.stderr);
    const records = trail.stdout
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { tool: string; subject: string; outcome: string; authMethod: string },
      );
    const outcomes = new Set(records.map((record) => `${record.subject} ${record.tool} ${record.outcome}`));
    assert.ok(outcomes.has('ada calculate result'), [...outcomes].join('; '));
    assert.ok(outcomes.has('ada http_request denied'), [...outcomes].join('; '));
    assert.ok(outcomes.has('linus calculate rate_limited'), [...outcomes].join('; '));
    assert.ok(
      records.every((record) => record.authMethod === 'bearer'),
      JSON.stringify(records.filter((record) => record.authMethod !== 'bearer')),
    );
    assert.ok(!trail.stdout.includes('eyJ'), 'no token in the trail');
    const verified = await runCli(['audit', 'verify', '--config', join(directory, 'toolwire.json')]);
    assert.equal(verified.code, 0, verified.stderr + verified.stdout);
  });

  it('B8 toolwire is a resource server only: no authorization, token or registration endpoints, no cookies', async () => {
    const origin = new URL(url).origin;
    for (const path of [
      '/authorize',
      '/token',
      '/register',
      '/.well-known/oauth-authorization-server',
      '/consent',
    ]) {
      const response = await fetch(`${origin}${path}`, { redirect: 'manual' });
      assert.ok(response.status === 404 || response.status === 405, `${path}: ${response.status}`);
      assert.equal(response.headers.get('set-cookie'), null);
    }
    const metadata = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(metadata.headers.get('set-cookie'), null);
  });
});

describe('toolwire serve: a policy with a mistake fails at startup, naming the key', () => {
  const startupError = (policy: unknown): string => {
    const file = join(directory, 'bad.json');
    writeFileSync(file, JSON.stringify({ policy }));
    const result = spawnSync(
      process.execPath,
      [...cliArgv(), 'serve', '--http', '127.0.0.1:0', '--config', file],
      { cwd: REPO, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(result.status, 2, result.stderr);
    return result.stderr.trim();
  };

  it('no scopes section', () => {
    assert.match(startupError({ anonymous: true }), /^toolwire: policy\.scopes is required/);
  });

  it('a rule that names nothing', () => {
    assert.equal(
      startupError({ anonymous: true, scopes: { rules: [{ see: ['a'] }] } }),
      'toolwire: policy.scopes.rules[0] names nothing: give tools, annotations, prompts or resources',
    );
  });

  it('an unknown key in a rule', () => {
    assert.match(
      startupError({ anonymous: true, scopes: { rules: [{ tools: ['*'], sea: ['a'] }] } }),
      /^toolwire: policy\.scopes\.rules\[0\] has an unknown key "sea"; allowed keys: tools, annotations, prompts, resources, see, call$/,
    );
  });
});
