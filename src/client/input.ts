// Answering the server's input requests (elicitation, sampling, roots) with the application's handlers,
// for MRTR inputRequests (modern) and for server→client requests (legacy) alike.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
} from '../protocol/index.js';
import { McpError, ProtocolError } from './errors.js';

export interface InputContext {
  /** Who is asking, as the server describes itself (self-asserted). */
  server: Implementation | undefined;
  signal: AbortSignal;
}

export interface InputHandlers {
  /** Ask the user; return accept (with content), decline or cancel. */
  elicitation?: (params: ElicitRequestParams, context: InputContext) => ElicitResult | Promise<ElicitResult>;
  /** Ask the application's language model. */
  sampling?: (
    params: CreateMessageRequestParams,
    context: InputContext,
  ) => CreateMessageResult | Promise<CreateMessageResult>;
  /** The roots the application exposes. */
  roots?: (context: InputContext) => ListRootsResult | Promise<ListRootsResult>;
}

/** The capabilities a client declares for its handlers. */
export function capabilitiesFor(handlers: InputHandlers): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (handlers.elicitation !== undefined) capabilities.elicitation = {};
  if (handlers.sampling !== undefined) capabilities.sampling = {};
  if (handlers.roots !== undefined) capabilities.roots = {};
  return capabilities;
}

/** Fills fields the user left out with the defaults of the requested schema (form elicitation, SEP-1034). */
export function applyElicitationDefaults(params: ElicitRequestParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || params.mode === 'url') return result;
  const properties = (params as { requestedSchema?: JsonObject }).requestedSchema?.properties;
  if (!isJsonObject(properties)) return result;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  for (const [name, schema] of Object.entries(properties)) {
    if (content[name] === undefined && isJsonObject(schema) && schema.default !== undefined)
      content[name] = schema.default;
  }
  return { ...result, content: content as NonNullable<ElicitResult['content']> }; // defaults come from the schema
}

/** Answers one input request (method + params) with the matching handler; no handler → an error that says so. */
export async function answerInput(
  handlers: InputHandlers,
  method: string,
  params: unknown,
  context: InputContext,
): Promise<JsonObject> {
  switch (method) {
    case 'elicitation/create': {
      if (handlers.elicitation === undefined) throw missing(method, 'elicitation');
      if (!isJsonObject(params)) throw new ProtocolError('elicitation/create without params');
      const request = params as unknown as ElicitRequestParams; // shape is the server's responsibility
      const result = await handlers.elicitation(request, context);
      return applyElicitationDefaults(request, result) as unknown as JsonObject;
    }
    case 'sampling/createMessage': {
      if (handlers.sampling === undefined) throw missing(method, 'sampling');
      if (!isJsonObject(params)) throw new ProtocolError('sampling/createMessage without params');
      return (await handlers.sampling(
        params as unknown as CreateMessageRequestParams,
        context,
      )) as unknown as JsonObject;
    }
    case 'roots/list': {
      if (handlers.roots === undefined) throw missing(method, 'roots');
      return (await handlers.roots(context)) as unknown as JsonObject;
    }
    case 'ping':
      return {};
    default:
      throw new McpError({ code: -32601, message: `Method not found: ${method}` });
  }
}

/**
 * Answers a round of MRTR inputRequests (tools/call, resources/read, prompts/get and tasks alike) with the handlers,
 * keyed as the server keyed them.
 */
export async function answerAll(
  handlers: InputHandlers | undefined,
  server: Implementation | undefined,
  requests: unknown,
  signal: AbortSignal | undefined,
): Promise<JsonObject> {
  if (!isJsonObject(requests)) return {};
  const context = { server, signal: signal ?? new AbortController().signal };
  const entries = Object.entries(requests);
  const answers = await Promise.all(
    entries.map(([, request]) => {
      if (!isJsonObject(request) || typeof request.method !== 'string') {
        throw new ProtocolError('an inputRequests entry has no method');
      }
      return answerInput(handlers ?? {}, request.method, request.params, context);
    }),
  );
  return Object.fromEntries(entries.map(([key], index) => [key, answers[index]]));
}

const missing = (method: string, handler: string): McpError =>
  new McpError({
    code: -32601,
    message: `the server asked for ${method}, but this client has no ${handler} handler (pass handlers.${handler})`,
  });
