// Tool schemas as real servers write them, for the model-API bridge tests: server-filesystem-like (Zod), FastMCP
// (Python) optional parameters, GitHub-MCP-like schemas with formats and $refs, and deliberately hostile ones.

import type { Tool } from '../src/protocol/index.js';

const draft7 = 'http://json-schema.org/draft-07/schema#';

/** Shaped like @modelcontextprotocol/server-filesystem's tools (zod-to-json-schema output). */
export const FILESYSTEM: Tool[] = [
  {
    name: 'read_text_file',
    description: 'Read the complete contents of a file from the file system as text.',
    inputSchema: {
      $schema: draft7,
      type: 'object',
      properties: {
        path: { type: 'string' },
        tail: { type: 'number', description: 'If provided, returns only the last N lines of the file' },
        head: { type: 'number', description: 'If provided, returns only the first N lines of the file' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'edit_file',
    description: 'Make line-based edits to a text file.',
    inputSchema: {
      $schema: draft7,
      type: 'object',
      properties: {
        path: { type: 'string' },
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              oldText: { type: 'string', description: 'Text to search for - must match exactly' },
              newText: { type: 'string', description: 'Text to replace with' },
            },
            required: ['oldText', 'newText'],
            additionalProperties: false,
          },
        },
        dryRun: {
          type: 'boolean',
          default: false,
          description: 'Preview changes using git-style diff format',
        },
      },
      required: ['path', 'edits'],
      additionalProperties: false,
    },
  },
  {
    name: 'read_multiple_files',
    inputSchema: {
      type: 'object',
      properties: { paths: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['paths'],
    },
  },
  {
    name: 'search_files',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        pattern: { type: 'string' },
        excludePatterns: { type: 'array', items: { type: 'string' }, default: [] },
      },
      required: ['path', 'pattern'],
    },
  },
  { name: 'list_allowed_directories', inputSchema: { type: 'object', properties: {}, required: [] } },
];

/** FastMCP (Python, Pydantic) optional parameters: `anyOf` with null, `default: null`, titles everywhere. */
export const FASTMCP: Tool[] = [
  {
    name: 'search_notes',
    inputSchema: {
      type: 'object',
      title: 'search_notesArguments',
      properties: {
        query: { title: 'Query', type: 'string' },
        limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null, title: 'Limit' },
        tags: {
          anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }],
          default: null,
          title: 'Tags',
        },
        since: {
          anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
          default: null,
          title: 'Since',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'create_event',
    inputSchema: {
      type: 'object',
      $defs: {
        Attendee: {
          type: 'object',
          title: 'Attendee',
          properties: {
            email: { type: 'string', format: 'email', title: 'Email' },
            optional: { type: 'boolean', default: false, title: 'Optional' },
          },
          required: ['email'],
        },
      },
      properties: {
        title: { type: 'string', title: 'Title' },
        attendees: { type: 'array', items: { $ref: '#/$defs/Attendee' }, title: 'Attendees' },
        location: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Location' },
      },
      required: ['title', 'attendees'],
    },
  },
];

/** Shaped like github-mcp-server's tools: formats, enums, nested $defs and refs, pagination parameters. */
export const GITHUB: Tool[] = [
  {
    name: 'github___create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: {
      type: 'object',
      $defs: {
        label: { type: 'string', minLength: 1, maxLength: 50 },
        milestone: {
          type: 'object',
          properties: { number: { type: 'integer', minimum: 1 } },
          required: ['number'],
        },
      },
      properties: {
        owner: { type: 'string', description: 'Repository owner', pattern: '^[A-Za-z0-9-]+$' },
        repo: { type: 'string', description: 'Repository name' },
        title: { type: 'string', minLength: 1 },
        body: { type: 'string' },
        labels: { type: 'array', items: { $ref: '#/$defs/label' }, maxItems: 20, uniqueItems: true },
        milestone: { $ref: '#/$defs/milestone' },
        html_url: { type: 'string', format: 'uri' },
        due: { type: 'string', format: 'date' },
      },
      required: ['owner', 'repo', 'title'],
    },
  },
  {
    name: 'github___list_commits',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        since: { type: 'string', format: 'date-time' },
        page: { type: 'number', minimum: 1 },
        perPage: { type: 'number', minimum: 1, maximum: 100 },
        state: { type: 'string', enum: ['open', 'closed', 'all'], default: 'open' },
      },
      required: ['owner', 'repo'],
    },
  },
  {
    name: 'github___search_code',
    inputSchema: {
      type: 'object',
      properties: {
        q: { type: 'string' },
        sort: { type: 'string', enum: ['indexed'] },
        order: { enum: ['asc', 'desc'] },
      },
      required: ['q'],
      anyOf: [{ required: ['q'] }],
    },
  },
];

const nested = (levels: number): Record<string, unknown> =>
  levels === 0
    ? { type: 'string' }
    : { type: 'object', properties: { next: nested(levels - 1) }, required: ['next'] };

/** What hostile or careless servers send. */
export const HOSTILE: Tool[] = [
  {
    name: 'pick_target',
    description: 'A discriminated union at the root (Zod produces this).',
    inputSchema: {
      anyOf: [
        {
          type: 'object',
          properties: { kind: { const: 'file' }, path: { type: 'string' } },
          required: ['kind', 'path'],
        },
        {
          type: 'object',
          properties: { kind: { const: 'url' }, url: { type: 'string', format: 'uri' } },
          required: ['kind', 'url'],
        },
      ],
    } as Tool['inputSchema'],
  },
  {
    name: 'jsonapi_filter',
    inputSchema: {
      type: 'object',
      properties: {
        'filter[id]': { type: 'string' },
        'filter[name]': { type: 'string' },
        'page[size]': { type: 'integer' },
        ['x'.repeat(70)]: { type: 'boolean' },
      },
      required: ['filter[id]'],
    },
  },
  { name: `tool_${'very_long_name_'.repeat(5)}`, inputSchema: { type: 'object', properties: {} } },
  { name: 'deep', description: '12 levels of nesting.', inputSchema: nested(11) as Tool['inputSchema'] },
  {
    name: 'tree',
    inputSchema: {
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
      properties: { root: { $ref: '#/$defs/node' } },
    },
  },
  {
    name: 'remote_ref',
    inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } },
  },
  { name: 'not_object', inputSchema: { type: 'array', items: { type: 'string' } } as Tool['inputSchema'] },
  { name: 'free_form', inputSchema: { type: 'object', additionalProperties: true } },
  {
    name: 'everything_at_once',
    inputSchema: {
      type: 'object',
      properties: {
        when: { if: { type: 'string' }, then: { minLength: 2 }, else: { type: 'number' } },
        tuple: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
        choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } } },
            { type: 'object', properties: { b: { type: 'string' } } },
          ],
        },
        tags: { type: 'array' },
        notnull: { not: { type: 'null' } },
      },
    },
  },
  { name: 'same.name', inputSchema: { type: 'object' } },
  { name: 'same_name', inputSchema: { type: 'object' } },
  { name: 'same/name', inputSchema: { type: 'object' } },
];
