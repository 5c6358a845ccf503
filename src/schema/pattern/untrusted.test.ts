// compileSchema's `untrusted` (a peer's schema: the client's view of a server's outputSchema, the LLM bridge's of a
// server's inputSchema): a pattern not shown to run in linear time is refused before Ajv compiles it (C5).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema, SchemaError } from '../index.js';

const schema = {
  type: 'object',
  properties: { label: { type: 'string', pattern: '^(a+)+$' }, ok: { type: 'string', pattern: '^[a-z]+$' } },
};

describe('compileSchema: untrusted schemas', () => {
  it('C5 refuses a backtracking pattern in a peer schema, naming where it is; a tool author’s own compiles', () => {
    assert.throws(
      () => compileSchema(schema, { role: 'output', owner: 'tool "work"', untrusted: true }),
      (error: unknown) => {
        assert.ok(error instanceof SchemaError);
        assert.match(
          error.message,
          /^outputSchema of tool "work" has a pattern "\^\(a\+\)\+\$" at \/properties\/label\/pattern /,
        );
        return true;
      },
    );
    assert.ok(compileSchema(schema, { role: 'output', owner: 'tool "work"' }));
    const linear = { type: 'object', properties: { ok: { type: 'string', pattern: '^[a-z]+$' } } };
    assert.ok(compileSchema(linear, { role: 'input', owner: 'tool "work"', untrusted: true }));
  });
});
