// Server names: what the prefix of every exposed name may be, and the exact error for each refusal.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkServerName, NamingError } from './index.js';

const refused = (name: string, message: string): void =>
  assert.throws(
    () => checkServerName(name),
    (error: unknown) =>
      error instanceof NamingError && error.code === 'bad-server-name' && error.message === message,
  );

describe('checkServerName', () => {
  it('accepts letters, digits, "_" and "-", up to 32 characters', () => {
    for (const name of ['fs', 'GitHub', 'a', '9', 'my-server', 'my_server', 'a__b', 'x-', 'a'.repeat(32)]) {
      assert.doesNotThrow(() => checkServerName(name), name);
    }
  });

  it('C3 refuses a name holding the separator: server a___b could shadow server a', () => {
    refused('a___b', 'server name "a___b" contains "___", the separator between server and tool names');
  });

  it('C3 refuses a trailing "_", which would run into the separator (a_ + ___ + b reads as a + ___ + _b)', () => {
    refused('a_', 'server name "a_" must not end with "_" (it would run into the "___" separator)');
  });

  it('refuses a leading "_" or "-" (a leading "-" reads as a command-line option)', () => {
    refused('_a', 'server name "_a" must start with a letter or a digit');
    refused('-a', 'server name "-a" must start with a letter or a digit');
  });

  it('refuses other characters, shown escaped so the message hides nothing', () => {
    refused('a.b', 'server name "a.b" may only contain A-Z, a-z, 0-9, "_" and "-"');
    refused('a b', 'server name "a b" may only contain A-Z, a-z, 0-9, "_" and "-"');
    refused('fs\u200d', 'server name "fs\\u200d" may only contain A-Z, a-z, 0-9, "_" and "-"');
    refused('f\u0455', 'server name "f\\u0455" may only contain A-Z, a-z, 0-9, "_" and "-"');
    refused('a\n\x1b[2J', 'server name "a\\u000a\\u001b[2J" may only contain A-Z, a-z, 0-9, "_" and "-"');
  });

  it('refuses empty and over-long names', () => {
    refused('', 'a server name must not be empty');
    refused('a'.repeat(33), `server name "${'a'.repeat(33)}" is 33 characters; at most 32 are allowed`);
  });

  it('refuses a value that is not a string (configuration read from JSON)', () => {
    assert.throws(() => checkServerName(7 as unknown as string), {
      message: 'a server name must be a string',
    });
  });
});
