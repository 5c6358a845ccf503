// toolwire.json's "gateway.pins": where the gateway's pin store is, and the errors for what is not a path.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pinStorePath } from './config.js';
import { PinError } from './types.js';

describe('pinStorePath', () => {
  test('defaults to .toolwire/pins.sqlite beside the config file', () => {
    assert.equal(pinStorePath({}, '/etc/tw'), '/etc/tw/.toolwire/pins.sqlite');
    assert.equal(pinStorePath({ gateway: {} }, '/etc/tw'), '/etc/tw/.toolwire/pins.sqlite');
    assert.equal(pinStorePath(null, '/etc/tw'), '/etc/tw/.toolwire/pins.sqlite');
  });

  test('a relative path is read from the config file directory, an absolute one as it is', () => {
    assert.equal(pinStorePath({ gateway: { pins: 'state/pins.db' } }, '/etc/tw'), '/etc/tw/state/pins.db');
    assert.equal(
      pinStorePath({ gateway: { pins: '/var/lib/tw/pins.db' } }, '/etc/tw'),
      '/var/lib/tw/pins.db',
    );
  });

  test('what is not a path is refused with the member named', () => {
    const refused = (config: unknown, message: string): void =>
      assert.throws(
        () => pinStorePath(config, '/etc/tw'),
        (error: unknown) => error instanceof PinError && error.code === 'config' && error.message === message,
      );
    const notPath = '"gateway.pins" in toolwire.json must be a file path (a non-empty string)';
    refused({ gateway: { pins: 3 } }, notPath);
    refused({ gateway: { pins: ' ' } }, notPath);
    refused({ gateway: { pins: 'a\0b' } }, notPath);
    refused({ gateway: [] }, '"gateway" in toolwire.json must be an object');
  });

  test('an inherited "pins" does not count (only the object\'s own members)', () => {
    const gateway = Object.create({ pins: '/tmp/evil.sqlite' }) as object;
    assert.equal(pinStorePath({ gateway }, '/etc/tw'), '/etc/tw/.toolwire/pins.sqlite');
  });
});
