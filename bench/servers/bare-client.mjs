// The floor for a CLI round trip: a bare node client that starts the bare stdio server, sends one tools/call, prints
// the answer's text and exits once the server has. Two node starts plus one exchange, and nothing else.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const server = spawn(
  process.execPath,
  [fileURLToPath(new URL('bare.mjs', import.meta.url)), '--transport', 'stdio', '--tools', '10'],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
let buffered = '';
server.stdout.setEncoding('utf8');
server.stdout.on('data', (chunk) => {
  buffered += chunk;
  const newline = buffered.indexOf('\n');
  if (newline === -1) return;
  const answer = JSON.parse(buffered.slice(0, newline));
  process.stdout.write(`${answer.result.content[0].text}\n`);
  server.stdin.end();
});
server.on('exit', (code) => {
  process.exitCode = code ?? 1;
});
server.stdin.write(
  `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'calculate_sum', arguments: { a: 17, b: 25 } } })}\n`,
);
