// Fixtures for the schema scenarios (not scored yet): json-schema-2020-12 and http-custom-header-server-validation.

import { text, type McpServer } from '../../src/index.js';

/** The reference fixture's schema: 2020-12 dialect, $defs with $anchor, composition and conditional keywords. */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

export function registerSchemaTools(server: McpServer): void {
  server.tool({
    name: 'json_schema_2020_12_tool',
    description:
      'Takes arguments described with JSON Schema 2020-12 features (conformance: json-schema-2020-12).',
    inputSchema: JSON_SCHEMA_2020_12,
    handler: (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  });

  server.tool({
    name: 'test_x_mcp_header',
    description:
      'Echoes a region that clients mirror into the Mcp-Param-Region header ' +
      '(conformance: http-custom-header-server-validation).',
    inputSchema: {
      type: 'object',
      properties: {
        region: {
          type: 'string',
          description: 'A region name, mirrored into a header',
          'x-mcp-header': 'Region',
        },
      },
      required: ['region'],
    },
    handler: (args) => text(`Region: ${String(args.region)}`),
  });
}
