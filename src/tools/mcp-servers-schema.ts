// The JSON Schema of toolwire.json's "mcpServers" (read by the client commands, not by `toolwire serve`): kept beside
// the other config schemas so the whole file has one schema; test/config-schema.test.ts holds it to the CLI's reader.

import type { JsonSchema } from './config-reader.js';
import { GATEWAY_ENTRY_PROPERTIES } from './gateway-schema.js';

const stringMap = (description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: { type: 'string' },
  description,
});

/** One entry: a stdio server ("command") or an HTTP one ("url"); unknown keys are warned about and ignored. */
export const MCP_SERVER_ENTRY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    command: { type: 'string', minLength: 1, description: 'The program to start; it speaks MCP on stdio.' },
    args: {
      type: 'array',
      items: { type: 'string' },
      description: 'Its arguments, passed as they are (no shell).',
    },
    env: stringMap(
      'Environment variables for the server, on top of a minimal environment (PATH, HOME, USER, LANG, …): the secrets of your shell do not reach it.',
    ),
    cwd: { type: 'string', description: 'The directory it starts in, relative to where toolwire runs.' },
    url: { type: 'string', minLength: 1, description: 'A Streamable HTTP endpoint (http:// or https://).' },
    headers: stringMap('HTTP headers sent with every request (for example Authorization).'),
    trusted: {
      type: 'boolean',
      description:
        "Count the server's annotations (read-only tools then run without confirmation). Default false.",
    },
    type: {
      type: 'string',
      description:
        'What other clients write ("stdio", "http", "sse"); toolwire tells the kind by "command" or "url".',
    },
    ...GATEWAY_ENTRY_PROPERTIES,
  },
  additionalProperties: false,
  anyOf: [{ required: ['command'] }, { required: ['url'] }],
};

export const MCP_SERVERS_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: MCP_SERVER_ENTRY_SCHEMA,
  default: {},
  description:
    'Servers that `toolwire list NAME` and `toolwire call NAME …` reach by name, in the shape Claude Desktop and Cursor use, and that `toolwire gateway` serves behind one endpoint. `toolwire serve` does not read it.',
};
