// What the MCP semantic conventions record of one incoming request, read from the middleware's view: the span's name
// and attributes, and the smaller, low-cardinality set the duration histogram is split by.

import type { Attributes } from '@opentelemetry/api';
import { Attr, EXECUTE_TOOL, spanName } from '../../client/semconv.js';
import type { RequestView } from '../../server/index.js';

export interface RequestDescription {
  name: string;
  /** The span's attributes at its start. */
  span: Attributes;
  /** The histogram's: a subset without ids, session or client address, and names only of entries that exist. */
  metric: Attributes;
}

/** Longest requested name recorded for an entry the server does not have (or the caller may not see). */
const MAX_UNKNOWN_NAME = 256;

/** Longest request id recorded (JSON-RPC puts no bound on a string id). */
const MAX_ID = 128;

/** Longest resource URI recorded (the transport bounds the body, not one string in it). */
const MAX_URI = 2048;

const RESOURCE_URI_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

export function describeRequest(request: RequestView): RequestDescription {
  const method = request.method;
  const metric: Attributes = { [Attr.McpMethodName]: method };
  const params = request.params;
  const target = request.target;
  // The name in the span's name and in the histogram is the resolved entry's: a name a client merely asked for is
  // unbounded (every typo, every probe for hidden tools), and would make a series per value.
  let targetName: string | undefined;
  let requested: string | undefined;
  if (method === 'tools/call') {
    metric[Attr.GenAiOperationName] = EXECUTE_TOOL;
    if (target?.kind === 'tool') targetName = metric[Attr.GenAiToolName] = target.name;
    else if (typeof params?.name === 'string') requested = params.name;
  } else if (method === 'prompts/get') {
    if (target?.kind === 'prompt') targetName = metric[Attr.GenAiPromptName] = target.name;
    else if (typeof params?.name === 'string') requested = params.name;
  }
  const version = request.protocolVersion;
  if (version !== undefined) metric[Attr.McpProtocolVersion] = version;
  const transport = request.transport;
  if (transport.kind === 'http') {
    metric[Attr.NetworkTransport] = 'tcp';
    metric[Attr.NetworkProtocolName] = 'http';
  } else if (transport.kind === 'stdio') metric[Attr.NetworkTransport] = 'pipe';
  // memory: in-process, no network transport to name.

  const id = String(request.id);
  const span: Attributes = {
    ...metric,
    [Attr.JsonRpcRequestId]: id.length > MAX_ID ? id.slice(0, MAX_ID) : id,
  };
  if (requested !== undefined) {
    // Still conditionally required on the span: what was asked for, bounded.
    const attribute = method === 'tools/call' ? Attr.GenAiToolName : Attr.GenAiPromptName;
    span[attribute] = requested.slice(0, MAX_UNKNOWN_NAME);
  }
  if (RESOURCE_URI_METHODS.has(method) && typeof params?.uri === 'string') {
    span[Attr.McpResourceUri] = params.uri.slice(0, MAX_URI);
  }
  if (transport.kind === 'http') {
    if (transport.remoteAddress !== undefined) span[Attr.ClientAddress] = transport.remoteAddress;
    if (request.era === 'legacy') {
      const session = transport.header?.('mcp-session-id');
      if (session !== undefined) span[Attr.McpSessionId] = session;
    }
  }
  return { name: spanName(method, targetName), span, metric };
}
