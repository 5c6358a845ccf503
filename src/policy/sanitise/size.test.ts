// Size bounds and structured output (threat E4): text cut at a character boundary with a note the model can read,
// binary blocks over their bound left out whole with a note, structuredContent kept valid against outputSchema.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  capturingLogger,
  connect,
  modern,
  testServer,
  type WireMessage,
} from '../../../test/support/harness.js';
import type { McpServer } from '../../server/index.js';
import { sanitise, type SanitiseOptions } from './index.js';

async function callWith(
  options: SanitiseOptions,
  register: (server: McpServer) => void,
  name: string,
): Promise<WireMessage> {
  const server = testServer();
  server.use(sanitise({ logger: capturingLogger(), ...options }).middleware);
  register(server);
  const client = await connect(server);
  return client.request('tools/call', modern({ name, arguments: {} }));
}

type Block = { type: string; text?: string; data?: string; mimeType?: string };
const blocks = (response: WireMessage): Block[] => (response.result?.content ?? []) as Block[];

describe('sanitise: size bounds (E4)', () => {
  it('E4 text over maxResultBytes is cut, and a note says how much and how to get less', async () => {
    const response = await callWith(
      { maxResultBytes: 1024 },
      (server) => server.tool({ name: 'big', handler: () => 'x'.repeat(5000) }),
      'big',
    );
    assert.deepEqual(blocks(response), [
      {
        type: 'text',
        text:
          `${'x'.repeat(1024)}\n\n[toolwire: output truncated: 1,024 bytes kept, 3,976 bytes left out. ` +
          'Ask for less: a narrower query, fewer items, or a page or range of the data.]',
      },
    ]);
  });

  it('E4 the bound covers all text blocks together; blocks past it are emptied and counted in the note', async () => {
    const response = await callWith(
      { maxResultBytes: 1024 },
      (server) =>
        server.tool({
          name: 'many',
          handler: () => ({
            content: [
              { type: 'text', text: 'a'.repeat(800) },
              { type: 'text', text: 'b'.repeat(800) },
              { type: 'text', text: 'c'.repeat(100) },
            ],
          }),
        }),
      'many',
    );
    assert.deepEqual(
      blocks(response).map((block) => block.text),
      [
        'a'.repeat(800),
        `${'b'.repeat(224)}\n\n[toolwire: output truncated: 1,024 bytes kept, 676 bytes left out. Ask for less: a narrower query, fewer items, or a page or range of the data.]`,
        '',
      ],
    );
  });

  // 3 + 5,242,880 bytes before cleaning, 1,024 kept: the rest, the removed zero-width space included, was left out.
  it('E4 a 5 MB text is read only a little past the bound, and the note still counts every byte left out', async () => {
    const response = await callWith(
      { maxResultBytes: 1024 },
      (server) => server.tool({ name: 'huge', handler: () => `\u200b${'y'.repeat(5 * 1024 * 1024)}` }),
      'huge',
    );
    assert.equal(
      blocks(response)[0]?.text,
      `${'y'.repeat(1024)}\n\n[toolwire: output truncated: 1,024 bytes kept, 5,241,859 bytes left out. ` +
        'Ask for less: a narrower query, fewer items, or a page or range of the data.]',
    );
  });

  it('E4 a cut never splits a character: multi-byte text stays valid UTF-8', async () => {
    const response = await callWith(
      { maxResultBytes: 1024 },
      (server) => server.tool({ name: 'cjk', handler: () => '中😀'.repeat(1000) }),
      'cjk',
    );
    const text = blocks(response)[0]?.text ?? '';
    const kept = text.slice(0, text.indexOf('\n\n[toolwire'));
    assert.ok(Buffer.byteLength(kept) <= 1024);
    assert.equal(kept, '中😀'.repeat(146)); // 146 × 7 = 1,022 bytes; the next 中 (3 bytes) would not fit
  });

  it('E4 a 100 MB base64 image is left out whole, with a note that says what it was and how to get a smaller one', async () => {
    const data = 'A'.repeat(100 * 1024 * 1024);
    const response = await callWith(
      {},
      (server) =>
        server.tool({
          name: 'photo',
          handler: () => ({
            content: [
              { type: 'text', text: 'here it is' },
              { type: 'image', data, mimeType: 'image/png' },
            ],
          }),
        }),
      'photo',
    );
    assert.deepEqual(blocks(response), [
      { type: 'text', text: 'here it is' },
      {
        type: 'text',
        text:
          '[toolwire: an image (image/png) of 78,643,200 bytes left out: binary content is limited to 10,485,760 bytes ' +
          'per result. Ask for a smaller one (a lower resolution, a crop, a thumbnail, a part) or for a link to it.]',
      },
    ]);
  });

  it('E4 binary blocks share one bound: the first that fits goes, the next that does not is left out', async () => {
    const small = 'QUJD'.repeat(300); // 900 bytes decoded
    const response = await callWith(
      { maxBinaryBytes: 1024 },
      (server) =>
        server.tool({
          name: 'two',
          handler: () => ({
            content: [
              { type: 'image', data: small, mimeType: 'image/png' },
              { type: 'audio', data: small, mimeType: 'audio/wav' },
            ],
          }),
        }),
      'two',
    );
    const [first, second] = blocks(response);
    assert.equal(first?.type, 'image');
    assert.equal(second?.text?.startsWith('[toolwire: an audio (audio/wav) of 900 bytes left out'), true);
  });

  it('E4 a resource blob over the bound becomes a text resource with the note', async () => {
    const server = testServer();
    server.use(sanitise({ logger: capturingLogger(), maxBinaryBytes: 1024 }).middleware);
    server.resource({
      uri: 'test://blob',
      name: 'blob',
      mimeType: 'application/zip',
      read: () => new Uint8Array(4096),
    });
    const client = await connect(server);
    const response = await client.request('resources/read', modern({ uri: 'test://blob' }));
    assert.deepEqual(response.result?.contents, [
      {
        uri: 'test://blob',
        mimeType: 'text/plain',
        text:
          '[toolwire: a binary resource (application/zip) of 4,096 bytes left out: binary content is limited to 1,024 ' +
          'bytes per result. Ask for a smaller one (a lower resolution, a crop, a thumbnail, a part) or for a link to it.]',
      },
    ]);
  });
});

describe('sanitise: structuredContent stays valid (E4)', () => {
  const schema = {
    type: 'object',
    properties: { code: { type: 'string', minLength: 4 }, label: { type: 'string' } },
    required: ['code'],
  };

  it('E4 cleaned structuredContent that still fits the outputSchema is sent', async () => {
    const response = await callWith(
      {},
      (server) =>
        server.tool({
          name: 'fits',
          outputSchema: schema,
          handler: () => ({ code: 'abcd\u200b', label: '\x1b[1mx' }),
        }),
      'fits',
    );
    assert.deepEqual(response.result?.structuredContent, { code: 'abcd', label: 'x' });
    assert.equal(response.result?.isError, undefined);
  });

  it('E4 structuredContent that no longer fits once cleaned becomes a tool error, and the log says why', async () => {
    const logger = capturingLogger();
    const response = await callWith(
      { logger },
      (server) =>
        server.tool({
          name: 'shrinks',
          outputSchema: schema,
          handler: () => ({ code: '\u200b\u200b\u200bab' }),
        }),
      'shrinks',
    );
    assert.equal(response.result?.isError, true);
    assert.equal(response.result?.structuredContent, undefined);
    const text = blocks(response)[0]?.text ?? '';
    assert.match(
      text,
      /^Tool "shrinks" produced output that no longer matches its outputSchema once unsafe characters or secrets were removed from it; the result was withheld \(reference [0-9a-f]{8}\)$/,
    );
    const reference = /reference ([0-9a-f]{8})/.exec(text)?.[1] ?? '';
    assert.equal(logger.lines.length, 1);
    assert.match(
      logger.lines[0]?.message ?? '',
      new RegExp(`^withheld the output of tool "shrinks" \\(reference ${reference}\\): `),
    );
    assert.match(logger.lines[0]?.message ?? '', /code/);
  });

  it('E4 structuredContent larger than maxResultBytes becomes a tool error that says to ask for less', async () => {
    const response = await callWith(
      { maxResultBytes: 2048 },
      (server) =>
        server.tool({
          name: 'huge',
          outputSchema: { type: 'object', properties: { rows: { type: 'array' } } },
          handler: () => ({ rows: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `row ${i}` })) }),
        }),
      'huge',
    );
    assert.deepEqual(response.result, {
      content: [
        {
          type: 'text',
          text: 'Tool "huge" produced a structured result larger than 2,048 bytes, the limit for one result; it was withheld. Ask for less: a narrower query, fewer items, or a page of the data.',
        },
      ],
      isError: true,
      resultType: 'complete',
      _meta: response.result?._meta,
    });
  });
});
