// The client's resources and prompts against toolwire's catalog fixture on both eras: every page of the lists,
// reads of text, bytes and templates, a read that asks for input (MRTR and a legacy server→client request),
// prompts with arguments, and servers that answer badly (no contents, bad messages, a cursor that repeats).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpError, ProtocolError, type ClientOptions } from '../src/client/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { createCatalogServer } from './fixtures/client/catalog-server.js';
import { memoryClient, recordingLogger } from './fixtures/client/harness.js';
import { PNG_BASE64 } from './fixtures/client/toolwire-server.js';

const ERAS = ['modern', 'legacy'] as const;

const withCatalog = (options: ClientOptions, server: McpServer = createCatalogServer({ pageSize: 2 })) =>
  memoryClient(options, {}, server);

for (const era of ERAS) {
  describe(`client resources and prompts (${era})`, () => {
    it('lists every resource and template across pages', async () => {
      const session = await withCatalog({ era });
      try {
        const resources = await session.client.listResources();
        assert.deepEqual(
          resources.map((resource) => resource.uri),
          ['notes://readme', 'notes://logo', 'notes://hostile', 'notes://secret'],
        );
        assert.deepEqual(resources[0], {
          uri: 'notes://readme',
          name: 'readme',
          title: 'Read me',
          description: 'How the notes are kept',
          mimeType: 'text/markdown',
        });
        const templates = await session.client.listResourceTemplates();
        assert.deepEqual(templates, [
          {
            uriTemplate: 'notes://day/{date}',
            name: 'day',
            description: 'The note of one day',
            mimeType: 'text/plain',
          },
        ]);
      } finally {
        await session.close();
      }
    });

    it('reads text, bytes and a templated URI', async () => {
      const session = await withCatalog({ era });
      try {
        const readme = await session.client.readResource('notes://readme');
        assert.deepEqual(readme.contents, [
          { uri: 'notes://readme', mimeType: 'text/markdown', text: '# Notes\nOne file per day.' },
        ]);
        const logo = await session.client.readResource('notes://logo');
        assert.deepEqual(logo.contents, [{ uri: 'notes://logo', mimeType: 'image/png', blob: PNG_BASE64 }]);
        const day = await session.client.readResource('notes://day/2026-05-01');
        assert.deepEqual(day.contents, [
          { uri: 'notes://day/2026-05-01', mimeType: 'text/plain', text: 'Note of 2026-05-01' },
        ]);
      } finally {
        await session.close();
      }
    });

    it('a read that asks for input is answered by the elicitation handler', async () => {
      const session = await withCatalog({
        era,
        handlers: { elicitation: () => ({ action: 'accept', content: { password: 'hunter2' } }) },
      });
      try {
        const secret = await session.client.readResource('notes://secret');
        assert.deepEqual(secret.contents, [
          { uri: 'notes://secret', mimeType: 'text/plain', text: 'unlocked with hunter2' },
        ]);
      } finally {
        await session.close();
      }
    });

    it('lists prompts and gets one with its arguments', async () => {
      const session = await withCatalog({ era });
      try {
        const prompts = await session.client.listPrompts();
        assert.deepEqual(
          prompts.map((prompt) => prompt.name),
          ['greet', 'hostile', 'recap'],
        );
        assert.deepEqual(prompts[0]?.arguments, [
          { name: 'name', description: 'who to greet', required: true },
          { name: 'tone', description: 'warm or dry' },
        ]);
        const greet = await session.client.getPrompt('greet', { name: 'Ada', tone: 'warm' });
        assert.deepEqual(greet.messages, [
          { role: 'user', content: { type: 'text', text: 'Say hello to Ada in a warm tone.' } },
        ]);
        assert.equal('resultType' in greet, false);
        const recap = await session.client.getPrompt('recap');
        assert.equal(recap.description, 'A short recap');
        assert.equal(recap.messages.length, 2);
      } finally {
        await session.close();
      }
    });

    it('errors the server sends reach the caller as McpError', async () => {
      const session = await withCatalog({ era });
      try {
        await assert.rejects(session.client.getPrompt('nope'), (error: unknown) => {
          assert.ok(error instanceof McpError);
          assert.equal(error.code, -32602);
          assert.match(error.message, /Unknown prompt: "nope"/);
          return true;
        });
        await assert.rejects(session.client.getPrompt('greet'), McpError); // the required "name" is missing
        await assert.rejects(session.client.readResource('notes://missing'), McpError);
      } finally {
        await session.close();
      }
    });
  });
}

describe('client resources and prompts: servers that answer badly', () => {
  /** A server whose handlers for the given methods answer `result` (the envelope is added by the server). */
  function badServer(answers: Record<string, object>): McpServer {
    const server = new McpServer({ name: 'bad', version: '1.0.0' }, { logger: silentLogger });
    server.tool({ name: 'noop', handler: () => 'ok' });
    for (const [method, result] of Object.entries(answers)) server.setRequestHandler(method, () => result);
    return server;
  }

  it('a read without a contents array is a ProtocolError', async () => {
    const session = await withCatalog({}, badServer({ 'resources/read': { text: 'loose' } }));
    try {
      await assert.rejects(
        session.client.readResource('x://y'),
        new ProtocolError('resources/read of x://y answered without contents'),
      );
    } finally {
      await session.close();
    }
  });

  it('a contents entry without text or blob is a ProtocolError', async () => {
    const session = await withCatalog({}, badServer({ 'resources/read': { contents: [{ uri: 'x://y' }] } }));
    try {
      await assert.rejects(
        session.client.readResource('x://y'),
        new ProtocolError(
          'resources/read of x://y answered a contents entry without uri and text or blob: {"uri":"x://y"}',
        ),
      );
    } finally {
      await session.close();
    }
  });

  it('prompt messages without a role are a ProtocolError', async () => {
    const session = await withCatalog(
      {},
      badServer({ 'prompts/get': { messages: [{ content: { type: 'text', text: 'hi' } }] } }),
    );
    try {
      await assert.rejects(
        session.client.getPrompt('p'),
        new ProtocolError('prompts/get of "p" answered without valid messages (role and content)'),
      );
    } finally {
      await session.close();
    }
  });

  it('C6 a list whose cursor repeats stops at once instead of paging forever', async () => {
    const session = await withCatalog(
      {},
      badServer({ 'resources/list': { resources: [{ uri: 'a://1', name: 'one' }], nextCursor: 'again' } }),
    );
    try {
      await assert.rejects(
        session.client.listResources(),
        new ProtocolError('resources/list repeated the cursor "again"'),
      );
    } finally {
      await session.close();
    }
  });

  it('entries without their required names are dropped with a warning', async () => {
    const recorder = recordingLogger();
    const session = await withCatalog(
      { logger: recorder.logger },
      badServer({ 'prompts/list': { prompts: [{ name: 'kept' }, { title: 'no name' }, 'junk'] } }),
    );
    try {
      assert.deepEqual(await session.client.listPrompts(), [{ name: 'kept' }]);
      assert.deepEqual(recorder.warnings, [
        'dropped a prompts/list entry without name',
        'dropped a prompts/list entry without name',
      ]);
    } finally {
      await session.close();
    }
  });
});
