// The conformance client: one program for every client scenario, built on the toolwire client library.
// The suite runs it as `node --import tsx conformance/client.ts <server URL>` with MCP_CONFORMANCE_SCENARIO,
// MCP_CONFORMANCE_PROTOCOL_VERSION and (for some scenarios) MCP_CONFORMANCE_CONTEXT in the environment.

import { McpClient } from '../src/client/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { authFetch } from './auth.js';

const url = process.argv[process.argv.length - 1] ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
} & Parameters<typeof authFetch>[2];

const client = new McpClient(
  { name: 'toolwire-conformance-client', version: '1.0.0' },
  {
    era: version === '2026-07-28' ? 'auto' : 'legacy',
    approve: 'always',
    timeoutMs: 20_000,
    handlers: {
      // Accept with nothing filled in: the library applies the schema's defaults (SEP-1034).
      elicitation: () => ({ action: 'accept', content: {} }),
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'conformance' }),
      roots: () => ({ roots: [] }),
    },
  },
);

/** CONFORMANCE_DEBUG=1: every request and response on stderr, to see what a scenario objected to. */
const tracingFetch: typeof fetch = async (input, init) => {
  process.stderr.write(
    `> ${init?.method ?? 'GET'} ${JSON.stringify(init?.headers)} ${String(init?.body ?? '')}\n`,
  );
  const response = await fetch(input, init);
  process.stderr.write(`< ${response.status} ${response.headers.get('content-type') ?? ''}\n`);
  return response;
};

async function run(): Promise<void> {
  const base = process.env.CONFORMANCE_DEBUG ? tracingFetch : fetch;
  const authorized = authFetch(scenario, url, context, base);
  await client.connect(
    new HttpClientTransport(
      url,
      authorized ? { fetch: authorized } : process.env.CONFORMANCE_DEBUG ? { fetch: tracingFetch } : {},
    ),
  );
  const tools = await client.listTools();
  const has = (name: string): boolean => tools.some((tool) => tool.name === name);
  switch (scenario) {
    case 'initialize':
    case 'json-schema-ref-no-deref':
      return; // the handshake and tools/list are what these check
    case 'tools_call':
      await client.callTool('add_numbers', { a: 2, b: 3 });
      return;
    case 'elicitation-sep1034-client-defaults':
      await client.callTool('test_client_elicitation_defaults', {});
      return;
    case 'sse-retry':
      await client.callTool('test_reconnection', {});
      return;
    case 'http-custom-headers':
      for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments);
      return;
    case 'json-schema-2020-12-preservation': {
      // Echo the inputSchema exactly as listed: proves no keyword was lost or rewritten on the way in.
      const listed = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
      await client.callTool('json_schema_echo', { schema: listed?.inputSchema ?? {} });
      return;
    }
    case 'http-invalid-tool-headers':
      await client.callTool('valid_tool', { region: 'us-west1' });
      return;
    case 'sep-2322-client-request-state':
      await Promise.all(
        ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type']
          .filter(has)
          .map((name) => client.callTool(name, {})),
      );
      return;
    default:
      // request-metadata, http-standard-headers and anything else: call every tool once with no arguments.
      for (const tool of tools) await client.callTool(tool.name, {}).catch(() => undefined);
  }
}

run().then(
  () => client.close(),
  async (error: unknown) => {
    process.stderr.write(
      `conformance client (${scenario}): ${error instanceof Error ? error.message : String(error)}\n`,
    );
    await client.close().catch(() => undefined);
    process.exitCode = 1;
  },
);
