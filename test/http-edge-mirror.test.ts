// The modern wire's mirrored headers (threat A2), split by who knows enough to check them (issue 14): the transport
// checks MCP-Protocol-Version and Mcp-Method; the pipeline checks Mcp-Name and Mcp-Param-* once it knows the tool
// (server/mirror-headers.ts), with the same -32020 messages as before. Both are pure functions, tested directly.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RpcError, type JsonObject } from '../src/jsonrpc/index.js';
import { decodeHeaderValue } from '../src/protocol/header-values.js';
import { checkMirroredHeaders, type MirroredArgument } from '../src/server/mirror-headers.js';
import { checkModernHeaders } from '../src/transports/http/mcp-headers.js';

const reader =
  (headers: Record<string, string>) =>
  (name: string): string | undefined =>
    headers[name];

const MIRRORED: readonly MirroredArgument[] = [
  { header: 'Region', path: ['region'], type: 'string' },
  { header: 'Count', path: ['count'], type: 'integer' },
  { header: 'Loud', path: ['opts', 'loud'], type: 'boolean' },
];

/** The -32020 message checkMirroredHeaders throws, or undefined when the headers mirror the body. */
function mirrorError(
  headers: Record<string, string>,
  method: string,
  params: JsonObject,
  mcpHeaders: readonly MirroredArgument[] | 'unknown tool' = MIRRORED,
): string | undefined {
  try {
    checkMirroredHeaders(
      { header: reader(headers) },
      method,
      params,
      mcpHeaders === 'unknown tool' ? undefined : mcpHeaders,
    );
    return undefined;
  } catch (error) {
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, -32020);
    return error.message;
  }
}

const b64 = (text: string): string => `=?base64?${Buffer.from(text).toString('base64')}?=`;

describe('checkMirroredHeaders: Mcp-Name (A2)', () => {
  it('A2: mirrors params.name, params.uri or params.taskId by method; padding and the Base64 form are accepted', () => {
    assert.equal(mirrorError({ 'mcp-name': ' echo\t' }, 'tools/call', { name: 'echo' }), undefined);
    assert.equal(mirrorError({ 'mcp-name': b64('grüße') }, 'prompts/get', { name: 'grüße' }), undefined);
    assert.equal(mirrorError({ 'mcp-name': 'file:///a' }, 'resources/read', { uri: 'file:///a' }), undefined);
    assert.equal(mirrorError({ 'mcp-name': 't-1' }, 'tasks/cancel', { taskId: 't-1' }), undefined);
    // Other methods mirror nothing; a missing body member is the handler's to report.
    assert.equal(mirrorError({}, 'tools/list', {}), undefined);
    assert.equal(mirrorError({}, 'tools/call', {}), undefined);
  });

  it('A2: a different name, an absent header, bad Base64 and non-ASCII are -32020 with the exact message', () => {
    assert.equal(
      mirrorError({ 'mcp-name': 'read_file' }, 'tools/call', { name: 'delete_file' }),
      'Header mismatch: Mcp-Name header value "read_file" does not match params.name "delete_file"',
    );
    assert.equal(
      mirrorError({}, 'resources/read', { uri: 'file:///a' }),
      'Header mismatch: the Mcp-Name header is missing; it must mirror params.uri',
    );
    assert.equal(
      mirrorError({ 'mcp-name': b64('read_file') }, 'tasks/get', { taskId: 'other' }),
      'Header mismatch: Mcp-Name header value "read_file" does not match params.taskId "other"',
    );
    assert.equal(
      mirrorError({ 'mcp-name': '=?base64?cmVhZA?=' }, 'tools/call', { name: 'read' }),
      'Header mismatch: Mcp-Name is not valid padded Base64 inside =?base64?…?=',
    );
    assert.equal(
      mirrorError({ 'mcp-name': 'caf\xe9' }, 'tools/call', { name: 'café' }),
      'Header mismatch: Mcp-Name contains characters other than visible ASCII, space and tab (use =?base64?…?=)',
    );
  });
});

describe('checkMirroredHeaders: Mcp-Param-* (A2)', () => {
  const call = (args: JsonObject): JsonObject => ({ name: 'mirrored', arguments: args });
  const named = (params: Record<string, string>): Record<string, string> => ({
    'mcp-name': 'mirrored',
    ...params,
  });

  it('A2: strings, integers (numerically) and nested booleans that mirror their arguments pass', () => {
    const headers = named({
      'mcp-param-region': 'us-west1',
      'mcp-param-count': '42.0',
      'mcp-param-loud': 'true',
    });
    assert.equal(
      mirrorError(headers, 'tools/call', call({ region: 'us-west1', count: 42, opts: { loud: true } })),
      undefined,
    );
    assert.equal(
      mirrorError(
        named({ 'mcp-param-region': b64('Hello, 世界') }),
        'tools/call',
        call({ region: 'Hello, 世界' }),
      ),
      undefined,
    );
    // A null argument needs no header; an unknown tool (no x-mcp-header list) checks none.
    assert.equal(mirrorError(named({}), 'tools/call', call({ region: null })), undefined);
    assert.equal(
      mirrorError(named({ 'mcp-param-region': 'x' }), 'tools/call', call({}), 'unknown tool'),
      undefined,
    );
  });

  it('A2: missing, extra and different values are -32020 with the exact message', () => {
    assert.equal(
      mirrorError(named({}), 'tools/call', call({ region: 'eu' })),
      'Header mismatch: Mcp-Param-Region is missing; it must mirror arguments.region',
    );
    assert.equal(
      mirrorError(named({ 'mcp-param-region': 'eu' }), 'tools/call', call({})),
      'Header mismatch: Mcp-Param-Region is present but arguments.region has no value',
    );
    assert.equal(
      mirrorError(named({ 'mcp-param-region': 'us' }), 'tools/call', call({ region: 'eu' })),
      'Header mismatch: Mcp-Param-Region value "us" does not match arguments.region',
    );
    assert.equal(
      mirrorError(named({ 'mcp-param-count': '0x2a' }), 'tools/call', call({ count: 42 })),
      'Header mismatch: Mcp-Param-Count value "0x2a" does not match arguments.count',
    );
    assert.equal(
      mirrorError(named({ 'mcp-param-loud': 'TRUE' }), 'tools/call', call({ opts: { loud: true } })),
      'Header mismatch: Mcp-Param-Loud value "TRUE" does not match arguments.opts.loud',
    );
  });

  it('A2: Mcp-Name is checked before the parameters', () => {
    assert.equal(
      mirrorError({ 'mcp-name': 'other' }, 'tools/call', call({ region: 'eu' })),
      'Header mismatch: Mcp-Name header value "other" does not match params.name "mirrored"',
    );
  });
});

describe('checkModernHeaders: what the transport still checks', () => {
  const request = (method: string, version = '2026-07-28') => ({
    jsonrpc: '2.0' as const,
    id: 1,
    method,
    params: { name: 'anything', _meta: { 'io.modelcontextprotocol/protocolVersion': version } },
  });
  const check = (headers: Record<string, string>, method = 'tools/call'): string | undefined => {
    try {
      checkModernHeaders(reader(headers), request(method));
      return undefined;
    } catch (error) {
      assert.ok(error instanceof RpcError);
      return error.message;
    }
  };

  it("version and method must mirror the body; Mcp-Name is no longer the transport's (no tool knowledge)", () => {
    assert.equal(check({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' }), undefined);
    assert.equal(
      check({ 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/call' }),
      'Header mismatch: MCP-Protocol-Version header value "2025-11-25" does not match _meta["io.modelcontextprotocol/protocolVersion"] "2026-07-28"',
    );
    assert.equal(
      check({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }),
      'Header mismatch: Mcp-Method header value "tools/list" does not match body method "tools/call"',
    );
    assert.equal(
      check({ 'mcp-protocol-version': '2026-07-28' }),
      'Header mismatch: the Mcp-Method header is missing',
    );
  });

  it('decodeHeaderValue: a value that is not UTF-8 once decoded is -32020', () => {
    assert.throws(() => decodeHeaderValue('Mcp-Name', '=?base64?/w==?='), {
      message: 'Header mismatch: Mcp-Name does not decode to UTF-8 text',
    });
  });
});
