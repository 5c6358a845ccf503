// The http pack: the IP-range module, the SSRF guard (every hop), pinned connections, limits and response content.

import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult } from '../src/protocol/index.js';
import { refusalFor } from '../src/tools/http/address-policy.js';
import {
  embeddedIpv4,
  formatIpv4,
  parseCidr,
  parseIp,
  rangeContains,
  type IpRange,
} from '../src/tools/http/ip-range.js';
import { createHttpRequestTool, httpPack, type HttpToolOptions } from '../src/tools/http/index.js';
import { ConfigError } from '../src/tools/pack.js';
import { Roots } from '../src/tools/roots.js';
import { capturingLogger, connect, modern, testServer, type RawClient } from './support/harness.js';

const ADVICE =
  'http_request only reaches public internet hosts; an operator can allow this one with the http pack\'s "allowHosts" setting.';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('ip-range: parsing', () => {
  const valid: [string, 4 | 6, bigint][] = [
    ['0.0.0.0', 4, 0n],
    ['192.0.2.1', 4, 0xc0000201n],
    ['255.255.255.255', 4, 0xffffffffn],
    ['::', 6, 0n],
    ['::1', 6, 1n],
    ['2001:db8::1', 6, 0x20010db8000000000000000000000001n],
    ['2001:DB8:0:0:0:0:0:1', 6, 0x20010db8000000000000000000000001n],
    ['1:2:3:4:5:6:7::', 6, 0x00010002000300040005000600070000n],
    ['::ffff:192.0.2.1', 6, 0xffffc0000201n],
    ['::ffff:7f00:1', 6, 0xffff7f000001n],
    ['fe80::1%eth0', 6, 0xfe800000000000000000000000000001n],
  ];
  for (const [text, family, value] of valid) {
    it(`parses ${text}`, () => assert.deepEqual(parseIp(text), { family, value }));
  }
  const invalid = [
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '0x7f.0.0.1',
    '1.2.3.-4',
    '1.2.3.4 ',
    '2130706433',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '12345::',
    'g::1',
    ':1:2:3:4:5:6:7',
    '::1.2.3',
    '::1.2.3.4:5',
    'fe80::1%',
    'localhost',
  ];
  for (const text of invalid) {
    it(`refuses ${JSON.stringify(text)}`, () => assert.equal(parseIp(text), undefined));
  }
});

describe('ip-range: CIDR ranges', () => {
  const range = (text: string): IpRange => {
    const parsed = parseCidr(text);
    assert.ok(parsed !== undefined, text);
    return parsed;
  };
  const ip = (text: string) => {
    const parsed = parseIp(text);
    assert.ok(parsed !== undefined, text);
    return parsed;
  };

  it('matches by prefix, within one family', () => {
    assert.equal(rangeContains(range('10.0.0.0/8'), ip('10.255.1.2')), true);
    assert.equal(rangeContains(range('10.0.0.0/8'), ip('11.0.0.0')), false);
    assert.equal(rangeContains(range('172.16.0.0/12'), ip('172.31.255.255')), true);
    assert.equal(rangeContains(range('172.16.0.0/12'), ip('172.32.0.0')), false);
    assert.equal(rangeContains(range('fc00::/7'), ip('fdff::1')), true);
    assert.equal(rangeContains(range('fc00::/7'), ip('fe00::1')), false);
    assert.equal(rangeContains(range('0.0.0.0/0'), ip('8.8.8.8')), true);
    assert.equal(rangeContains(range('0.0.0.0/0'), ip('::1')), false, 'no match across families');
    assert.equal(rangeContains(range('::/0'), ip('::1')), true);
  });

  it('reads a bare address as a range of one and clears host bits', () => {
    assert.deepEqual(range('192.0.2.7'), { family: 4, base: 0xc0000207n, prefix: 32 });
    assert.deepEqual(range('10.1.2.3/8'), { family: 4, base: 0x0a000000n, prefix: 8 });
    assert.deepEqual(range('[::1]'.slice(1, -1)), { family: 6, base: 1n, prefix: 128 });
  });

  for (const text of [
    '10.0.0.0/33',
    '::/129',
    '10.0.0.0/',
    '10.0.0.0/08',
    '10.0.0.0/-1',
    'fe80::1%eth0/64',
    'x/8',
  ]) {
    it(`refuses the range ${JSON.stringify(text)}`, () => assert.equal(parseCidr(text), undefined));
  }

  it('finds the IPv4 address inside mapped, compatible, NAT64 and 6to4 addresses', () => {
    const inner = (text: string) => {
      const found = embeddedIpv4(ip(text));
      return found === undefined ? undefined : formatIpv4(found.value);
    };
    assert.equal(inner('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(inner('::10.0.0.1'), '10.0.0.1');
    assert.equal(inner('64:ff9b::a9fe:a9fe'), '169.254.169.254');
    assert.equal(inner('2002:c0a8:0101::1'), '192.168.1.1');
    assert.equal(inner('2001:db8::1'), undefined);
    assert.equal(inner('127.0.0.1'), undefined);
  });

  it('classifies the refused ranges, metadata first', () => {
    const reason = (text: string) => refusalFor(ip(text))?.reason;
    assert.equal(reason('169.254.169.254'), 'a cloud metadata address');
    assert.equal(reason('169.254.1.1'), 'a link-local address');
    assert.equal(reason('fd00:ec2::254'), 'a cloud metadata address');
    assert.equal(reason('fd00::1'), 'a private (unique local) address');
    assert.equal(reason('100.100.100.200'), 'a carrier-grade NAT (shared) address');
    assert.equal(reason('255.255.255.255'), 'a reserved or broadcast address');
    assert.equal(reason('::ffff:10.0.0.1'), 'a private address (IPv4 10.0.0.1 inside IPv6)');
    assert.equal(reason('::'), 'an unspecified address');
    assert.equal(reason('::1'), 'a loopback address');
    assert.equal(reason('ff02::1'), 'a multicast address');
    assert.equal(reason('8.8.8.8'), undefined);
    assert.equal(reason('2606:4700:4700::1111'), undefined);
    assert.equal(reason('172.32.0.1'), undefined);
  });
});

// ---- the tool -------------------------------------------------------------------------------------------

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let origin: string;
let port: number;
const seen: Seen[] = [];
let roots: Roots;

before(async () => {
  roots = await Roots.create([process.cwd()]);
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '/';
      seen.push({
        method: request.method ?? '',
        url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const send = (status: number, type: string | undefined, body: string | Buffer, extra = {}) => {
        response.writeHead(status, { ...(type === undefined ? {} : { 'content-type': type }), ...extra });
        response.end(request.method === 'HEAD' ? undefined : body);
      };
      const chain = /^\/chain\/(\d+)$/.exec(url);
      if (chain !== null) {
        const left = Number(chain[1]);
        send(302, undefined, '', { location: left <= 1 ? '/json' : `/chain/${left - 1}` });
        return;
      }
      switch (url) {
        case '/json':
          return send(200, 'application/json; charset=utf-8', '{"ok":true,"items":[1,2]}', {
            'set-cookie': 'sid=1',
          });
        case '/bad-json':
          return send(200, 'application/json', '{"ok":');
        case '/text':
          return send(200, 'text/plain; charset=utf-8', 'héllo, world');
        case '/image':
          return send(200, 'image/png', PNG);
        case '/binary':
          return send(200, 'application/octet-stream', Buffer.from([0, 1, 2, 255]));
        case '/big':
          return send(200, 'text/plain', 'x'.repeat(5000));
        case '/echo':
          return send(200, 'application/json', JSON.stringify({ method: request.method }));
        case '/to-private':
          return send(302, undefined, '', { location: 'http://10.1.2.3/' });
        case '/to-v6-loopback':
          return send(302, undefined, '', { location: `http://[::1]:${port}/json` });
        case '/to-file':
          return send(302, undefined, '', { location: 'file:///etc/passwd' });
        case '/to-metadata':
          return send(307, undefined, '', { location: 'http://169.254.169.254/latest/meta-data' });
        case '/see-other':
          return send(303, undefined, '', { location: '/echo' });
        case '/to-localhost':
          return send(307, undefined, '', { location: `http://localhost:${port}/echo` });
        case '/slow':
          return; // never answers: the tool's timeout must end the call
        default:
          return send(404, 'text/plain', 'not found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

/** A client of a server with http_request configured from `raw` (plus options such as a fake resolver). */
async function httpClient(raw: JsonObject, options?: HttpToolOptions): Promise<RawClient> {
  const config = httpPack.parseConfig({ enabled: true, ...raw }, 'packs.http');
  const environment = { roots, logger: capturingLogger(), timeouts: {} };
  const test = testServer();
  const tools =
    options === undefined
      ? httpPack.create(config, environment)
      : [createHttpRequestTool(config, environment, options)];
  for (const tool of tools) test.tool(tool);
  return connect(test);
}

type Result = CallToolResult & { structuredContent?: JsonObject };

async function fetchWith(client: RawClient, args: JsonObject, meta: JsonObject = {}): Promise<Result> {
  const response = await client.request(
    'tools/call',
    modern({ name: 'http_request', arguments: args }, meta),
    {
      timeoutMs: 10_000,
    },
  );
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result as unknown as Result;
}

/** Asserts an isError result whose only content is `message`. */
async function assertRefused(client: RawClient, args: JsonObject, message: string): Promise<void> {
  const result = await fetchWith(client, args);
  assert.deepEqual(result.content, [{ type: 'text', text: message }]);
  assert.equal(result.isError, true);
}

describe('http pack: configuration', () => {
  const environment = () => ({ roots, logger: capturingLogger(), timeouts: {} });

  it('creates no tools unless enabled', () => {
    assert.deepEqual(httpPack.create(httpPack.parseConfig(undefined, 'packs.http'), environment()), []);
    assert.deepEqual(
      httpPack.create(httpPack.parseConfig({ enabled: false }, 'packs.http'), environment()),
      [],
    );
    assert.equal(
      httpPack.create(httpPack.parseConfig({ enabled: true }, 'packs.http'), environment()).length,
      1,
    );
  });

  it('warns the operator about allowHosts', () => {
    const logger = capturingLogger();
    httpPack.create(
      httpPack.parseConfig({ enabled: true, allowHosts: ['127.0.0.1', '10.0.0.0/8'] }, 'packs.http'),
      {
        roots,
        logger,
        timeouts: {},
      },
    );
    assert.equal(
      logger.text(),
      'warn: http pack: allowHosts lets http_request reach 127.0.0.1, 10.0.0.0/8 even where private or loopback ',
    );
  });

  const refusals: [string, unknown, string][] = [
    [
      'an unknown key',
      { enabled: true, allowPrivate: true },
      'packs.http has an unknown key "allowPrivate"; allowed keys: enabled, methods, allowHosts, maxRedirects, maxResponseBytes',
    ],
    [
      'enabled that is not a boolean',
      { enabled: 'yes' },
      'packs.http.enabled must be true or false; got "yes"',
    ],
    [
      'an unknown method',
      { enabled: true, methods: ['GET', 'TRACE'] },
      'packs.http.methods must be a non-empty list of: GET, POST, PUT, PATCH, DELETE, HEAD; got "TRACE"',
    ],
    [
      'an empty method list',
      { enabled: true, methods: [] },
      'packs.http.methods must be a non-empty list of: GET, POST, PUT, PATCH, DELETE, HEAD; got []',
    ],
    [
      'an allowHosts entry that is neither a host nor a range',
      { enabled: true, allowHosts: ['10.0.0.0/33'] },
      'packs.http.allowHosts[0] must be a host name (like "api.example.com"), an IP address (like "10.0.0.5") or a CIDR range (like "10.0.0.0/8" or "fd00::/8"); got "10.0.0.0/33"',
    ],
    [
      'a URL in allowHosts',
      { enabled: true, allowHosts: ['http://example.com'] },
      'packs.http.allowHosts[0] must be a host name (like "api.example.com"), an IP address (like "10.0.0.5") or a CIDR range (like "10.0.0.0/8" or "fd00::/8"); got "http://example.com"',
    ],
    [
      'too many redirects',
      { enabled: true, maxRedirects: 50 },
      'packs.http.maxRedirects must be a whole number of redirects from 0 to 20; got 50',
    ],
    [
      'a response limit of zero',
      { enabled: true, maxResponseBytes: 0 },
      'packs.http.maxResponseBytes must be a whole number of bytes from 1 to 104857600; got 0',
    ],
  ];
  for (const [what, raw, message] of refusals) {
    it(`refuses ${what}`, () => {
      assert.throws(() => httpPack.parseConfig(raw, 'packs.http'), { name: ConfigError.name, message });
    });
  }

  it('is read-only (and not destructive) only when GET and HEAD are all it may send', async () => {
    const annotations = async (raw: JsonObject) => {
      const list = await (await httpClient(raw)).request('tools/list', modern());
      return (list.result?.tools as JsonObject[])[0]?.annotations;
    };
    assert.deepEqual(await annotations({}), {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    assert.deepEqual(await annotations({ methods: ['GET', 'HEAD'] }), {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });
});

describe('http pack: SSRF guard', () => {
  const direct: [string, string][] = [
    ['http://127.0.0.1:PORT/json', '127.0.0.1 is a loopback address'],
    ['http://[::1]:PORT/json', '::1 is a loopback address'],
    ['http://10.0.0.1/', '10.0.0.1 is a private address'],
    ['http://172.16.5.4/', '172.16.5.4 is a private address'],
    ['http://192.168.1.1/', '192.168.1.1 is a private address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a cloud metadata address'],
    ['http://[fd00:ec2::254]/latest/meta-data', 'fd00:ec2::254 is a cloud metadata address'],
    ['http://169.254.10.10/', '169.254.10.10 is a link-local address'],
    ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
    ['http://[fc00::5]/', 'fc00::5 is a private (unique local) address'],
    ['http://100.64.0.1/', '100.64.0.1 is a carrier-grade NAT (shared) address'],
    ['http://224.0.0.251/', '224.0.0.251 is a multicast address'],
    ['http://0.0.0.0:PORT/', '0.0.0.0 is an unspecified ("this network") address'],
    ['http://[::]:PORT/', ':: is an unspecified address'],
    ['http://[::ffff:127.0.0.1]:PORT/', '::ffff:7f00:1 is a loopback address (IPv4 127.0.0.1 inside IPv6)'],
  ];
  for (const [template, detail] of direct) {
    it(`refuses ${template}`, async () => {
      const url = template.replace('PORT', String(port));
      const href = new URL(url).href;
      await assertRefused(await httpClient({}), { url }, `Refused ${href}: ${detail}. ${ADVICE}`);
    });
  }

  it('refuses other spellings of loopback that the URL parser normalises (hex, decimal)', async () => {
    const client = await httpClient({});
    for (const url of ['http://0x7f.1/', 'http://2130706433/', 'http://127.1/']) {
      await assertRefused(
        client,
        { url },
        `Refused http://127.0.0.1/: 127.0.0.1 is a loopback address. ${ADVICE}`,
      );
    }
  });

  it('refuses a name that resolves to loopback (localhost), naming the address', async () => {
    await assertRefused(
      await httpClient({}),
      { url: `http://localhost:${port}/json` },
      `Refused http://localhost:${port}/json: "localhost" resolves to 127.0.0.1, a loopback address. ${ADVICE}`,
    );
  });

  it('refuses the metadata host name whatever it resolves to', async () => {
    await assertRefused(
      await httpClient({}),
      { url: 'http://metadata.google.internal/computeMetadata/v1/' },
      `Refused http://metadata.google.internal/computeMetadata/v1/: "metadata.google.internal" is a cloud metadata host. ${ADVICE}`,
    );
  });

  it('refuses a name when any one of its addresses is private (DNS rebinding)', async () => {
    const resolve = async (): Promise<LookupAddress[]> => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await assertRefused(
      await httpClient({}, { resolve }),
      { url: 'http://mixed.example/' },
      `Refused http://mixed.example/: "mixed.example" resolves to 10.0.0.5, a private address. ${ADVICE}`,
    );
  });

  it('says when a name does not resolve', async () => {
    const resolve = async (): Promise<LookupAddress[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await assertRefused(
      await httpClient({}, { resolve }),
      { url: 'http://nowhere.invalid/' },
      'The host "nowhere.invalid" could not be resolved (ENOTFOUND); check the spelling of the URL',
    );
  });

  const schemes: [string, string][] = [
    [
      'file:///etc/passwd',
      'Refused file:///etc/passwd: only http: and https: URLs are supported, not "file:"',
    ],
    [
      'ftp://ftp.example.com/pub',
      'Refused ftp://ftp.example.com/pub: only http: and https: URLs are supported, not "ftp:"',
    ],
    [
      'gopher://127.0.0.1:70/',
      'Refused gopher://127.0.0.1:70/: only http: and https: URLs are supported, not "gopher:"',
    ],
    [
      'http://user:secret@example.com/',
      'Refused http://user:REDACTED@example.com/: a user name or password in the URL is not supported; send an Authorization header instead',
    ],
    [
      '/relative/path',
      'url "/relative/path" is not an absolute URL; give one like "https://example.com/path"',
    ],
  ];
  for (const [url, message] of schemes) {
    it(`refuses ${url}`, async () => assertRefused(await httpClient({}), { url }, message));
  }

  it('re-checks every redirect: an allowlisted server cannot bounce the request to a private address', async () => {
    const client = await httpClient({ allowHosts: ['127.0.0.1'] });
    await assertRefused(
      client,
      { url: `${origin}/to-private` },
      `Refused the redirect from ${origin}/to-private to http://10.1.2.3/: 10.1.2.3 is a private address. ${ADVICE}`,
    );
    await assertRefused(
      client,
      { url: `${origin}/to-v6-loopback` },
      `Refused the redirect from ${origin}/to-v6-loopback to http://[::1]:${port}/json: ::1 is a loopback address. ${ADVICE}`,
    );
    await assertRefused(
      client,
      { url: `${origin}/to-metadata` },
      `Refused the redirect from ${origin}/to-metadata to http://169.254.169.254/latest/meta-data: 169.254.169.254 is a cloud metadata address. ${ADVICE}`,
    );
    await assertRefused(
      client,
      { url: `${origin}/to-file` },
      `Refused the redirect from ${origin}/to-file to file:///etc/passwd: only http: and https: URLs are supported, not "file:"`,
    );
  });

  it('lets a metadata address through only by its exact entry, not by a range around it', async () => {
    const resolve = async (): Promise<LookupAddress[]> => [{ address: '169.254.169.254', family: 4 }];
    await assertRefused(
      await httpClient({ allowHosts: ['169.254.0.0/16'] }, { resolve }),
      { url: 'http://meta.example/' },
      `Refused http://meta.example/: "meta.example" resolves to 169.254.169.254, a cloud metadata address. ${ADVICE}`,
    );
  });

  it('connects to the checked address: the name is resolved once, and never again by http.request', async () => {
    const lookups: string[] = [];
    const resolve = async (hostname: string): Promise<LookupAddress[]> => {
      lookups.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const client = await httpClient({ allowHosts: ['127.0.0.1'] }, { resolve });
    seen.length = 0;
    const result = await fetchWith(client, { url: `http://pinned.example:${port}/json` });
    assert.equal(result.isError, undefined);
    assert.deepEqual(lookups, ['pinned.example']); // the system resolver would have failed on this name
    assert.equal(seen[0]?.headers.host, `pinned.example:${port}`);
  });
});

describe('http pack: requests and responses (allowlisted loopback server)', () => {
  const allowed = () => httpClient({ allowHosts: ['127.0.0.1'] });

  it('returns JSON as text plus structuredContent with status, selected headers and the parsed value', async () => {
    const result = await fetchWith(await allowed(), { url: `${origin}/json` });
    assert.equal(result.isError, undefined);
    const body = '{"ok":true,"items":[1,2]}';
    assert.deepEqual(result.content, [
      {
        type: 'text',
        text: `HTTP 200 OK from GET ${origin}/json (application/json, ${body.length} bytes)\n\n${body}`,
      },
    ]);
    const structured = result.structuredContent as JsonObject & { headers: JsonObject };
    assert.equal(structured.headers['set-cookie'], undefined, 'cookies are not shown');
    assert.deepEqual(structured, {
      url: `${origin}/json`,
      status: 200,
      statusText: 'OK',
      headers: { ...structured.headers, 'content-type': 'application/json; charset=utf-8' },
      contentType: 'application/json',
      bytes: body.length,
      truncated: false,
      redirects: [],
      json: { ok: true, items: [1, 2] },
    });
  });

  it('returns text as text, decoded by its charset', async () => {
    const result = await fetchWith(await allowed(), { url: `${origin}/text` });
    assert.deepEqual(result.content, [
      { type: 'text', text: `HTTP 200 OK from GET ${origin}/text (text/plain, 13 bytes)\n\nhéllo, world` },
    ]);
    assert.equal(result.structuredContent?.text, 'héllo, world');
  });

  it('returns an image as image content', async () => {
    const result = await fetchWith(await allowed(), { url: `${origin}/image` });
    assert.deepEqual(result.content, [
      { type: 'text', text: `HTTP 200 OK from GET ${origin}/image (image/png, ${PNG.length} bytes)` },
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
    ]);
  });

  it('describes other binary bodies instead of dumping them', async () => {
    const result = await fetchWith(await allowed(), { url: `${origin}/binary` });
    assert.deepEqual(result.content, [
      {
        type: 'text',
        text: `HTTP 200 OK from GET ${origin}/binary (application/octet-stream, 4 bytes)\nThe body is binary (application/octet-stream), so it is not shown.`,
      },
    ]);
  });

  it('shows JSON that does not parse as text, and says so', async () => {
    const result = await fetchWith(await allowed(), { url: `${origin}/bad-json` });
    assert.equal(
      (result.content[0] as { text: string }).text,
      `HTTP 200 OK from GET ${origin}/bad-json (application/json, 6 bytes)\nThe body is not valid JSON.\n\n{"ok":`,
    );
    assert.equal(result.structuredContent?.json, undefined);
  });

  it('cuts an oversize response short and reports it', async () => {
    const client = await httpClient({ allowHosts: ['127.0.0.1'], maxResponseBytes: 1024 });
    const result = await fetchWith(client, { url: `${origin}/big` });
    assert.equal(
      (result.content[0] as { text: string }).text,
      `HTTP 200 OK from GET ${origin}/big (text/plain, 1024 bytes)\n` +
        '…[truncated: the response is larger than 1024 bytes; only the first 1024 bytes were read]\n\n' +
        'x'.repeat(1024),
    );
    assert.equal(result.structuredContent?.truncated, true);
    assert.equal(result.structuredContent?.bytes, 1024);
  });

  it('sends method, headers and body as asked, with the tool managing Host and Content-Length', async () => {
    seen.length = 0;
    const result = await fetchWith(await allowed(), {
      method: 'POST',
      url: `${origin}/echo`,
      headers: { 'Content-Type': 'application/json', 'X-Test': 'yes; rm -rf /' },
      body: '{"a":1}',
    });
    assert.deepEqual(result.structuredContent?.json, { method: 'POST' });
    const request = seen[0];
    assert.equal(request?.method, 'POST');
    assert.equal(request.body, '{"a":1}');
    assert.equal(request.headers['x-test'], 'yes; rm -rf /');
    assert.equal(request.headers['content-length'], '7');
    assert.equal(request.headers.host, `127.0.0.1:${port}`);
    assert.equal(request.headers['user-agent'], 'toolwire-http_request');
  });

  it('answers HEAD without a body', async () => {
    const result = await fetchWith(await allowed(), { method: 'HEAD', url: `${origin}/json` });
    assert.equal(
      (result.content[0] as { text: string }).text,
      `HTTP 200 OK from HEAD ${origin}/json (application/json, 0 bytes)`,
    );
  });

  it('follows redirects within the limit and lists them', async () => {
    const result = await fetchWith(await allowed(), { url: `${origin}/chain/2` });
    assert.deepEqual(result.structuredContent?.redirects, [`${origin}/chain/2`, `${origin}/chain/1`]);
    assert.equal(result.structuredContent?.url, `${origin}/json`);
    assert.match(
      (result.content[0] as { text: string }).text,
      new RegExp(`\nRedirected from: ${origin}/chain/2 → ${origin}/chain/1\n`),
    );
  });

  it('stops after maxRedirects', async () => {
    const client = await httpClient({ allowHosts: ['127.0.0.1'], maxRedirects: 2 });
    await assertRefused(
      client,
      { url: `${origin}/chain/3` },
      `Stopped after 2 redirects: ${origin}/chain/1 redirects again (to /json); request the final URL directly`,
    );
  });

  it('returns the redirect itself when maxRedirects is 0', async () => {
    const client = await httpClient({ allowHosts: ['127.0.0.1'], maxRedirects: 0 });
    const result = await fetchWith(client, { url: `${origin}/chain/1` });
    assert.equal(result.structuredContent?.status, 302);
    assert.deepEqual((result.structuredContent?.headers as JsonObject).location, '/json');
  });

  it('turns a POST into a GET without a body on 303', async () => {
    seen.length = 0;
    const result = await fetchWith(await allowed(), {
      method: 'POST',
      url: `${origin}/see-other`,
      body: 'x=1',
    });
    assert.deepEqual(result.structuredContent?.json, { method: 'GET' });
    assert.deepEqual(
      seen.map(({ method, url, body }) => [method, url, body]),
      [
        ['POST', '/see-other', 'x=1'],
        ['GET', '/echo', ''],
      ],
    );
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    seen.length = 0;
    const client = await httpClient({ allowHosts: ['127.0.0.1', 'localhost'] });
    await fetchWith(client, {
      url: `${origin}/to-localhost`,
      headers: { Authorization: 'Bearer abc', Cookie: 'a=b', 'X-Kept': '1' },
    });
    assert.equal(seen[0]?.headers.authorization, 'Bearer abc');
    assert.equal(seen[1]?.url, '/echo');
    assert.equal(seen[1]?.headers.authorization, undefined);
    assert.equal(seen[1]?.headers.cookie, undefined);
    assert.equal(seen[1]?.headers['x-kept'], '1');
  });

  it('gives up at the time limit', async () => {
    await assertRefused(
      await allowed(),
      { url: `${origin}/slow`, timeoutMs: 200 },
      `No complete response from ${origin}/slow within 200 ms; try again later or raise timeoutMs (at most 60000)`,
    );
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assertRefused(
      await allowed(),
      { url: `http://127.0.0.1:${closedPort}/` },
      `Request to http://127.0.0.1:${closedPort}/ failed: ECONNREFUSED`,
    );
  });

  const badInput: [string, JsonObject, string][] = [
    [
      'a Host header',
      { url: `http://127.0.0.1:1/`, headers: { Host: 'internal.example' } },
      'header "Host" cannot be set: http_request sets it itself; remove it from "headers"',
    ],
    [
      'a Transfer-Encoding header',
      { url: `http://127.0.0.1:1/`, method: 'POST', headers: { 'transfer-encoding': 'chunked' } },
      'header "transfer-encoding" cannot be set: http_request sets it itself; remove it from "headers"',
    ],
    [
      'a header value with a line break',
      { url: `http://127.0.0.1:1/`, headers: { 'X-A': 'a\r\nX-Injected: 1' } },
      'header "X-A" contains a line break or NUL; a header value must be one line',
    ],
    [
      'a header name with a space',
      { url: `http://127.0.0.1:1/`, headers: { 'X A': 'a' } },
      'header name "X A" is not a valid HTTP header name',
    ],
    [
      'a body with GET',
      { url: `http://127.0.0.1:1/`, body: 'x' },
      'a body cannot be sent with GET; use POST, PUT, PATCH or DELETE, or leave out "body"',
    ],
    [
      'a body over 1 MiB in UTF-8',
      { url: `http://127.0.0.1:1/`, method: 'PUT', body: 'é'.repeat(600_000) },
      'body is 1200000 bytes in UTF-8; at most 1048576 are allowed',
    ],
    [
      'a time limit over 60 s',
      { url: `http://127.0.0.1:1/`, timeoutMs: 60_001 },
      'Invalid arguments for tool "http_request":\n- timeoutMs: must be <= 60000 (got 60001)',
    ],
    [
      'an unknown method',
      { url: `http://127.0.0.1:1/`, method: 'TRACE' },
      'Invalid arguments for tool "http_request":\n- method: must be one of "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD" (got "TRACE")',
    ],
  ];
  for (const [what, args, message] of badInput) {
    it(`refuses ${what}`, async () => assertRefused(await allowed(), args, message));
  }

  it('offers only the configured methods', async () => {
    await assertRefused(
      await httpClient({ allowHosts: ['127.0.0.1'], methods: ['GET', 'HEAD'] }),
      { url: `${origin}/echo`, method: 'POST', body: 'x' },
      'Invalid arguments for tool "http_request":\n- method: must be one of "GET", "HEAD" (got "POST")',
    );
  });
});
