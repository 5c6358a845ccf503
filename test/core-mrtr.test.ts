// Protocol core, multi round-trip requests: InputRequiredResult and sealed requestState on the modern wire,
// server→client requests (elicitation/create, sampling/createMessage) on the legacy wire.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { InputRequest } from '../src/protocol/index.js';
import {
  SERVER_INFO_META,
  connect,
  firstText,
  initializeLegacy,
  isNotification,
  isResponseTo,
  isServerRequest,
  modern,
  testServer,
  type WireMessage,
} from './support/harness.js';

const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const withCapabilities = (capabilities: JsonObject): JsonObject => ({ [CAPABILITIES]: capabilities });
const ELICITATION = withCapabilities({ elicitation: {} });
const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const NAME_REQUEST: InputRequest = {
  method: 'elicitation/create',
  params: { message: 'Your name?', requestedSchema: NAME_SCHEMA },
};
const CITY_REQUEST: InputRequest = {
  method: 'elicitation/create',
  params: { message: 'Your city?', requestedSchema: NAME_SCHEMA },
};
const SAMPLE_PARAMS = {
  messages: [{ role: 'user' as const, content: { type: 'text', text: 'Capital of France?' } }],
  maxTokens: 20,
};

const rejectedState = (why: string) => ({
  code: -32602,
  message: `Invalid params: requestState ${why}; send the request again without it`,
});

/** Tools that ask: one question, two questions in two rounds, sampling, and two questions at once. */
function askingServer(options: { requestStateTtlMs?: number } = {}) {
  const server = testServer(options);
  server.tool({
    name: 'greet',
    inputSchema: { type: 'object', properties: { lang: { type: 'string' } } },
    handler: async (args: { lang?: string }, ctx) => {
      const answer = await ctx.elicit({ message: 'Your name?', requestedSchema: NAME_SCHEMA });
      if (answer.action !== 'accept') return `no name (${answer.action})`;
      return `${args.lang === 'fr' ? 'Bonjour' : 'Hello'} ${String(answer.content?.name)}`;
    },
  });
  server.tool({
    name: 'twoRounds',
    handler: async (_args, ctx) => {
      const name = await ctx.elicit({ message: 'Your name?', requestedSchema: NAME_SCHEMA });
      const city = await ctx.elicit({ message: 'Your city?', requestedSchema: NAME_SCHEMA });
      return `${String(name.content?.name)} from ${String(city.content?.name)}`;
    },
  });
  server.tool({
    name: 'ask_model',
    handler: async (_args, ctx) => {
      const reply = await ctx.sample(SAMPLE_PARAMS);
      return `model said ${JSON.stringify(reply.content)}`;
    },
  });
  server.tool({
    name: 'both',
    handler: async (_args, ctx) => {
      const answers = await ctx.requestInput({ name: NAME_REQUEST, city: CITY_REQUEST });
      return JSON.stringify(answers);
    },
  });
  server.tool({
    name: 'visit',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/login' });
      return answer.action;
    },
  });
  return server;
}

const stateOf = (response: WireMessage): string => {
  const state = response.result?.requestState;
  assert.equal(typeof state, 'string', JSON.stringify(response));
  return state as string;
};

describe('core MRTR: input_required on the modern wire', () => {
  it('MR-02 ctx.elicit answers with resultType "input_required", inputRequests and a requestState', async () => {
    const client = await connect(askingServer());
    const response = await client.request(
      'tools/call',
      modern({ name: 'greet', arguments: {} }, ELICITATION),
      {
        id: 1,
      },
    );
    const state = stateOf(response);
    assert.ok(state.length > 0);
    assert.equal(response.result?.ttlMs, undefined, 'CH-03: no cache hints on input_required');
    assert.deepEqual(response, {
      jsonrpc: '2.0',
      id: 1,
      result: {
        _meta: SERVER_INFO_META,
        resultType: 'input_required',
        inputRequests: { 'elicit-1': NAME_REQUEST },
        requestState: state,
      },
    });
  });

  it('MR-10 the retry with inputResponses and the echoed requestState completes the call', async () => {
    const client = await connect(askingServer());
    const args = { lang: 'fr' };
    const first = await client.request('tools/call', modern({ name: 'greet', arguments: args }, ELICITATION));
    const retry = await client.request(
      'tools/call',
      modern(
        {
          name: 'greet',
          arguments: args,
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
          requestState: stateOf(first),
        },
        ELICITATION,
      ),
      { id: 'retry' },
    );
    assert.deepEqual(retry, {
      jsonrpc: '2.0',
      id: 'retry',
      result: {
        resultType: 'complete',
        _meta: SERVER_INFO_META,
        content: [{ type: 'text', text: 'Bonjour Ada' }],
      },
    });
  });

  it('MR-17 a declined elicitation reaches the handler as a decline', async () => {
    const client = await connect(askingServer());
    const first = await client.request('tools/call', modern({ name: 'greet' }, ELICITATION));
    const retry = await client.request(
      'tools/call',
      modern(
        {
          name: 'greet',
          inputResponses: { 'elicit-1': { action: 'decline' } },
          requestState: stateOf(first),
        },
        ELICITATION,
      ),
    );
    assert.equal(firstText(retry), 'no name (decline)');
  });

  it('MR-06 each round of a multi-round call gets a new requestState carrying the earlier answers', async () => {
    const client = await connect(askingServer());
    const round1 = await client.request('tools/call', modern({ name: 'twoRounds' }, ELICITATION));
    assert.deepEqual(round1.result?.inputRequests, { 'elicit-1': NAME_REQUEST });
    const round2 = await client.request(
      'tools/call',
      modern(
        {
          name: 'twoRounds',
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
          requestState: stateOf(round1),
        },
        ELICITATION,
      ),
    );
    assert.equal(round2.result?.resultType, 'input_required');
    assert.deepEqual(round2.result?.inputRequests, { 'elicit-2': CITY_REQUEST });
    assert.notEqual(stateOf(round2), stateOf(round1));
    const round3 = await client.request(
      'tools/call',
      modern(
        {
          name: 'twoRounds',
          inputResponses: { 'elicit-2': { action: 'accept', content: { name: 'London' } } },
          requestState: stateOf(round2),
        },
        ELICITATION,
      ),
    );
    assert.equal(round3.result?.resultType, 'complete');
    assert.equal(firstText(round3), 'Ada from London');
  });

  it('MR-03 several requests made together go out in one InputRequiredResult', async () => {
    const client = await connect(askingServer());
    const response = await client.request('tools/call', modern({ name: 'both' }, ELICITATION));
    assert.deepEqual(response.result?.inputRequests, { name: NAME_REQUEST, city: CITY_REQUEST });
  });

  it('MR-09 unknown extra inputResponses are ignored', async () => {
    const client = await connect(askingServer());
    const response = await client.request(
      'tools/call',
      modern(
        {
          name: 'greet',
          inputResponses: {
            'elicit-1': { action: 'accept', content: { name: 'Bo' } },
            stray: { anything: true },
          },
        },
        ELICITATION,
      ),
    );
    assert.equal(firstText(response), 'Hello Bo');
  });

  it('MR-05 a tampered requestState (signature changed) gets -32602', async () => {
    const client = await connect(askingServer());
    const state = stateOf(await client.request('tools/call', modern({ name: 'greet' }, ELICITATION)));
    // Change the first character of the signature: the last one may only carry padding bits base64url ignores.
    const [prefix, body, mac = ''] = state.split('.');
    const tampered = [prefix, body, (mac.startsWith('A') ? 'B' : 'A') + mac.slice(1)].join('.');
    const response = await client.request(
      'tools/call',
      modern({ name: 'greet', inputResponses: {}, requestState: tampered }, ELICITATION),
      { id: 't' },
    );
    assert.deepEqual(response, { jsonrpc: '2.0', id: 't', error: rejectedState('failed verification') });
  });

  it('MR-05 a requestState whose payload was rewritten (answers forged) gets -32602', async () => {
    const client = await connect(askingServer());
    const state = stateOf(await client.request('tools/call', modern({ name: 'greet' }, ELICITATION)));
    const [prefix, body, mac] = state.split('.');
    const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as JsonObject;
    payload.a = { 'elicit-1': { action: 'accept', content: { name: 'Mallory' } } };
    const forged = [prefix, Buffer.from(JSON.stringify(payload)).toString('base64url'), mac].join('.');
    const response = await client.request(
      'tools/call',
      modern({ name: 'greet', requestState: forged }, ELICITATION),
    );
    assert.deepEqual(response.error, rejectedState('failed verification'));
  });

  for (const [label, state] of [
    ['garbage', 'garbage'],
    ['a number', 12345],
    ['an empty string', ''],
  ] as const) {
    it(`MR-05 a requestState that is ${label} gets -32602 "is malformed"`, async () => {
      const client = await connect(askingServer());
      const response = await client.request(
        'tools/call',
        modern({ name: 'greet', requestState: state }, ELICITATION),
      );
      assert.deepEqual(response.error, rejectedState('is malformed'));
    });
  }

  it('MR-06 an expired requestState gets -32602', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const client = await connect(askingServer({ requestStateTtlMs: 1000 }));
    const state = stateOf(await client.request('tools/call', modern({ name: 'greet' }, ELICITATION)));
    t.mock.timers.tick(1001);
    const response = await client.request(
      'tools/call',
      modern(
        {
          name: 'greet',
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'A' } } },
          requestState: state,
        },
        ELICITATION,
      ),
    );
    assert.deepEqual(response.error, rejectedState('has expired'));
  });

  it('MR-06 a requestState still within its lifetime is accepted', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const client = await connect(askingServer({ requestStateTtlMs: 1000 }));
    const state = stateOf(await client.request('tools/call', modern({ name: 'greet' }, ELICITATION)));
    t.mock.timers.tick(999);
    const response = await client.request(
      'tools/call',
      modern(
        {
          name: 'greet',
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'A' } } },
          requestState: state,
        },
        ELICITATION,
      ),
    );
    assert.equal(firstText(response), 'Hello A');
  });

  it('MR-06 a requestState presented with other arguments gets -32602', async () => {
    const client = await connect(askingServer());
    const state = stateOf(
      await client.request('tools/call', modern({ name: 'greet', arguments: { lang: 'en' } }, ELICITATION)),
    );
    const response = await client.request(
      'tools/call',
      modern({ name: 'greet', arguments: { lang: 'fr' }, requestState: state }, ELICITATION),
    );
    assert.deepEqual(response.error, rejectedState('belongs to a different call'));
  });

  it('MR-06 a requestState presented to another tool gets -32602', async () => {
    const client = await connect(askingServer());
    const state = stateOf(await client.request('tools/call', modern({ name: 'twoRounds' }, ELICITATION)));
    const response = await client.request(
      'tools/call',
      modern({ name: 'greet', requestState: state }, ELICITATION),
    );
    assert.deepEqual(response.error, rejectedState('belongs to a different call'));
  });

  it('MR-06 a requestState from another server (another key) fails verification', async () => {
    const one = await connect(askingServer());
    const two = await connect(askingServer());
    const state = stateOf(await one.request('tools/call', modern({ name: 'greet' }, ELICITATION)));
    const response = await two.request(
      'tools/call',
      modern({ name: 'greet', requestState: state }, ELICITATION),
    );
    assert.deepEqual(response.error, rejectedState('failed verification'));
  });

  it('MR-04 sampling without the sampling capability gets -32021 with data.requiredCapabilities', async () => {
    const client = await connect(askingServer());
    assert.deepEqual(
      await client.request('tools/call', modern({ name: 'ask_model' }, ELICITATION), { id: 's' }),
      {
        jsonrpc: '2.0',
        id: 's',
        error: {
          code: -32021,
          message:
            'Missing required client capability: this request needs sampling/createMessage, which the request did not declare',
          data: { requiredCapabilities: { sampling: {} } },
        },
      },
    );
  });

  it('MR-04 elicitation without the elicitation capability gets -32021 naming elicitation', async () => {
    const client = await connect(askingServer());
    const response = await client.request('tools/call', modern({ name: 'greet' }));
    assert.deepEqual(response.error?.code, -32021);
    assert.deepEqual(response.error?.data, { requiredCapabilities: { elicitation: {} } });
  });

  it('MR-15 URL-mode elicitation with only form mode declared gets -32021 naming elicitation.url', async () => {
    const client = await connect(askingServer());
    const response = await client.request('tools/call', modern({ name: 'visit' }, ELICITATION));
    assert.deepEqual(response.error?.data, { requiredCapabilities: { elicitation: { url: {} } } });
    const allowed = await client.request(
      'tools/call',
      modern({ name: 'visit' }, withCapabilities({ elicitation: { url: {} } })),
    );
    assert.equal(allowed.result?.resultType, 'input_required');
  });

  it('MR-04 sampling with the capability becomes an input request, and the model reply completes the call', async () => {
    const client = await connect(askingServer());
    const sampling = withCapabilities({ sampling: {} });
    const first = await client.request('tools/call', modern({ name: 'ask_model' }, sampling));
    assert.deepEqual(first.result?.inputRequests, {
      'sample-1': { method: 'sampling/createMessage', params: SAMPLE_PARAMS },
    });
    const reply = {
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'm',
      stopReason: 'endTurn',
    };
    const retry = await client.request(
      'tools/call',
      modern(
        { name: 'ask_model', inputResponses: { 'sample-1': reply }, requestState: stateOf(first) },
        sampling,
      ),
    );
    assert.equal(firstText(retry), 'model said {"type":"text","text":"Paris"}');
  });

  it('MR-09 inputResponses: null gets -32602', async () => {
    const client = await connect(askingServer());
    const response = await client.request(
      'tools/call',
      modern({ name: 'greet', inputResponses: null }, ELICITATION),
    );
    assert.deepEqual(response.error, {
      code: -32602,
      message: 'Invalid params: inputResponses must be an object keyed by input request',
    });
  });

  for (const [label, answer, why] of [
    ['12345', 12345, 'expected an object'],
    ['null', null, 'expected an object'],
    ['an unknown action', { action: 'maybe' }, 'action must be "accept", "decline" or "cancel"'],
    ['content that is not an object', { action: 'accept', content: 'Ada' }, 'content must be an object'],
  ] as const) {
    it(`MR-09 ${label} as the answer to an elicitation gets -32602`, async () => {
      const client = await connect(askingServer());
      const response = await client.request(
        'tools/call',
        modern({ name: 'greet', inputResponses: { 'elicit-1': answer } }, ELICITATION),
      );
      assert.deepEqual(response.error, {
        code: -32602,
        message: `Invalid params: inputResponses["elicit-1"] is not a valid elicitation/create result (${why})`,
      });
    });
  }

  it('MR-09 a sampling answer without role and content gets -32602', async () => {
    const client = await connect(askingServer());
    const response = await client.request(
      'tools/call',
      modern(
        { name: 'ask_model', inputResponses: { 'sample-1': { model: 'm' } } },
        withCapabilities({ sampling: {} }),
      ),
    );
    assert.deepEqual(response.error, {
      code: -32602,
      message:
        'Invalid params: inputResponses["sample-1"] is not a valid sampling/createMessage result (role and content are required)',
    });
  });
});

describe('core MRTR: server→client requests on the legacy wire', () => {
  it('MR-19 ctx.elicit sends elicitation/create to the client and awaits its answer', async () => {
    const client = await connect(askingServer());
    await initializeLegacy(client, '2025-06-18', { elicitation: {} });
    const pending = client.request(
      'tools/call',
      { name: 'greet', arguments: { lang: 'en' } },
      { id: 'call' },
    );
    const ask = await client.waitFor(isServerRequest('elicitation/create'));
    assert.deepEqual(ask, {
      jsonrpc: '2.0',
      id: ask.id,
      method: 'elicitation/create',
      params: NAME_REQUEST.params,
    });
    client.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Bob' } } });
    assert.deepEqual(await pending, {
      jsonrpc: '2.0',
      id: 'call',
      result: { content: [{ type: 'text', text: 'Hello Bob' }] },
    });
  });

  it('MR-19 two rounds become two elicitation/create requests with distinct ids', async () => {
    const client = await connect(askingServer());
    await initializeLegacy(client, '2025-11-25', { elicitation: {} });
    const pending = client.request('tools/call', { name: 'twoRounds' });
    const first = await client.waitFor(isServerRequest('elicitation/create'));
    client.send({ jsonrpc: '2.0', id: first.id, result: { action: 'accept', content: { name: 'Bob' } } });
    const second = await client.waitFor((m) => isServerRequest('elicitation/create')(m) && m.id !== first.id);
    assert.deepEqual(second.params, CITY_REQUEST.params);
    client.send({ jsonrpc: '2.0', id: second.id, result: { action: 'accept', content: { name: 'Paris' } } });
    assert.equal(firstText(await pending), 'Bob from Paris');
  });

  it('MR-19 sampling goes out as sampling/createMessage when the session declared sampling', async () => {
    const client = await connect(askingServer());
    await initializeLegacy(client, '2025-06-18', { sampling: {} });
    const pending = client.request('tools/call', { name: 'ask_model' });
    const ask = await client.waitFor(isServerRequest('sampling/createMessage'));
    assert.deepEqual(ask.params, SAMPLE_PARAMS);
    client.send({
      jsonrpc: '2.0',
      id: ask.id,
      result: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' },
    });
    assert.equal(firstText(await pending), 'model said {"type":"text","text":"Paris"}');
  });

  it('MR-19 without the capability nothing is sent to the client and the call gets an isError result', async () => {
    const client = await connect(askingServer());
    await initializeLegacy(client, '2025-06-18');
    assert.deepEqual((await client.request('tools/call', { name: 'greet' })).result, {
      content: [
        {
          type: 'text',
          text: 'This request needs the client capability "elicitation", which this client did not declare',
        },
      ],
      isError: true,
    });
    assert.equal(
      client.received().filter((m) => !Array.isArray(m) && m.method === 'elicitation/create').length,
      0,
    );
  });

  it('MR-20 an error answer from the client becomes an isError result naming the request', async () => {
    const client = await connect(askingServer());
    await initializeLegacy(client, '2025-06-18', { elicitation: {} });
    const pending = client.request('tools/call', { name: 'greet' });
    const ask = await client.waitFor(isServerRequest('elicitation/create'));
    client.send({ jsonrpc: '2.0', id: ask.id, error: { code: -32603, message: 'user closed the dialog' } });
    assert.deepEqual((await pending).result, {
      content: [
        { type: 'text', text: 'The client could not complete elicitation/create: user closed the dialog' },
      ],
      isError: true,
    });
  });

  it("CA-03 cancelling the call while it waits for the client cancels the server's own request too", async () => {
    const client = await connect(askingServer());
    await initializeLegacy(client, '2025-06-18', { elicitation: {} });
    client.send({ jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'greet' } });
    const ask = await client.waitFor(isServerRequest('elicitation/create'));
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c' } });
    const cancelled = await client.waitFor(isNotification('notifications/cancelled'));
    assert.deepEqual(cancelled.params, { requestId: ask.id, reason: 'the tool call ended' });
    client.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'late' } } });
    await client.flush();
    assert.equal(client.received().filter((m) => !Array.isArray(m) && isResponseTo('c')(m)).length, 0);
  });
});
