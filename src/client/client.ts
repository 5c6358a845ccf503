// McpClient: connects to one server, settles the era (modern first, legacy fallback), and sends requests with the
// envelope and headers that era wants. Listing and calling tools live in tools.ts and call.ts.

import { isJsonObject, type JsonObject, type JsonRpcRequest } from '../jsonrpc/index.js';
import {
  LEGACY_REVISIONS,
  LATEST_LEGACY_REVISION,
  MODERN_REVISION,
  MetaKey,
  Method,
  Notification,
  isLegacyRevision,
  type ClientCapabilities,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Implementation,
  type ServerCapabilities,
  type Tool,
  type Transport,
  TransportError,
} from '../protocol/index.js';
import { callTool, type CallOptions, type CallToolOutcome } from './call.js';
import { Channel, type ChannelLogger, type InputOwner, type RequestOptions } from './channel.js';
import { ConnectionClosedError, McpError, ProtocolError } from './errors.js';
import { encodeHeaderValue, nameFor } from './headers.js';
import { answerInput, capabilitiesFor } from './input.js';
import type { ClientOptions, Era } from './options.js';
import {
  getPrompt,
  listPrompts,
  listResourceTemplates,
  listResources,
  readResource,
  type FeatureRequestOptions,
} from './resources-prompts.js';
import { resolveRetry, SAFE_TO_REPEAT, type RetryPolicy } from './retry.js';
import type { ClientRequestOptions, ClientSession } from './session.js';
import { clientTelemetry, type ClientTelemetry } from './telemetry.js';
import { stderrLogger } from './stderr-logger.js';
import { ToolCache } from './tools.js';

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export class McpClient implements ClientSession {
  readonly info: Implementation;
  readonly options: Readonly<ClientOptions>;
  readonly capabilities: ClientCapabilities;
  readonly logger: ChannelLogger;
  readonly tools: ToolCache;
  readonly #retry: RetryPolicy | undefined;
  #channel: Channel | undefined;
  #era: Era | undefined;
  #version: string | undefined;
  #serverInfo: Implementation | undefined;
  #serverCapabilities: ServerCapabilities = {};
  #instructions: string | undefined;
  #listen: AbortController | undefined;
  readonly #changeListeners = new Set<() => void>();
  readonly #notificationListeners = new Map<string, Set<(params: JsonObject | undefined) => void>>();
  readonly #telemetry: ClientTelemetry | undefined;

  constructor(info: Implementation, options: ClientOptions = {}) {
    this.info = info;
    this.options = options;
    this.logger = options.logger ?? stderrLogger;
    this.#retry = resolveRetry(options.retry);
    const capabilities: ClientCapabilities = {
      ...capabilitiesFor(options.handlers ?? {}),
      ...options.capabilities,
    };
    if (options.tasks !== false) {
      capabilities.extensions = { ...(capabilities.extensions ?? {}), [TASKS_EXTENSION]: {} };
    }
    this.capabilities = capabilities;
    this.tools = new ToolCache(this);
    this.#telemetry = clientTelemetry(options.telemetry);
  }

  get era(): Era | undefined {
    return this.#era;
  }
  get protocolVersion(): string | undefined {
    return this.#version;
  }
  get serverInfo(): Implementation | undefined {
    return this.#serverInfo;
  }
  get serverCapabilities(): ServerCapabilities {
    return this.#serverCapabilities;
  }
  get instructions(): string | undefined {
    return this.#instructions;
  }
  get transport(): Transport | undefined {
    return this.#channel?.transport;
  }
  get serverName(): string {
    return this.options.serverName ?? this.#serverInfo?.name ?? 'server';
  }

  /** Starts the transport and settles the era: the same API follows, whatever the server speaks. */
  async connect(transport: Transport): Promise<void> {
    if (this.#channel !== undefined) throw new Error('this client is already connected');
    const channel = new Channel(transport, this.logger);
    this.#channel = channel;
    channel.onnotification = (method, params) => this.#notification(method, params);
    channel.onrequest = (request, owner) => this.#serverRequest(request, owner);
    await transport.start();
    const era = this.options.era ?? 'auto';
    if (era === 'legacy' || !(await this.#tryModern(era === 'modern'))) await this.#initialize();
    if (this.options.listenForChanges !== false) this.#startListening();
  }

  /** server/discover with our modern version; true when the server is modern. Falls back on anything unrecognised. */
  async #tryModern(required: boolean): Promise<boolean> {
    const version = MODERN_REVISION;
    let networkFailures = 0;
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        const overHttp = this.#requireChannel().transport.closesStreamToCancel === true;
        const timeoutMs =
          this.options.discoverTimeoutMs ?? (overHttp ? (this.options.timeoutMs ?? 60_000) : 5000);
        const result = await this.#send(Method.ServerDiscover, {}, { timeoutMs }, version);
        const supported = Array.isArray(result.supportedVersions) ? result.supportedVersions : [version];
        if (!supported.includes(version)) {
          throw new ProtocolError(
            `the server supports ${supported.join(', ')}; this client speaks ${MODERN_REVISION}`,
          );
        }
        this.#adoptModern(version, result);
        return true;
      } catch (caught) {
        const error = asServerError(caught);
        // A dropped connection says nothing about the era: ask again (the retry policy already did, when there is one).
        const network = error instanceof TransportError && error.status === undefined;
        if (network && this.#retry === undefined && ++networkFailures <= 2) continue;
        if (error instanceof McpError && error.code === -32022) {
          // A modern server that wants another version: retry with one we share, or stop (never fall back).
          const supported =
            isJsonObject(error.data) && Array.isArray(error.data.supported) ? error.data.supported : [];
          if (supported.includes(version) && attempt < 3) continue;
          if (supported.some((v) => isLegacyRevision(v))) return false;
          throw new ProtocolError(
            `no protocol version in common: the server supports ${supported.join(', ') || 'none it named'}`,
          );
        }
        if (error instanceof McpError && isModernError(error)) {
          throw new ProtocolError(`the server rejected server/discover: ${error.message}`);
        }
        if (required || (error instanceof TransportError && error.status === undefined)) throw error;
        return false; // anything else (other codes, no answer, HTTP errors without a modern body): a legacy server
      }
    }
    return false;
  }

  #adoptModern(version: string, discover: JsonObject): void {
    this.#era = 'modern';
    this.#version = version;
    this.#serverCapabilities = isJsonObject(discover.capabilities)
      ? (discover.capabilities as ServerCapabilities)
      : {};
    const meta = discover._meta;
    const info = isJsonObject(meta) ? meta[MetaKey.ServerInfo] : undefined;
    if (isJsonObject(info)) this.#serverInfo = info as unknown as Implementation;
    if (typeof discover.instructions === 'string') this.#instructions = discover.instructions;
  }

  async #initialize(): Promise<void> {
    this.#era = 'legacy';
    const capabilities = { ...this.capabilities };
    delete capabilities.extensions; // extensions are a modern-wire concept
    const result = await this.#send(Method.Initialize, {
      protocolVersion: LATEST_LEGACY_REVISION,
      capabilities,
      clientInfo: this.info,
    });
    const version = result.protocolVersion;
    if (!isLegacyRevision(version)) {
      await this.close();
      throw new ProtocolError(
        `the server chose protocol version ${JSON.stringify(version)}, which this client does not speak (${LEGACY_REVISIONS.join(', ')})`,
      );
    }
    this.#version = version;
    this.#serverCapabilities = isJsonObject(result.capabilities)
      ? (result.capabilities as ServerCapabilities)
      : {};
    if (isJsonObject(result.serverInfo)) this.#serverInfo = result.serverInfo as unknown as Implementation;
    if (typeof result.instructions === 'string') this.#instructions = result.instructions;
    const transport = this.#requireChannel().transport;
    transport.setProtocolVersion?.(version);
    this.#requireChannel().notify(Notification.Initialized);
    transport.openEventStream?.();
  }

  #requireChannel(): Channel {
    if (this.#channel === undefined) throw new Error('the client is not connected: call connect() first');
    if (this.#channel.closed) throw new ConnectionClosedError();
    return this.#channel;
  }

  /**
   * Sends a request the way the era wants it: modern requests carry the _meta envelope and, on HTTP, the
   * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers (plus `headers`).
   */
  request(method: string, params: JsonObject = {}, options: ClientRequestOptions = {}): Promise<JsonObject> {
    return this.#send(method, params, options, this.#era === 'legacy' ? undefined : this.#version);
  }

  #send(
    method: string,
    params: JsonObject,
    options: ClientRequestOptions = {},
    modernVersion?: string,
  ): Promise<JsonObject> {
    let channel: Channel;
    try {
      channel = this.#requireChannel();
    } catch (error) {
      return Promise.reject(error); // a request never throws synchronously
    }
    const closesStream = channel.transport.closesStreamToCancel === true;
    let body = params;
    let headers = options.headers;
    if (modernVersion !== undefined) {
      body = {
        ...params,
        _meta: {
          ...((params._meta as JsonObject | undefined) ?? {}),
          [MetaKey.ProtocolVersion]: modernVersion,
          [MetaKey.ClientCapabilities]: this.capabilities,
          [MetaKey.ClientInfo]: this.info,
        },
      };
      if (closesStream) {
        headers = { ...headers, 'MCP-Protocol-Version': modernVersion, 'Mcp-Method': method };
        const name = nameFor(method, params);
        if (name !== undefined) headers['Mcp-Name'] = encodeHeaderValue(name);
      }
    }
    const requestOptions: RequestOptions = {
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? 60_000,
      cancelByClosingStream: closesStream && modernVersion !== undefined,
    };
    if (headers !== undefined) requestOptions.headers = headers;
    if (options.signal !== undefined) requestOptions.signal = options.signal;
    if (options.onProgress !== undefined) requestOptions.onProgress = options.onProgress;
    if (options.resetTimeoutOnProgress !== undefined)
      requestOptions.resetTimeoutOnProgress = options.resetTimeoutOnProgress;
    if (options.maxTotalTimeoutMs !== undefined) requestOptions.maxTotalTimeoutMs = options.maxTotalTimeoutMs;
    if (options.input !== undefined) requestOptions.input = options.input;
    if (this.#retry !== undefined && (options.idempotent ?? SAFE_TO_REPEAT.has(method)))
      requestOptions.retry = this.#retry;
    const telemetry = this.#telemetry;
    if (telemetry === undefined) return channel.request(method, body, requestOptions);
    return telemetry.request(
      method,
      body,
      modernVersion ?? this.#version,
      channel.transport,
      (traced, onId) => channel.request(method, traced, { ...requestOptions, onId }),
    );
  }

  /** All tools (every page, bounded), from the cache while it is fresh. Invalid x-mcp-header tools are dropped. */
  listTools(options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<Tool[]> {
    return this.tools.list(options);
  }

  /** Calls a tool: approval, time limits, cancellation, progress, input requests, tasks, output validation, audit. */
  callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<CallToolOutcome> {
    return callTool(this, name, args, options);
  }

  /** All resources (every page, bounded). Not cached: resources change more often than tools. */
  listResources(options: { signal?: AbortSignal } = {}): Promise<Resource[]> {
    return listResources(this, options.signal);
  }

  /** All resource templates (every page, bounded). */
  listResourceTemplates(options: { signal?: AbortSignal } = {}): Promise<ResourceTemplate[]> {
    return listResourceTemplates(this, options.signal);
  }

  /** Reads one resource; input requests the server makes on the way are answered with the handlers. */
  readResource(uri: string, options: FeatureRequestOptions = {}): Promise<ReadResourceResult> {
    return readResource(this, uri, options);
  }

  /** All prompts (every page, bounded). */
  listPrompts(options: { signal?: AbortSignal } = {}): Promise<Prompt[]> {
    return listPrompts(this, options.signal);
  }

  /** Gets a prompt's messages for the given (string) arguments. */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: FeatureRequestOptions = {},
  ): Promise<GetPromptResult> {
    return getPrompt(this, name, args, options);
  }

  /** Called when the server's tool list changes (legacy notification or subscriptions/listen). */
  onToolsChanged(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** Calls `listener` with the params of each notification `method` the server sends; returns the way to stop. */
  onNotification(method: string, listener: (params: JsonObject | undefined) => void): () => void {
    const listeners = this.#notificationListeners.get(method) ?? new Set();
    this.#notificationListeners.set(method, listeners);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#notificationListeners.delete(method);
    };
  }

  #notification(method: string, params: JsonObject | undefined): void {
    for (const listener of this.#notificationListeners.get(method) ?? []) {
      try {
        listener(params);
      } catch (error) {
        this.logger.warn(`a ${method} listener threw: ${(error as Error).message}`);
      }
    }
    if (method !== Notification.ToolsListChanged) return;
    this.tools.invalidate();
    for (const listener of this.#changeListeners) listener();
  }

  /** A server→client request (legacy wire): the handlers of the call it belongs to, else the client's own. */
  async #serverRequest(request: JsonRpcRequest, owner: InputOwner | undefined): Promise<JsonObject> {
    const handlers = owner?.handlers ?? this.options.handlers ?? {};
    const signal = owner?.signal ?? new AbortController().signal;
    return answerInput(handlers, request.method, request.params, { server: this.#serverInfo, signal });
  }

  /** A long-lived subscriptions/listen (modern) so list changes reach us; reopened a few times if it drops. */
  #startListening(attempt = 0): void {
    if (this.#era !== 'modern' || this.#serverCapabilities.tools?.listChanged !== true || attempt >= 5)
      return;
    const controller = new AbortController();
    this.#listen = controller;
    this.request(
      Method.SubscriptionsListen,
      { notifications: { toolsListChanged: true } },
      { timeoutMs: 0, signal: controller.signal },
    )
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (controller.signal.aborted || this.#channel?.closed !== false) return;
        setTimeout(() => this.#startListening(attempt + 1), 1000 * 2 ** attempt).unref();
      });
  }

  /** Ends the listen stream and the transport (a stdio server is asked to exit, then terminated). */
  async close(): Promise<void> {
    this.#listen?.abort();
    await this.#channel?.close();
  }
}

/** An HTTP error whose body is a JSON-RPC error without an id still says what the server is: read it as one. */
function asServerError(error: unknown): unknown {
  if (!(error instanceof TransportError) || error.body === undefined) return error;
  try {
    const body = JSON.parse(error.body) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const inner = body.error;
    if (inner !== undefined && typeof inner.code === 'number' && typeof inner.message === 'string') {
      return new McpError({ code: inner.code, message: inner.message, data: inner.data }, error.status);
    }
  } catch {
    // not JSON: the transport error stands
  }
  return error;
}

/** Errors only a modern server sends: header mismatch, missing capability, unsupported version, or -32601 on 404. */
const isModernError = (error: McpError): boolean =>
  error.code === -32020 ||
  error.code === -32021 ||
  error.code === -32022 ||
  (error.code === -32601 && error.httpStatus === 404);
