// The client's default logger (no `logger` option) writes to stderr what a server may have worded (an error without
// an id, here): as one line, with escapes and controls made visible (E1), so a server can neither write the
// terminal's clipboard (OSC 52), clear the screen, nor start a line that looks like ours.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = `
import { McpClient } from ${JSON.stringify(fileURLToPath(new URL('../src/client/index.ts', import.meta.url)))};
import { stdioTransport } from ${JSON.stringify(fileURLToPath(new URL('./fixtures/client/harness.ts', import.meta.url)))};
const client = new McpClient({ name: 'default-logger', version: '0' }, { approve: 'always' });
await client.connect(stdioTransport('raw-server.mjs', 'noid-error'));
await client.callTool('work', {});
await client.close();
`;

describe('client: the default logger', () => {
  it('E1 a server’s words reach stderr as one inert line', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(child.status, 0, child.stderr);
    const lines = child.stderr.split('\n').filter((line) => line.startsWith('toolwire client:'));
    assert.deepEqual(lines, [
      'toolwire client: server error without an id: -32000 evil\\u001b]52;c;ZWNobyBwd25lZA==\\u0007\\u001b[2J\\u000aforged line',
    ]);
    assert.ok(!child.stderr.includes('\u001b'), JSON.stringify(child.stderr));
  });
});
