// Oversight (the README's walk-through): a destructive call needs a human. The agent's call gets an approval URL,
// the approver (another key, with the approvals:decide scope) approves with `toolwire approvals approve`, the
// agent's retry runs the tool once, and `toolwire audit` shows the trail. Everything runs here, on loopback, with a
// SQLite audit trail in a temporary directory. Run it: node --import tsx examples/oversight.ts

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main as toolwire } from '../src/cli/main.js';
import { McpClient } from '../src/client/index.js';
import { McpServer } from '../src/index.js';
import { approvalsAdmin, createApiKey, loadPolicy } from '../src/policy/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { createNodeHandler } from '../src/transports/http/index.js';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`; // listening on TCP: an address, not a path
};

const directory = mkdtempSync(join(tmpdir(), 'toolwire-oversight-'));
const agent = createApiKey({ subject: 'agent', scopes: ['notes'] });
const approver = createApiKey({ subject: 'zoe', scopes: ['approvals:decide'] });

const server = new McpServer({ name: 'notes', version: '1.0.0' });
const notes = ['buy milk', 'call mum'];
server.tool({
  name: 'delete_notes',
  annotations: { destructiveHint: true },
  handler: () => `deleted ${notes.splice(0).length} notes`,
});

const mcp = createServer();
const admin = createServer();
const url = `${await listen(mcp)}/mcp`;
const approvalUrl = `${await listen(admin)}/approvals`;
const audit = join(directory, 'audit.db');
const policy = await loadPolicy({
  apiKeys: { keys: [agent.record, approver.record] },
  scopes: { rules: [{ tools: ['*'], see: ['notes'] }] },
  // Destructive (and unannotated) tools need a human by default.
  approvals: { approvalUrl },
  audit: { store: { kind: 'sqlite', path: audit } },
});
policy.install(server);
mcp.on('request', createNodeHandler(server, { path: '/mcp', ...policy.http }));
admin.on(
  'request',
  approvalsAdmin(policy.approvals!, { authenticate: policy.http.authenticate! }), // both configured above
);

// The agent: its client shows the approval URL (a host would open it for a person) and retries once told.
const client = new McpClient(
  { name: 'agent', version: '1.0.0' },
  {
    approve: 'always',
    capabilities: { elicitation: { url: {} } },
    handlers: {
      elicitation: async (params) => {
        const page = String((params as { url?: string }).url);
        console.log(`approval needed: ${page}`);
        // The approver, elsewhere, with their own key:
        const id = page.slice(page.lastIndexOf('/') + 1);
        await toolwire([
          'approvals',
          'approve',
          id,
          '--url',
          approvalUrl,
          '--header',
          `Authorization: Bearer ${approver.key}`,
        ]);
        return { action: 'accept' };
      },
    },
  },
);
await client.connect(new HttpClientTransport(url, { headers: { authorization: `Bearer ${agent.key}` } }));
const result = await client.callTool('delete_notes', {});
console.log(`result: ${(result.content[0] as { text: string }).text}`);
await client.close();

await policy.close();
for (const closing of [mcp, admin]) {
  closing.closeAllConnections();
  await new Promise((resolve) => closing.close(resolve));
}
// The trail: the approval's request, decision and redemption, and the call itself, chained.
await toolwire(['audit', '--db', audit]);
await toolwire(['audit', 'verify', '--db', audit]);
rmSync(directory, { recursive: true, force: true });
