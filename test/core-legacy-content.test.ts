// §0.1 / §3.7: content blocks newer than a legacy session's revision are described in text, never sent as types the
// client cannot know (audio arrived in 2025-03-26, resource_link and structuredContent in 2025-06-18).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { audio, resourceLink, text } from '../src/index.js';
import { connect, initializeLegacy, testServer } from './support/harness.js';

const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

async function callOn(revision: string) {
  const server = testServer();
  server.tool({
    name: 'mixed',
    handler: () => [
      text('hello'),
      audio(WAV, 'audio/wav'),
      resourceLink({ uri: 'file:///tmp/a.txt', name: 'a.txt', mimeType: 'text/plain' }),
    ],
  });
  server.tool({ name: 'structured', handler: () => ({ total: 3 }) });
  const client = await connect(server);
  await initializeLegacy(client, revision);
  const mixed = await client.request('tools/call', { name: 'mixed', arguments: {} });
  const structured = await client.request('tools/call', { name: 'structured', arguments: {} });
  return { mixed: mixed.result, structured: structured.result };
}

const AUDIO_TEXT = {
  type: 'text',
  text: "[audio audio/wav, 45 bytes, not shown: this client's protocol revision has no audio content]",
};
const LINK_TEXT = { type: 'text', text: 'Resource: a.txt <file:///tmp/a.txt> (text/plain)' };

describe('content fitted to legacy revisions', () => {
  it('2024-11-05: audio and resource links become text; no structuredContent', async () => {
    const { mixed, structured } = await callOn('2024-11-05');
    assert.deepEqual(mixed, { content: [{ type: 'text', text: 'hello' }, AUDIO_TEXT, LINK_TEXT] });
    assert.deepEqual(structured, { content: [{ type: 'text', text: '{"total":3}' }] });
  });

  it('2025-03-26: audio stays, resource links become text; no structuredContent', async () => {
    const { mixed, structured } = await callOn('2025-03-26');
    assert.deepEqual(mixed?.content, [
      { type: 'text', text: 'hello' },
      { type: 'audio', data: WAV, mimeType: 'audio/wav' },
      LINK_TEXT,
    ]);
    assert.deepEqual(structured, { content: [{ type: 'text', text: '{"total":3}' }] });
  });

  it('2025-06-18: every block as it is, with structuredContent', async () => {
    const { mixed, structured } = await callOn('2025-06-18');
    assert.equal(mixed?.content instanceof Array && (mixed.content as unknown[]).length, 3);
    assert.deepEqual(
      (mixed?.content as { type: string }[]).map((block) => block.type),
      ['text', 'audio', 'resource_link'],
    );
    assert.deepEqual(structured, {
      content: [{ type: 'text', text: '{"total":3}' }],
      structuredContent: { total: 3 },
    });
  });
});
