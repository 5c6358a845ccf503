// An MCP server's tools in a model API's tool loop: toolwire's client lists and calls them, the official `openai`
// client talks to the model, runTools carries schemas, names and results across. Without OPENAI_API_KEY it runs
// offline against a scripted stand-in for the API on loopback (startFakeModelApi), so it works anywhere.
// Run it: node --import tsx examples/model-api.ts   (or: OPENAI_API_KEY=sk-... node --import tsx examples/model-api.ts)

import OpenAI from 'openai';
import { McpClient } from '../src/client/index.js';
import { createLinkedPair, McpServer } from '../src/index.js';
import { runTools, startFakeModelApi } from '../src/llm/index.js';

// The MCP side: a server with one tool, in this process. Any server (a URL, a command) works the same way.
const server = new McpServer({ name: 'weather', version: '1.0.0' });
server.tool({
  name: 'weather.forecast',
  description: 'The forecast for a city, for 1 to 7 days.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['city'],
  },
  annotations: { readOnlyHint: true },
  handler: ({ city, days }) => ({ city, days: days ?? 1, sky: 'sunny', highC: 21 }),
});
const [clientSide, serverSide] = createLinkedPair();
await server.connect(serverSide);
const client = new McpClient({ name: 'model-api-example', version: '1.0.0' }, { trusted: true });
await client.connect(clientSide);

// The model side: the real API with a key; otherwise a stand-in that calls the tool once, then answers.
const offline = process.env.OPENAI_API_KEY === undefined;
const fake = offline
  ? await startFakeModelApi([
      { toolCalls: [{ name: 'weather_forecast', arguments: { city: 'Paris', days: 2 } }] },
      { text: 'Paris: sunny for the next 2 days, around 21°C.' },
    ])
  : undefined;
const openai = new OpenAI(fake ? { baseURL: `${fake.url}/v1`, apiKey: 'offline' } : {});

const run = await runTools({
  client,
  provider: openai,
  profile: 'openai-chat-strict',
  model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'What is the weather in Paris for the next 2 days?' }],
  maxSteps: 4,
});
for (const call of run.calls) console.error(`called ${call.tool} with ${JSON.stringify(call.arguments)}`);
console.log(run.text);

await client.close();
await fake?.close();
