// Resources, a resource template with completion, a prompt and a tool that can run as a task, on one server.
// Run it: node --import tsx examples/resources-prompts.ts   (then: toolwire resources 'node --import tsx examples/resources-prompts.ts')

import { z } from 'zod';
import { McpServer } from '../src/index.js';
import { serveStdio } from '../src/transports/stdio/index.js';

const readme = '# Notes\n\nThis text is a resource: clients read it with resources/read.\n';
const profiles = new Map([
  ['ada', { name: 'Ada Lovelace', born: 1815 }],
  ['alan', { name: 'Alan Turing', born: 1912 }],
]);

/** A stand-in for real work that takes a while: it stops as soon as the signal says so. */
async function longBuild(args: { target: string }, signal: AbortSignal): Promise<string> {
  for (let step = 1; step <= 3; step++) {
    signal.throwIfAborted();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return `built ${args.target}`;
}

export const server = new McpServer({ name: 'library', version: '1.0.0' });

server.resource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown', read: () => readme });
server.resourceTemplate({
  uriTemplate: 'users://{id}/profile', // RFC 6570, levels 1–3
  name: 'user-profile',
  read: (uri, { id }) => JSON.stringify(profiles.get(id ?? '')),
  complete: { id: (prefix) => [...profiles.keys()].filter((id) => id.startsWith(prefix)) },
});
server.prompt({
  name: 'review',
  arguments: [{ name: 'file', required: true }],
  get: ({ file }) => `Review ${file} for bugs.`,
});
server.tool({
  name: 'build',
  inputSchema: z.object({ target: z.string() }),
  task: 'optional', // a task for clients that declare the tasks extension, a plain call for the others
  handler: async (args, ctx) => longBuild(args, ctx.signal),
});

if (process.argv[1]?.endsWith('resources-prompts.ts')) await serveStdio(server);
