// What every modern result and the server's self-description are made of: capabilities from what is registered,
// and `resultType` plus the serverInfo `_meta` spliced into a result once.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { MetaKey, type Implementation, type ServerCapabilities } from '../protocol/index.js';
import type { Feature } from './subscription-hub.js';

/** The capabilities a server with these features declares (tools and logging always). */
export function capabilitiesFor(features: ReadonlySet<Feature>): ServerCapabilities {
  const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  if (features.has('prompts')) capabilities.prompts = { listChanged: true };
  if (features.has('resources')) capabilities.resources = { subscribe: true, listChanged: true };
  if (features.has('prompts') || features.has('resources')) capabilities.completions = {};
  return capabilities;
}

/**
 * A modern result as JSON: `resultType` (complete unless set) and, unless `resultMeta` is undefined (turned off), the
 * serverInfo `_meta`: spliced in as the text `resultMeta` when the result has no `_meta` of its own, merged otherwise.
 */
export function modernResultJson(
  result: object,
  resultMeta: string | undefined,
  info: Implementation,
): string {
  const record = result as Record<string, unknown>;
  const own = record._meta;
  if (resultMeta === undefined || isJsonObject(own)) {
    const meta = resultMeta === undefined ? own : { ...(own as JsonObject), [MetaKey.ServerInfo]: info };
    const merged = meta === undefined ? result : { ...record, _meta: meta };
    return record.resultType === undefined
      ? JSON.stringify({ resultType: 'complete', ...merged })
      : JSON.stringify(merged);
  }
  const body = JSON.stringify(result);
  const head = record.resultType === undefined ? '{"resultType":"complete",' + resultMeta : '{' + resultMeta;
  return body === '{}' ? head + '}' : head + ',' + body.slice(1);
}
