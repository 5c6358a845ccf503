// The hash chain's definition: a record's hash is SHA-256 over the previous hash, a newline and the canonical JSON
// (RFC 8785 key order) of every other field; chained records link; any change to any field changes the hash.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { GENESIS_HASH, canonicalJson, chainEntries, recordHash } from './chain.js';
import { COLUMNS } from './columns.js';
import type { AuditEntry } from './types.js';

const entry: AuditEntry = {
  time: 1_764_230_400_000,
  requestId: '"a\\u0000"',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  method: 'tools/call',
  era: 'legacy',
  subject: 'zoë \u2028 \ud83d\ude00',
  authMethod: 'bearer',
  clientId: 'c',
  clientName: 'n',
  clientVersion: 'v',
  tool: 'write_file',
  argsDigest: 'd',
  arguments: '{"x":1}',
  decision: 'denied',
  rule: '{"code":-31003}',
  approvalId: 'ap-1',
  outcome: 'denied',
  errorCode: -31003,
  detail: 'Forbidden',
  latencyMs: 0.1 + 0.2,
  resultBytes: 12,
};

describe('audit hash chain', () => {
  it('H3 a hash is SHA-256 over prevHash, a newline and the canonical JSON of the other fields', () => {
    const [record] = chainEntries([entry], 41, GENESIS_HASH);
    assert.ok(record !== undefined);
    const { hash, prevHash, ...fields } = record;
    const expected = createHash('sha256')
      .update(prevHash)
      .update('\n')
      .update(canonicalJson(fields))
      .digest('hex');
    assert.equal(hash, expected);
    assert.equal(record.id, 42);
    assert.equal(prevHash, GENESIS_HASH);
    // Every stored column but the two hashes is covered.
    assert.deepEqual(
      Object.keys(JSON.parse(canonicalJson(fields)) as object),
      COLUMNS.map(([field]) => field as string)
        .filter((field) => field !== 'hash' && field !== 'prevHash')
        .sort(),
    );
  });

  it('H3 records link, and a change to any field changes the hash', () => {
    const records = chainEntries([entry, entry, entry], 0, GENESIS_HASH);
    assert.deepEqual(
      records.map((record) => record.id),
      [1, 2, 3],
    );
    assert.equal(records[1]?.prevHash, records[0]?.hash);
    assert.equal(records[2]?.prevHash, records[1]?.hash);
    const first = records[0];
    assert.ok(first !== undefined);
    const { hash, ...unhashed } = first;
    for (const [field] of COLUMNS) {
      if (field === 'hash') continue;
      const value = unhashed[field];
      const changed = { ...unhashed, [field]: typeof value === 'number' ? value + 1 : `${String(value)}!` };
      assert.notEqual(recordHash(changed), hash, `${field} is not covered`);
    }
  });

  it('canonical JSON sorts keys by code unit at every depth and drops undefined members', () => {
    assert.equal(
      canonicalJson({ b: [{ z: 1, a: undefined, y: null }], a: 'x', B: true, é: 1 }),
      '{"B":true,"a":"x","b":[{"y":null,"z":1}],"é":1}',
    );
  });
});
