// Calling tools from code: approval for every tool not known to be read-only, an audit trail, an elicitation
// handler, progress and a time limit. It calls examples/calculator.ts over stdio, or the server at MCP_URL.
// Run it: node --import tsx examples/client.ts   (or: MCP_URL=http://127.0.0.1:3333/mcp node --import tsx examples/client.ts)

import { McpClient } from '../src/client/index.js';
import type { ApprovalRequest, AuditEntry, Progress } from '../src/client/index.js';
import type { ElicitRequestParams, ElicitResult } from '../src/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { StdioClientTransport } from '../src/transports/stdio/index.js';

/** A real application asks a person here; this one allows the call and says so on stderr. */
async function askTheUser(call: ApprovalRequest): Promise<boolean> {
  process.stderr.write(`approving ${call.tool} ${JSON.stringify(call.arguments)}\n`);
  return true;
}
const log = (entry: AuditEntry): void => void process.stderr.write(`audit: ${JSON.stringify(entry)}\n`);
const showForm = async (params: ElicitRequestParams): Promise<ElicitResult> => {
  process.stderr.write(`the server asks: ${params.message}\n`);
  return { action: 'decline' };
};
const onProgress = (progress: Progress): void =>
  void process.stderr.write(`progress ${progress.progress}/${progress.total ?? '?'}\n`);
const signal = AbortSignal.timeout(30_000);
const url = process.env.MCP_URL;
const bearerToken = process.env.MCP_TOKEN;
const server = { command: process.execPath, args: ['--import', 'tsx', 'examples/calculator.ts'] };

const client = new McpClient(
  { name: 'my-app', version: '1.0.0' },
  {
    approve: async (call) => askTheUser(call), // asked for every tool not known to be read-only
    audit: (entry) => log(entry), // server, tool, arguments, outcome, duration
    handlers: { elicitation: (params) => showForm(params) },
  },
);
await client.connect(
  url === undefined
    ? new StdioClientTransport(server)
    : new HttpClientTransport(url, { ...(bearerToken !== undefined && { bearerToken }) }),
);
const tools = await client.listTools();
const result = await client.callTool('calculate_sum', { a: 2, b: 3 }, { onProgress, signal });
console.log(JSON.stringify({ tools: tools.map((tool) => tool.name), result: result.structuredContent }));
await client.close();
