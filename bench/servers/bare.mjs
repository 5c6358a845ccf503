// The ceiling: a bare node:http (or stdin/stdout) server that parses each JSON-RPC request and writes a correct result
// whose shape is precomputed. No schema validation, no sessions, no protocol checks beyond what the answer needs.
// Any MCP server written in Node on this machine is slower than this; the benchmark reports toolwire as a share of it.

import { createServer } from 'node:http';
import { wireTools, announce, serverArgs, exitOnSignal } from './tool-set.mjs';

const { transport, tools, port } = serverArgs();
exitOnSignal();
const MAX_BODY = 4 * 1024 * 1024;

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const COMPLETE = '"resultType":"complete",';
const toolsJson = JSON.stringify(wireTools(tools));
const listTail = `,"result":{"tools":${toolsJson}}}`;
const modernListTail = `,"result":{${COMPLETE}"tools":${toolsJson}}}`;
const initializeTail = `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bench-bare","version":"1.0.0"}}}`;

/** The answer to one parsed message, or undefined for a notification. */
function answer(message) {
  if (message === null || typeof message !== 'object' || message.id === undefined) return undefined;
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)}`;
  const params = message.params;
  // 2026-07-28 results say they are complete; 2025 results have no such member.
  const modern = params?._meta?.[PROTOCOL_VERSION] !== undefined;
  switch (message.method) {
    case 'tools/call': {
      const args = params?.arguments;
      if (params?.name === 'calculate_sum' && typeof args?.a === 'number' && typeof args?.b === 'number') {
        const text = JSON.stringify(String(args.a + args.b));
        return `${head},"result":{${modern ? COMPLETE : ''}"content":[{"type":"text","text":${text}}]}}`;
      }
      return `${head},"result":{"content":[{"type":"text","text":"unknown tool or bad arguments"}],"isError":true}}`;
    }
    case 'tools/list':
      return head + (modern ? modernListTail : listTail);
    case 'initialize':
      return head + initializeTail;
    default:
      return `${head},"error":{"code":-32601,"message":"Method not found"}}`;
  }
}

if (transport === 'stdio') {
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    if (buffered.length > MAX_BODY) process.exit(1);
    let out = '';
    let newline;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() === '') continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        out += '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n';
        continue;
      }
      const reply = answer(message);
      if (reply !== undefined) out += reply + '\n';
    }
    if (out !== '') process.stdout.write(out);
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  const http = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let message;
      try {
        message = JSON.parse(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString());
      } catch {
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
      }
      const reply = answer(message);
      if (reply === undefined) return void res.writeHead(202).end();
      const headers = { 'content-type': 'application/json' };
      if (message.method === 'initialize') headers['mcp-session-id'] = 'bare';
      res.writeHead(200, headers).end(reply);
    });
  });
  http.listen(port, '127.0.0.1', () => announce(http));
}
