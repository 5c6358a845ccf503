// Resources and prompts from the client side: every page of resources/list, resources/templates/list and
// prompts/list (bounded), and resources/read and prompts/get with the same input-request loop as tools/call.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import {
  Method,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '../protocol/index.js';
import { ProtocolError } from './errors.js';
import { answerAll, type InputHandlers } from './input.js';
import { ListBounds } from './list-limits.js';
import type { ClientSession } from './session.js';

export interface FeatureRequestOptions {
  signal?: AbortSignal;
  /** Rounds of input requests answered before giving up. Default 10. */
  maxInputRounds?: number;
  /** This request's own answers to the server's input requests, instead of the client's (see CallOptions.handlers). */
  handlers?: InputHandlers;
}

/** Every page of a list method; entries without the string fields `keys` names are dropped with a warning. */
export async function listAll<T>(
  client: ClientSession,
  method: string,
  field: string,
  keys: readonly string[],
  signal: AbortSignal | undefined,
): Promise<T[]> {
  const bounds = new ListBounds(method, client.options);
  const items: T[] = [];
  let cursor: string | undefined;
  let full = false;
  do {
    bounds.page();
    const page = await client.request(
      method,
      cursor === undefined ? {} : { cursor },
      signal === undefined ? {} : { signal },
    );
    const list = page[field];
    if (!Array.isArray(list)) throw new ProtocolError(`${method} answered without a ${field} array`);
    for (const item of list) {
      if (!isJsonObject(item) || !keys.every((key) => typeof item[key] === 'string')) {
        client.logger.warn(`dropped a ${method} entry without ${keys.join(' and ')}`);
      } else if (items.length >= bounds.maxItems) {
        full = true;
        break;
      } else items.push(item as T);
    }
    // A server that hands back a cursor it already gave would loop until maxPages: bounds.next stops it at once.
    cursor = full ? undefined : bounds.next(page.nextCursor);
  } while (cursor !== undefined);
  if (full) client.logger.warn(bounds.truncated());
  return items;
}

/**
 * A request that may answer `input_required` (the modern wire's multi round-trip requests): the input requests are
 * answered with the client's handlers and the request is sent again with the answers and the state, as it came.
 */
async function requestWithInput(
  client: ClientSession,
  method: string,
  params: JsonObject,
  options: FeatureRequestOptions,
): Promise<JsonObject> {
  const maxRounds = options.maxInputRounds ?? 10;
  const input = { handlers: options.handlers, signal: options.signal };
  const requestOptions = options.signal === undefined ? { input } : { signal: options.signal, input };
  let current = params;
  for (let round = 0; ; round++) {
    const result = await client.request(method, current, requestOptions);
    const kind = result.resultType ?? 'complete';
    if (kind === 'complete') {
      const { resultType: _type, ...rest } = result;
      return rest;
    }
    if (kind !== 'input_required')
      throw new ProtocolError(`${method} answered with an unknown resultType ${JSON.stringify(kind)}`);
    if (round >= maxRounds)
      throw new ProtocolError(`${method} kept asking for input after ${maxRounds} rounds`);
    const inputResponses = await answerAll(
      options.handlers ?? client.options.handlers,
      client.serverInfo,
      result.inputRequests,
      options.signal,
    );
    current = { ...params, inputResponses };
    if (typeof result.requestState === 'string') current.requestState = result.requestState;
    else if (result.requestState !== undefined) throw new ProtocolError('requestState must be a string');
  }
}

export function listResources(client: ClientSession, signal?: AbortSignal): Promise<Resource[]> {
  return listAll<Resource>(client, Method.ResourcesList, 'resources', ['uri', 'name'], signal);
}

export function listResourceTemplates(
  client: ClientSession,
  signal?: AbortSignal,
): Promise<ResourceTemplate[]> {
  return listAll<ResourceTemplate>(
    client,
    Method.ResourcesTemplatesList,
    'resourceTemplates',
    ['uriTemplate', 'name'],
    signal,
  );
}

export function listPrompts(client: ClientSession, signal?: AbortSignal): Promise<Prompt[]> {
  return listAll<Prompt>(client, Method.PromptsList, 'prompts', ['name'], signal);
}

export async function readResource(
  client: ClientSession,
  uri: string,
  options: FeatureRequestOptions = {},
): Promise<ReadResourceResult> {
  const result = await requestWithInput(client, Method.ResourcesRead, { uri }, options);
  const contents = result.contents;
  if (!Array.isArray(contents)) throw new ProtocolError(`resources/read of ${uri} answered without contents`);
  for (const item of contents) {
    const ok =
      isJsonObject(item) &&
      typeof item.uri === 'string' &&
      (typeof item.text === 'string' || typeof item.blob === 'string');
    if (!ok) {
      throw new ProtocolError(
        `resources/read of ${uri} answered a contents entry without uri and text or blob: ${JSON.stringify(item).slice(0, 120)}`,
      );
    }
  }
  return result as unknown as ReadResourceResult; // contents checked just above
}

export async function getPrompt(
  client: ClientSession,
  name: string,
  args: Record<string, string>,
  options: FeatureRequestOptions = {},
): Promise<GetPromptResult> {
  const result = await requestWithInput(client, Method.PromptsGet, { name, arguments: args }, options);
  const messages = result.messages;
  const valid =
    Array.isArray(messages) &&
    messages.every(
      (message) =>
        isJsonObject(message) &&
        (message.role === 'user' || message.role === 'assistant') &&
        isJsonObject(message.content) &&
        typeof message.content.type === 'string',
    );
  if (!valid) {
    throw new ProtocolError(`prompts/get of "${name}" answered without valid messages (role and content)`);
  }
  return result as unknown as GetPromptResult; // messages checked just above
}
