// Where credentials may travel (B3): header forms accepted, query-string credentials refused in any case.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credentialInQuery, presentedCredential, quoteParameter } from './credentials.js';
import type { HttpRequestInfo } from '../transports/http/index.js';

const request = (headers: Record<string, string>, query = ''): HttpRequestInfo => {
  const params = new URLSearchParams(query);
  return {
    method: 'POST',
    path: '/mcp',
    header: (name) => headers[name.toLowerCase()],
    query: (name) => params.get(name) ?? undefined,
    queryNames: () => [...params.keys()],
  };
};

describe('policy credentials', () => {
  it('reads Authorization: Bearer in any case of the scheme, with extra spaces', () => {
    assert.deepEqual(presentedCredential(request({ authorization: 'Bearer abc.def-ghi' })), {
      kind: 'token',
      token: 'abc.def-ghi',
      header: 'authorization',
    });
    const lower = presentedCredential(request({ authorization: 'bearer   tok==' }));
    assert.equal(lower.kind === 'token' && lower.token, 'tok==');
  });

  it('has nothing to say about a request without credentials', () => {
    assert.deepEqual(presentedCredential(request({})), { kind: 'none' });
  });

  it('refuses other schemes, two tokens and control characters without quoting the header', () => {
    for (const value of ['Basic dXNlcjpwYXNz', 'Bearer a b', 'Bearer', 'Bearer a\tb', 'Token secret-value']) {
      const presented = presentedCredential(request({ authorization: value }));
      assert.equal(presented.kind, 'malformed', value);
      assert.ok(presented.kind === 'malformed' && !presented.problem.includes('secret-value'));
    }
  });

  it('reads X-API-Key only when asked, and refuses it beside an Authorization header', () => {
    assert.deepEqual(presentedCredential(request({ 'x-api-key': 'twk_a_b' })), { kind: 'none' });
    assert.deepEqual(presentedCredential(request({ 'x-api-key': 'twk_a_b' }), true), {
      kind: 'token',
      token: 'twk_a_b',
      header: 'x-api-key',
    });
    const both = presentedCredential(request({ 'x-api-key': 'k', authorization: 'Bearer t' }), true);
    assert.equal(both.kind, 'malformed');
  });

  it('B3: a token in the query string is refused in any case, even beside a good header, and never quoted', () => {
    for (const query of [
      'access_token=s3cret',
      'Access_Token=s3cret',
      'api_key=s3cret',
      'x=1&APIKEY=s3cret',
    ]) {
      assert.ok(credentialInQuery(request({}, query)) !== undefined, query);
      const presented = presentedCredential(request({ authorization: 'Bearer good' }, query), true);
      assert.equal(presented.kind, 'malformed', query);
      assert.ok(presented.kind === 'malformed' && !presented.problem.includes('s3cret'));
    }
    assert.equal(credentialInQuery(request({}, 'page=2&cursor=x')), undefined);
  });

  it('refuses an oversize credential before parsing it', () => {
    const presented = presentedCredential(request({ authorization: `Bearer ${'a'.repeat(20_000)}` }));
    assert.equal(presented.kind, 'malformed');
  });

  it('quotes WWW-Authenticate parameters safely', () => {
    assert.equal(quoteParameter('a"b\\c\r\nd'), '"a\\"b\\\\cd"');
  });
});
