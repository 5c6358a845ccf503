// The tool definitions each API takes, as plain duck-typed shapes (assignable to the official SDKs' request types,
// which this library never imports).

import type { JsonObject } from '../jsonrpc/index.js';
import type { Api, ProfileId } from './profiles.js';

/** Chat Completions: `tools: [{ type: "function", function: { name, description, parameters, strict } }]`. */
export interface ChatToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonObject; strict: boolean };
}

/** Responses: flat, and `strict` defaults to true there, so it is always written out. */
export interface ResponsesToolDefinition {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonObject;
  strict: boolean;
}

/** Anthropic's input_schema: an object at the root, as its type says. */
export interface AnthropicInputSchema {
  type: 'object';
  properties?: JsonObject;
  required?: string[];
  [keyword: string]: unknown;
}

/** Messages: `tools: [{ name, description, input_schema, strict? }]`. */
export interface AnthropicToolDefinition {
  name: string;
  description?: string;
  input_schema: AnthropicInputSchema;
  strict?: boolean;
}

export type ToolDefinition = ChatToolDefinition | ResponsesToolDefinition | AnthropicToolDefinition;

export type DefinitionFor<P extends ProfileId> = P extends 'anthropic' | 'anthropic-strict'
  ? AnthropicToolDefinition
  : P extends 'openai-chat' | 'openai-chat-strict'
    ? ChatToolDefinition
    : ResponsesToolDefinition;

export function definitionFor(
  api: Api,
  name: string,
  description: string | undefined,
  schema: JsonObject,
  strict: boolean,
): ToolDefinition {
  const described = description === undefined || description === '' ? {} : { description };
  switch (api) {
    case 'chat':
      return { type: 'function', function: { name, ...described, parameters: schema, strict } };
    case 'responses':
      return { type: 'function', name, ...described, parameters: schema, strict };
    case 'messages':
      return {
        name,
        ...described,
        input_schema: schema as AnthropicInputSchema, // the compiler made the root an object
        ...(strict ? { strict: true } : {}),
      };
  }
}
