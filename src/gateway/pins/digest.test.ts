// The pinned digest: RFC 8785 canonical JSON of the six pinned fields, nothing else, in any key order.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Tool } from '../../protocol/index.js';
import { definitionDigest, pinnedDefinition, prettyDefinition } from './digest.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('definitionDigest', () => {
  test('is SHA-256 of the canonical JSON: keys in code-unit order, no whitespace', () => {
    const tool: Tool = {
      name: 'echo',
      inputSchema: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } } },
      description: 'Echoes',
      annotations: { readOnlyHint: true },
    };
    const canonical =
      '{"annotations":{"readOnlyHint":true},"description":"Echoes","inputSchema":{"properties":' +
      '{"a":{"type":"number"},"b":{"type":"string"}},"type":"object"},"name":"echo"}';
    assert.equal(definitionDigest(tool), sha256(canonical));
  });

  test('does not depend on key order', () => {
    const one: Tool = { name: 'x', description: 'd', inputSchema: { type: 'object', required: ['a'] } };
    const two = JSON.parse(
      '{"inputSchema":{"required":["a"],"type":"object"},"description":"d","name":"x"}',
    ) as Tool;
    assert.equal(definitionDigest(one), definitionDigest(two));
  });

  test('leaves out icons, execution and _meta, and an undefined member is absent', () => {
    const plain: Tool = { name: 'x', inputSchema: { type: 'object' } };
    const extra = {
      ...plain,
      title: undefined, // what a caller building a Tool by hand may leave in

      icons: [{ src: 'https://example.com/i.png' }],
      execution: { taskSupport: 'optional' },
      _meta: { 'example.com/rev': 7 },
    };
    assert.equal(definitionDigest(extra as unknown as Tool), definitionDigest(plain)); // cast: the undefined title
    assert.deepEqual(pinnedDefinition(extra as unknown as Tool), plain);
  });

  test('every pinned field counts: title, outputSchema and annotations too', () => {
    const base: Tool = { name: 'x', inputSchema: { type: 'object' } };
    const digests = new Set([
      definitionDigest(base),
      definitionDigest({ ...base, title: 'X' }),
      definitionDigest({ ...base, description: 'X' }),
      definitionDigest({ ...base, outputSchema: { type: 'object' } }),
      definitionDigest({ ...base, annotations: {} }),
      definitionDigest({ ...base, name: 'y' }),
    ]);
    assert.equal(digests.size, 6);
  });

  test('the pretty form is indented canonical JSON', () => {
    const tool: Tool = { name: 'x', inputSchema: { type: 'object' }, description: 'd' };
    assert.equal(
      prettyDefinition(tool),
      '{\n  "description": "d",\n  "inputSchema": {\n    "type": "object"\n  },\n  "name": "x"\n}',
    );
  });
});
