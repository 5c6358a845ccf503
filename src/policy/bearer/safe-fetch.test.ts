// Outbound fetches to the authorization server are bounded: in time, in size, in where they may go (no redirects,
// https off loopback), and every failure is "unavailable" (503), never the client's fault. Real HTTP on loopback.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TokenFailure } from './failure.js';
import { discoverJwksUri, metadataUrls } from './issuer-metadata.js';
import { fetchJson, urlProblem, type FetchLimits } from './safe-fetch.js';

const limits = (timeoutMs = 5_000, maxBytes = 1024): FetchLimits => ({
  timeoutMs,
  maxBytes,
  signal: new AbortController().signal,
});

const unavailable = (message: string) => (error: unknown) => {
  assert.ok(error instanceof TokenFailure);
  assert.equal(error.reason, 'unavailable');
  assert.equal(error.message, message);
  return true;
};

describe('policy bearer: bounded fetches and issuer discovery', () => {
  let server: Server;
  let base = '';
  before(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      if (path === '/hang') return; // never answers
      if (path === '/big') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(`"${'x'.repeat(600)}`);
        response.end(`${'x'.repeat(600)}"`); // chunked, no content-length: counted while read
        return;
      }
      if (path === '/declared-big') {
        response.writeHead(200, { 'content-length': '5000' });
        response.end('x'.repeat(5000));
        return;
      }
      if (path === '/redirect') {
        response.writeHead(302, { location: '/ok' });
        response.end();
        return;
      }
      if (path === '/text') {
        response.end('not json');
        return;
      }
      // Issuer with a path: RFC 8414 path-inserted metadata is absent, OpenID path-inserted is there.
      if (path === '/.well-known/openid-configuration/tenant') {
        response.end(JSON.stringify({ issuer: `${base}/tenant`, jwks_uri: `${base}/tenant/jwks` }));
        return;
      }
      if (path === '/.well-known/oauth-authorization-server/insecure') {
        response.end(
          JSON.stringify({ issuer: `${base}/insecure`, jwks_uri: 'http://keys.example.com/jwks' }),
        );
        return;
      }
      if (path === '/ok') return void response.end('{"ok":true}');
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`; // a TCP listener has an AddressInfo
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('reads JSON, and hands other statuses back without a body', async () => {
    assert.deepEqual(await fetchJson(new URL(`${base}/ok`), {}, limits(), 'the test endpoint'), {
      status: 200,
      json: { ok: true },
    });
    assert.deepEqual(await fetchJson(new URL(`${base}/missing`), {}, limits(), 'the test endpoint'), {
      status: 404,
      json: undefined,
    });
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    await assert.rejects(
      fetchJson(new URL(`${base}/hang`), {}, limits(100), 'the test endpoint'),
      unavailable('the test endpoint did not answer within 100 ms'),
    );
  });

  it('stops reading past the size limit, declared or not', async () => {
    for (const path of ['/big', '/declared-big']) {
      await assert.rejects(
        fetchJson(new URL(`${base}${path}`), {}, limits(), 'the test endpoint'),
        unavailable('the test endpoint answered with more than 1024 bytes'),
      );
    }
  });

  it('follows no redirect, and refuses a body that is not JSON', async () => {
    await assert.rejects(
      fetchJson(new URL(`${base}/redirect`), {}, limits(), 'the test endpoint'),
      unavailable('the test endpoint is unreachable'),
    );
    await assert.rejects(
      fetchJson(new URL(`${base}/text`), {}, limits(), 'the test endpoint'),
      unavailable('the test endpoint answered with something that is not JSON'),
    );
  });

  it('allows https anywhere, http on loopback only (unless opted in)', () => {
    assert.equal(urlProblem(new URL('https://a.example/x'), false), undefined);
    assert.equal(urlProblem(new URL('http://127.0.0.1:1/x'), false), undefined);
    assert.equal(urlProblem(new URL('http://[::1]:1/x'), false), undefined);
    assert.equal(urlProblem(new URL('http://localhost/x'), false), undefined);
    assert.equal(
      urlProblem(new URL('http://169.254.169.254/latest'), false),
      'must be https (http only on loopback, or with allowInsecureUrls: true)',
    );
    assert.equal(urlProblem(new URL('http://a.example/x'), true), undefined);
    assert.equal(urlProblem(new URL('file:///etc/passwd'), true), 'must be an https URL');
  });

  it('tries RFC 8414 then OpenID metadata, path-inserted for an issuer with a path', async () => {
    assert.deepEqual(metadataUrls('https://as.example.com/tenant/').map(String), [
      'https://as.example.com/.well-known/oauth-authorization-server/tenant',
      'https://as.example.com/.well-known/openid-configuration/tenant',
      'https://as.example.com/tenant/.well-known/openid-configuration',
    ]);
    assert.deepEqual(metadataUrls('https://as.example.com').map(String), [
      'https://as.example.com/.well-known/oauth-authorization-server',
      'https://as.example.com/.well-known/openid-configuration',
    ]);
    assert.equal(String(await discoverJwksUri(`${base}/tenant`, limits(), false)), `${base}/tenant/jwks`);
  });

  it('refuses a discovered jwks_uri that is not https, and an issuer with no metadata', async () => {
    await assert.rejects(
      discoverJwksUri(`${base}/insecure`, limits(), false),
      unavailable(
        `the jwks_uri of issuer ${base}/insecure must be https (http only on loopback, or with allowInsecureUrls: true)`,
      ),
    );
    await assert.rejects(
      discoverJwksUri(`${base}/nobody`, limits(), false),
      unavailable(`issuer ${base}/nobody publishes no authorization server or OpenID metadata`),
    );
  });
});
