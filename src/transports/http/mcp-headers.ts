// Modern (2026-07-28) request metadata headers the transport checks: MCP-Protocol-Version and Mcp-Method must be
// present and mirror the body. Any difference, absence or malformed value is -32020 (HTTP 400). Mcp-Name and
// Mcp-Param-* depend on what the request calls, so the request pipeline checks them (server/mirror-headers.ts).

import { isJsonObject, type JsonRpcRequest } from '../../jsonrpc/index.js';
import {
  headerMismatch,
  plainHeaderValue,
  previewHeaderValue,
  type HeaderReader,
} from '../../protocol/header-values.js';
import { MODERN_REVISIONS, MetaKey } from '../../protocol/index.js';

/** Throws RpcError -32020 unless MCP-Protocol-Version and Mcp-Method are present and mirror the body. */
export function checkModernHeaders(header: HeaderReader, request: JsonRpcRequest): void {
  const versionHeader = header('mcp-protocol-version');
  if (versionHeader === undefined) {
    // Often a legacy client at a modern-only endpoint: name what is spoken here.
    throw headerMismatch(
      `the MCP-Protocol-Version header is missing (this endpoint speaks ${MODERN_REVISIONS.join(', ')} with per-request _meta)`,
    );
  }
  const version = plainHeaderValue('MCP-Protocol-Version', versionHeader);
  const meta = request.params?._meta;
  const metaVersion = isJsonObject(meta) ? meta[MetaKey.ProtocolVersion] : undefined;
  // A missing _meta version is the envelope's error (-32602), reported after the headers.
  if (typeof metaVersion === 'string' && metaVersion !== version) {
    throw headerMismatch(
      `MCP-Protocol-Version header value ${previewHeaderValue(version)} does not match _meta["${MetaKey.ProtocolVersion}"] ${previewHeaderValue(metaVersion)}`,
    );
  }
  const methodHeader = header('mcp-method');
  if (methodHeader === undefined) throw headerMismatch('the Mcp-Method header is missing');
  const method = plainHeaderValue('Mcp-Method', methodHeader);
  if (method !== request.method) {
    throw headerMismatch(
      `Mcp-Method header value ${previewHeaderValue(method)} does not match body method ${previewHeaderValue(request.method)}`,
    );
  }
}
