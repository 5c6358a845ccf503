// The spec types this project uses, spelled as the spec spells them (schema/2026-07-28/schema.ts).

import type { JsonObject, RequestId } from '../jsonrpc/index.js';
import type { LoggingLevel } from './logging.js';

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface ClientCapabilities {
  experimental?: Record<string, JsonObject>;
  roots?: { listChanged?: boolean };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  experimental?: Record<string, JsonObject>;
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  /** 2025-11-25 only (experimental tasks): tasks/list, tasks/cancel, and which requests may be task-augmented. */
  tasks?: JsonObject;
  extensions?: Record<string, JsonObject>;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A JSON Schema object as it appears on the wire. */
export type JsonSchema = JsonObject;

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** 2025-11-25 only (experimental tasks): whether the tool may, or must, be called as a task. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  _meta?: JsonObject;
}

export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A resource as resources/list describes it. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A content block that points at a resource: the spec's ResourceLink extends Resource. */
export interface ResourceLink extends Resource {
  type: 'resource_link';
}

/** A template as resources/templates/list describes it. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: JsonObject;
}

export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** An argument a prompt takes (prompts/list). */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** One message of a prompt (prompts/get). */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** A prompt as prompts/list describes it. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}

/** The result of resources/read. */
export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: JsonObject;
}

/** The result of prompts/get. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}

export const CONTENT_TYPES: ReadonlySet<string> = new Set([
  'text',
  'image',
  'audio',
  'resource_link',
  'resource',
]);

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}

export interface ElicitRequestFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: JsonSchema;
  _meta?: JsonObject;
}

export interface ElicitRequestUrlParams {
  mode: 'url';
  message: string;
  url: string;
  elicitationId?: string;
  _meta?: JsonObject;
}

export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestUrlParams;

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  _meta?: JsonObject;
}

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: JsonObject | JsonObject[];
  _meta?: JsonObject;
}

export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: JsonObject;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  metadata?: JsonObject;
  tools?: JsonObject[];
  toolChoice?: JsonObject;
  _meta?: JsonObject;
}

export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: JsonObject | JsonObject[];
  model: string;
  stopReason?: string;
  _meta?: JsonObject;
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: JsonObject;
}

export interface ListRootsResult {
  roots: Root[];
  _meta?: JsonObject;
}

/** One entry of an InputRequiredResult's inputRequests map. */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitRequestParams }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list'; params?: JsonObject };

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** What the client told us about itself for one request (modern) or one connection (legacy). */
export interface RequestEnvelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
  progressToken: string | number | undefined;
}

export type { RequestId };
