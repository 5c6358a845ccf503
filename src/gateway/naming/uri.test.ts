// Resource URI rewriting: reversible, one gateway URI per (server, URI), unforgeable by an upstream, a valid URI,
// and exact (no normalisation on the way back).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fromGatewayUri, NamingError, SEPARATOR, toGatewayTemplate, toGatewayUri } from './index.js';

const serverName = fc
  .stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,30}[A-Za-z0-9-])?$/)
  .filter((name) => !name.includes(SEPARATOR));
/** Characters around the two forms' border: URI delimiters, "%" with and without hex, spaces, non-ASCII, surrogates. */
const tricky = fc.constantFrom(
  ...[
    '%',
    '2',
    '0',
    'e',
    'F',
    '/',
    ':',
    '#',
    '?',
    '[',
    ']',
    ' ',
    'a',
    'é',
    '\u200d',
    '\ud800',
    '\udc00',
    ';',
    '\n',
  ],
  ...['toolwire-gw:', 'fs/', ';escaped/', '%25', '%2e', '\u{1f642}', '..', '\\', '"', '{', '}'],
);
const uri = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: tricky, maxLength: 30 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.tuple(serverName, fc.string({ unit: tricky, maxLength: 10 })).map(([s, rest]) => toGatewayUri(s, rest)),
);

/** RFC 3986 `absolute-URI` with the gateway's opaque path (path-rootless), plus an optional fragment. */
const PCHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})";
const RFC3986 = new RegExp(
  `^toolwire-gw:${PCHAR}+(?:/${PCHAR}*)*(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`,
);

describe('toGatewayUri / fromGatewayUri', () => {
  it('keeps a URI verbatim after the server, and escapes one that is not made of URI characters', () => {
    assert.equal(toGatewayUri('fs', 'file:///a%20b'), 'toolwire-gw:fs/file:///a%20b');
    assert.equal(toGatewayUri('fs', 'file:///a b'), 'toolwire-gw:fs;escaped/file:///a%20b');
    assert.equal(toGatewayUri('fs', '100%'), 'toolwire-gw:fs;escaped/100%25');
    assert.equal(toGatewayUri('fs', 'file:///é'), 'toolwire-gw:fs;escaped/file:///%C3%A9');
    assert.equal(toGatewayUri('web', 'https://x.test/p?q=1#top'), 'toolwire-gw:web/https://x.test/p?q=1#top');
    assert.deepEqual(fromGatewayUri('toolwire-gw:fs;escaped/file:///a%20b'), {
      server: 'fs',
      uri: 'file:///a b',
    });
    assert.deepEqual(fromGatewayUri('toolwire-gw:fs/file:///a%20b'), { server: 'fs', uri: 'file:///a%20b' });
  });

  it("C3 an upstream cannot forge another server's URI: whatever it lists stays wrapped in its own name", () => {
    const forged = toGatewayUri('evil', 'toolwire-gw:fs/file:///etc/passwd');
    assert.equal(forged, 'toolwire-gw:evil/toolwire-gw:fs/file:///etc/passwd');
    assert.deepEqual(fromGatewayUri(forged), { server: 'evil', uri: 'toolwire-gw:fs/file:///etc/passwd' });
    const escaped = toGatewayUri('evil', 'toolwire-gw:fs;escaped/x y');
    assert.equal(fromGatewayUri(escaped)?.server, 'evil');
  });

  it('refuses a bad server name with the exact error', () => {
    for (const run of [() => toGatewayUri('a___b', 'x'), () => toGatewayTemplate('a___b', '{x}')]) {
      assert.throws(run, (error: unknown) => {
        assert.ok(error instanceof NamingError);
        assert.equal(error.code, 'bad-server-name');
        assert.equal(
          error.message,
          'server name "a___b" contains "___", the separator between server and tool names',
        );
        return true;
      });
    }
  });

  it('B5 a URI the gateway did not make, or a variant of one, is unknown', () => {
    const variants = [
      'TOOLWIRE-GW:fs/file:///a',
      ' toolwire-gw:fs/file:///a',
      'toolwire-gw://fs/file:///a',
      'toolwire-gw:fs',
      'toolwire-gw:/file:///a',
      'toolwire-gw:a___b/file:///a',
      'toolwire-gw:fs\u200d/file:///a',
      'toolwire-gw:f\u0455/file:///a',
      'toolwire-gw:fs/file:///a b', // a raw space: the gateway would have escaped it
      'toolwire-gw:fs/file:///a%2', // a broken escape
      'toolwire-gw:fs;escaped/file:///a', // the escaped form of a URI that has a verbatim form
      'toolwire-gw:fs;escaped/file:///a%2fb%20c', // lower-case hex: not what the gateway writes
      'toolwire-gw:fs;escaped/file:///%2E%2E%20', // "." escaped: not what the gateway writes
      'toolwire-gw:fs;escaped/%C3', // a cut UTF-8 sequence
      'toolwire-gw:fs;escaped/%C0%AE%20', // an overlong "."
      'toolwire-gw:fs;escaped/%ED%A0%BD%ED%B8%82', // a surrogate pair spelt as two halves
      'toolwire-gw:fs;Escaped/a%20b',
      'file:///a',
    ];
    for (const variant of variants) assert.equal(fromGatewayUri(variant), undefined, JSON.stringify(variant));
    for (const value of [undefined, null, 7, { toString: () => 'toolwire-gw:fs/x' }]) {
      assert.equal(fromGatewayUri(value as unknown as string), undefined);
    }
    // Server names are exact too: FS is another server (which the gateway will not find), never fs.
    assert.deepEqual(fromGatewayUri('toolwire-gw:FS/file:///a'), { server: 'FS', uri: 'file:///a' });
  });

  it('B5 traversal forms reach the upstream exactly as sent: no dot segments removed, no %2e decoded', () => {
    assert.deepEqual(fromGatewayUri('toolwire-gw:fs/file:///allowed/../secret'), {
      server: 'fs',
      uri: 'file:///allowed/../secret',
    });
    assert.deepEqual(fromGatewayUri('toolwire-gw:fs/file:///allowed/%2e%2e/secret'), {
      server: 'fs',
      uri: 'file:///allowed/%2e%2e/secret',
    });
    // A URL parser keeps the opaque path too, so a client that parses the URI does not resolve it either.
    const parsed = new URL('toolwire-gw:fs/file:///allowed/../secret');
    assert.equal(parsed.href, 'toolwire-gw:fs/file:///allowed/../secret');
  });

  it('property: round trip for any server name and any string', () => {
    fc.assert(
      fc.property(serverName, uri, (server, upstream) => {
        assert.deepEqual(fromGatewayUri(toGatewayUri(server, upstream)), { server, uri: upstream });
      }),
      { numRuns: 1000 },
    );
  });

  it('property: two different (server, uri) pairs never share a gateway URI', () => {
    fc.assert(
      fc.property(serverName, uri, serverName, uri, (s1, u1, s2, u2) => {
        fc.pre(s1 !== s2 || u1 !== u2);
        assert.notEqual(toGatewayUri(s1, u1), toGatewayUri(s2, u2));
      }),
      { numRuns: 1000 },
    );
    // Near misses that a looser encoding would merge.
    const pairs: [string, string][] = [
      ['fs', 'a b'],
      ['fs', 'a%20b'],
      ['fs', 'a%2520b'],
      ['fs', '\ud800'],
      ['fs', '\ufffd'],
      ['f', 's/x'],
      ['fs', 'x'],
      ['fs', ';escaped/x'],
      ['fs-', 'x'],
    ];
    const made = pairs.map(([server, upstream]) => toGatewayUri(server, upstream));
    assert.equal(new Set(made).size, pairs.length);
  });

  it('property: fromGatewayUri accepts only what toGatewayUri makes (so there is one spelling per resource)', () => {
    const candidate = fc.oneof(
      fc.string({ unit: tricky, maxLength: 30 }).map((rest) => `toolwire-gw:fs${rest}`),
      fc.string({ unit: tricky, maxLength: 30 }).map((rest) => `toolwire-gw:fs;escaped/${rest}`),
      fc.string({ unit: 'binary', maxLength: 30 }).map((rest) => `toolwire-gw:${rest}`),
    );
    fc.assert(
      fc.property(candidate, (text) => {
        const found = fromGatewayUri(text);
        if (found !== undefined) assert.equal(toGatewayUri(found.server, found.uri), text);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a gateway URI is made of URI characters and survives URL parsing unchanged', () => {
    fc.assert(
      fc.property(serverName, uri, (server, upstream) => {
        const made = toGatewayUri(server, upstream);
        assert.match(made, /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-F]{2}|%[0-9a-f]{2})*$/i);
        assert.equal(new URL(made).href, made);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: it is a valid RFC 3986 URI whenever the upstream URI is, and always in the escaped form', () => {
    fc.assert(
      fc.property(serverName, uri, (server, upstream) => {
        const made = toGatewayUri(server, upstream);
        // Brackets are valid only in an IP-literal host, which in the gateway URI sits inside the path: see uri.ts.
        if (
          made.startsWith(`toolwire-gw:${server};escaped/`) ||
          (!/[[\]]/.test(upstream) && isRfc3986(upstream))
        ) {
          assert.match(made, RFC3986);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

/** A loose RFC 3986 check of an upstream URI's characters and its single "#" (its scheme does not matter here). */
const isRfc3986 = (text: string): boolean =>
  /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/.test(text) && text.split('#').length <= 2;
