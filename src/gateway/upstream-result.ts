// What an upstream answered, handed on as a CallToolResult the gateway's server keeps as it is: the result keys the
// spec defines (content of every kind, structuredContent, isError, _meta), nothing else an upstream put beside them.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { CONTENT_TYPES, type CallToolResult, type ContentBlock } from '../protocol/index.js';

/**
 * A block of a type this gateway does not know is described in text instead of dropped (the server would otherwise
 * read the whole result as a value, not a result).
 */
function block(value: unknown, rewrite: (uri: string) => string): ContentBlock {
  if (isJsonObject(value) && typeof value.type === 'string' && CONTENT_TYPES.has(value.type)) {
    const known = value as unknown as ContentBlock; // a known type: the upstream's block, as it came
    // Resource URIs are the upstream's: rewritten, as in resources/list, so the client can read them here.
    if (known.type === 'resource_link' && typeof known.uri === 'string')
      return { ...known, uri: rewrite(known.uri) };
    if (known.type === 'resource' && isJsonObject(known.resource) && typeof known.resource.uri === 'string')
      return { ...known, resource: { ...known.resource, uri: rewrite(known.resource.uri) } };
    return known;
  }
  const type = isJsonObject(value) && typeof value.type === 'string' ? value.type : typeof value;
  return {
    type: 'text',
    text: `[a content block of type ${JSON.stringify(type).slice(0, 80)} was left out]`,
  };
}

/** The result to hand on; `rewrite` turns an upstream resource URI into the gateway's. */
export function upstreamResult(result: JsonObject, rewrite: (uri: string) => string): CallToolResult {
  const content = Array.isArray(result.content) ? result.content.map((item) => block(item, rewrite)) : [];
  const out: CallToolResult = { content };
  if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
  if (result.isError === true) out.isError = true;
  const meta = isJsonObject(result._meta) ? ownMeta(result._meta) : undefined;
  if (meta !== undefined) out._meta = meta;
  return out;
}

/**
 * The upstream's `_meta` without the keys the protocol reserves (io.modelcontextprotocol/…): those describe the
 * upstream hop (its serverInfo, its task), and the gateway's server sets its own.
 */
export function ownMeta(meta: JsonObject): JsonObject | undefined {
  const kept = Object.entries(meta).filter(([key]) => !key.startsWith('io.modelcontextprotocol/'));
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}
