// Threat A7 as properties (fast-check, in-memory transport): any batch gets one array answer with one entry per
// request or invalid item, or nothing; and no answer to any message ever carries an id that is not an id.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { connect, initializeLegacy, testServer, type RawClient } from './support/harness.js';
import {
  BATCHES_THAT_BROKE,
  ECHOED_BEFORE,
  LATER_TEXT,
  anyMessage,
  batches,
  idsAreUsable,
  sortEntries,
} from './support/batch-items.js';

/** Bounded so that each property finishes in a second or two on a loaded machine. */
const RUNS = 150;

async function client(legacy: boolean): Promise<RawClient> {
  const server = testServer();
  server.tool({
    name: 'later',
    handler: async () => {
      await Promise.resolve();
      return LATER_TEXT;
    },
  });
  const connected = await connect(server);
  if (legacy) await initializeLegacy(connected, '2025-03-26');
  return connected;
}

/** Every message the server wrote, as text. */
const serverTexts = (raw: RawClient): string[] =>
  raw.traffic.filter((t) => t.direction === 'server->client').map((t) => t.text);

describe('A7 batch properties (2025-03-26 session, in-memory transport)', () => {
  it('A7 one array answer with one entry per request or invalid item (id null when unreadable), or none at all', async () => {
    await fc.assert(
      fc.asyncProperty(batches, async (batch) => {
        const raw = await client(true);
        const from = raw.received().length;
        raw.send(batch.items);
        await raw.flush(); // handlers settle by microtask; flush waits a macrotask turn past its own answer
        const arrays = raw
          .received()
          .slice(from)
          .filter((m) => Array.isArray(m));
        if (batch.entries.length === 0) assert.deepEqual(arrays, []);
        else {
          assert.equal(arrays.length, 1, JSON.stringify(arrays));
          assert.deepEqual(sortEntries(arrays[0] as unknown[]), sortEntries(batch.entries));
        }
        for (const text of serverTexts(raw)) assert.ok(idsAreUsable(text), text);
      }),
      { numRuns: RUNS, examples: BATCHES_THAT_BROKE },
    );
  });
});

/** A value as the peer reads it back from JSON. */
const onTheWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null') as unknown;

describe('A7 no answer echoes an unusable id (in-memory transport, both eras)', () => {
  for (const legacy of [false, true]) {
    it(`A7 ${legacy ? 'in a 2025-03-26 session' : 'outside any session'}: an answer's id is the request's own string or integer id, null, or absent`, async () => {
      await fc.assert(
        fc.asyncProperty(anyMessage, async (message) => {
          const raw = await client(legacy);
          const before = serverTexts(raw).length;
          raw.send(message);
          await raw.flush();
          const answers = serverTexts(raw).slice(before, -1); // the last one answers the flush
          for (const text of answers) {
            assert.ok(idsAreUsable(text), text);
            const answer = JSON.parse(text) as { id?: unknown };
            // As JSON carries it: -0 is written as 0 (a generated -0 once failed this comparison, not the server).
            if (answer.id !== undefined && answer.id !== null)
              assert.equal(answer.id, onTheWire(message.id), text);
          }
        }),
        { numRuns: RUNS, examples: ECHOED_BEFORE },
      );
    });
  }
});
