// The pipeline extension approvals build on: middleware answers input_required with RequestView.requireInput and
// reads its own verified state back on the retry (inputState), apart from the handler's own answers (B7 binding).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { InputRequest } from '../src/protocol/index.js';
import type { RequestView } from '../src/server/index.js';
import { connect, modern, testServer, type WireMessage } from './support/harness.js';

const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const FORM = { [CAPABILITIES]: { elicitation: {} } };
const CONFIRM: InputRequest = {
  method: 'elicitation/create',
  params: { message: 'Go ahead?', requestedSchema: { type: 'object', properties: {} } },
};
const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/** A gate that asks once ("confirm"), then lets the call through, recording what it saw. */
function gatedServer() {
  const seen: { state: JsonObject | undefined; handlerKeys: string[] }[] = [];
  const server = testServer();
  server.use(async (request: RequestView, next) => {
    if (request.method !== 'tools/call') return next();
    const state = request.inputState('gate');
    if (state === undefined) return request.requireInput('gate', { confirm: CONFIRM }, { round: 1 });
    seen.push({ state, handlerKeys: [] });
    return next();
  });
  let runs = 0;
  const confirms: unknown[] = [];
  server.tool({
    name: 'greet',
    inputSchema: { type: 'object', properties: { lang: { type: 'string' } } },
    handler: async (_args: { lang?: string }, ctx) => {
      runs++;
      const [confirm, answer] = await Promise.all([
        ctx.requestInput({ confirm: CONFIRM }),
        ctx.elicit({ message: 'Your name?', requestedSchema: NAME_SCHEMA }),
      ]);
      confirms.push(confirm.confirm);
      return `Hello ${String(answer.content?.name)}`;
    },
  });
  server.tool({ name: 'plain', handler: () => 'ran' });
  return { server, seen, confirms, runs: () => runs };
}

const stateOf = (response: WireMessage): string => {
  const state = response.result?.requestState;
  assert.equal(typeof state, 'string', JSON.stringify(response));
  return state as string;
};

describe('pipeline: middleware input on the modern wire', () => {
  it('B7 middleware asks, reads its own sealed state back on the retry, and the handler runs once', async () => {
    const { server, seen } = gatedServer();
    const client = await connect(server);
    const first = await client.request('tools/call', modern({ name: 'plain', arguments: {} }, FORM));
    assert.equal(first.result?.resultType, 'input_required');
    assert.deepEqual(first.result?.inputRequests, { confirm: CONFIRM });
    const retry = await client.request(
      'tools/call',
      modern(
        {
          name: 'plain',
          arguments: {},
          inputResponses: { confirm: { action: 'accept' } },
          requestState: stateOf(first),
        },
        FORM,
      ),
    );
    assert.equal(retry.result?.resultType, 'complete');
    assert.deepEqual(retry.result?.content, [{ type: 'text', text: 'ran' }]);
    assert.deepEqual(seen[0]?.state, { round: 1 });
  });

  it("B7 the middleware's answers never reach the handler, and its state survives the handler's own rounds", async () => {
    const { server, seen, confirms } = gatedServer();
    const client = await connect(server);
    const args = { lang: 'en' };
    const first = await client.request('tools/call', modern({ name: 'greet', arguments: args }, FORM));
    // The retry answers the gate; the handler asks "confirm" too (same key): it must not get the gate's answer.
    const second = await client.request(
      'tools/call',
      modern(
        {
          name: 'greet',
          arguments: args,
          inputResponses: { confirm: { action: 'accept' } },
          requestState: stateOf(first),
        },
        FORM,
      ),
    );
    assert.equal(second.result?.resultType, 'input_required');
    assert.deepEqual(Object.keys(second.result?.inputRequests as JsonObject).sort(), ['confirm', 'elicit-1']);
    const third = await client.request(
      'tools/call',
      modern(
        {
          name: 'greet',
          arguments: args,
          inputResponses: {
            confirm: { action: 'decline' },
            'elicit-1': { action: 'accept', content: { name: 'Ada' } },
          },
          requestState: stateOf(second),
        },
        FORM,
      ),
    );
    assert.deepEqual(third.result?.content, [{ type: 'text', text: 'Hello Ada' }]);
    assert.deepEqual(
      seen.map((entry) => entry.state),
      [{ round: 1 }, { round: 1 }],
      "the gate's state went on through the handler's round",
    );
    assert.deepEqual(
      confirms,
      [{ action: 'decline' }],
      "the handler got its own answer, not the gate's accept",
    );
  });

  it('B7 a tampered middleware state, or one replayed with other arguments, is refused before anything runs', async () => {
    const { server, runs } = gatedServer();
    const client = await connect(server);
    const first = await client.request(
      'tools/call',
      modern({ name: 'greet', arguments: { lang: 'en' } }, FORM),
    );
    const state = stateOf(first);
    const flipped = state.slice(0, 10) + (state[10] === 'A' ? 'B' : 'A') + state.slice(11);
    const tampered = await client.request(
      'tools/call',
      modern({ name: 'greet', arguments: { lang: 'en' }, requestState: flipped }, FORM),
    );
    assert.equal(tampered.error?.code, -32602);
    assert.match(
      String(tampered.error?.message),
      /^Invalid params: requestState (failed verification|is malformed)/,
    );
    const moved = await client.request(
      'tools/call',
      modern({ name: 'greet', arguments: { lang: 'fr' }, requestState: state }, FORM),
    );
    assert.deepEqual(moved.error, {
      code: -32602,
      message: 'Invalid params: requestState belongs to a different call; send the request again without it',
    });
    assert.equal(runs(), 0);
  });

  it('requireInput refuses a request kind the client did not declare (-32021)', async () => {
    const { server } = gatedServer();
    const client = await connect(server);
    const response = await client.request('tools/call', modern({ name: 'plain', arguments: {} }));
    assert.equal(response.error?.code, -32021);
    assert.deepEqual(response.error?.data, { requiredCapabilities: { elicitation: {} } });
  });
});
