// RFC 8707 audiences: URLs compared as URLs (upper-case scheme and host accepted, as the MCP spec asks), everything
// else exactly; a look-alike host or another path never matches.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { audienceMatcher } from './audience.js';

describe('policy bearer: audience', () => {
  const matches = audienceMatcher(['https://mcp.example.com/mcp', 'https://root.example.com', 'api://tools']);

  it('B1a: accepts the resource in any case of scheme and host, alone or in a list', () => {
    assert.ok(matches('https://mcp.example.com/mcp'));
    assert.ok(matches('HTTPS://MCP.Example.COM/mcp'));
    assert.ok(matches(['https://other.example.com', 'https://mcp.example.com:443/mcp']));
    assert.ok(matches('https://root.example.com/'));
    assert.ok(matches('api://tools'));
  });

  it('B1a: refuses another path, a look-alike host, other case in the path, non-strings and nothing', () => {
    for (const aud of [
      'https://mcp.example.com/mcp/',
      'https://mcp.example.com/MCP',
      'https://mcp.example.com.evil.com/mcp',
      'https://mcp.example.com/mcp?x',
      'http://mcp.example.com/mcp',
      'API://tools',
      ['https://other.example.com'],
      [],
      5,
      undefined,
      null,
    ]) {
      assert.equal(matches(aud), false, JSON.stringify(aud));
    }
  });
});
