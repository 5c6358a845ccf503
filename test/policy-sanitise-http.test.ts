// Clean outputs end to end over real HTTP, on both eras (issue 16; threats E1, E3, E4, E5): a server with the
// sanitiser and an audit-like middleware outside it, called with plain fetch as a 2026-07-28 client and as a
// 2025-11-25 session; the bytes on the wire are checked, not only the parsed values.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RpcError } from '../src/jsonrpc/index.js';
import { sanitise } from '../src/policy/sanitise/index.js';
import { ToolError, type Outcome } from '../src/server/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { capturingLogger, testServer } from './support/harness.js';
import { callTool, legacySession, type HttpAnswer } from './support/http-mcp.js';

const HOSTILE =
  '\x1b[2J\x1b]0;PWNED\x07\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ \x1b]52;c;ZXZpbA==\x07\u0085\u202ehi\u2066\u200b 中文 👩‍💻';
const CLEAN = 'click hi 中文 👩‍💻';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const TRACE =
  'db failed at 10.0.0.7\n    at connect (/srv/app/db.js:1:2)\n    at main (/srv/app/index.js:9:9)';

/** No raw control, bidi or zero-width character, and no JSON escape of an ESC or BEL, anywhere in the body. */
const UNSAFE_ON_WIRE = new RegExp(
  String.raw`[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]|\\u001b|\\u0007|\\u0085|\\u202e`,
  'u',
);

const texts = (answer: HttpAnswer): string[] =>
  ((answer.body?.result?.content ?? []) as { text?: string }[]).map((block) => block.text ?? '');

describe('policy sanitise over HTTP, both eras (E1, E3, E4, E5)', () => {
  let listening: HttpListening;
  const originals: (Outcome | RpcError | undefined)[] = [];

  before(async () => {
    const server = testServer();
    const sanitiser = sanitise({ redact: true, maxResultBytes: 4096, logger: capturingLogger() });
    // The audit's place: outside the sanitiser, reading the unmasked original by the request view.
    server.use(async (request, next) => {
      const outcome = await next();
      originals.push(sanitiser.originalOf(request));
      return outcome;
    });
    server.use(sanitiser.middleware);
    server.tool({ name: 'hostile', handler: () => HOSTILE });
    server.tool({ name: 'leaky', handler: () => `key ${AWS}` });
    server.tool({ name: 'big', handler: () => 'z'.repeat(10_000) });
    server.tool({
      name: 'failing',
      handler: () => {
        throw new ToolError(TRACE);
      },
    });
    server.tool({
      name: 'structured',
      outputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      handler: () => ({ title: `\x1b[1mreport\u202e` }),
    });
    listening = await listenHttp(server, { port: 0, host: '127.0.0.1' });
  });
  after(() => listening.close());

  const eras: [string, (name: string) => Promise<HttpAnswer>][] = [
    ['2026-07-28', (name) => callTool(listening.url, name)],
    [
      '2025-11-25',
      async (name) => (await legacySession(listening.url)).request('tools/call', { name, arguments: {} }),
    ],
  ];

  for (const [era, call] of eras) {
    it(`E1 ${era}: escapes, C1, bidi and zero-width characters are gone from the bytes on the wire; CJK and emoji stay`, async () => {
      const answer = await call('hostile');
      assert.equal(answer.status, 200);
      assert.deepEqual(texts(answer), [CLEAN]);
      assert.doesNotMatch(answer.text, UNSAFE_ON_WIRE);
    });

    it(`E3 ${era}: with redact on, an AWS key leaves as a marker`, async () => {
      assert.deepEqual(texts(await call('leaky')), ['key [redacted:aws-access-key-id]']);
    });

    it(`E4 ${era}: a result over the bound arrives cut, with the note`, async () => {
      const [text] = texts(await call('big'));
      assert.equal(
        text,
        `${'z'.repeat(4096)}\n\n[toolwire: output truncated: 4,096 bytes kept, 5,904 bytes left out. Ask for less: a narrower query, fewer items, or a page or range of the data.]`,
      );
    });

    it(`E4 ${era}: structuredContent is cleaned and still matches the outputSchema`, async () => {
      const answer = await call('structured');
      assert.deepEqual(answer.body?.result?.structuredContent, { title: 'report' });
      assert.deepEqual(texts(answer), ['{"title":"report"}']);
    });

    it(`E5 ${era}: a stack trace and internal host are masked for the client; the audit side has the original`, async () => {
      originals.length = 0;
      const answer = await call('failing');
      assert.equal(answer.body?.result?.isError, true);
      assert.deepEqual(texts(answer), ['db failed at [internal host]\n    [stack trace removed]']);
      assert.doesNotMatch(answer.text, /srv|10\.0\.0\.7/);
      const original = originals.find((entry) => entry !== undefined);
      assert.deepEqual(original, { content: [{ type: 'text', text: TRACE }], isError: true });
    });
  }
});
