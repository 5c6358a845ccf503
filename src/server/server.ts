// McpServer: the tool registry, the two dispatch tables (modern and legacy), connections and subscriptions.
// Longer than most files because every registration and dispatch path meets here; what it calls lives elsewhere.

import {
  DEFAULT_MAX_JSON_DEPTH,
  ErrorCode,
  encodeError,
  encodeNotification,
  encodeResultText,
  isJsonObject,
  type JsonObject,
  type RequestId,
} from '../jsonrpc/index.js';
import {
  MODERN_REVISIONS,
  Method,
  MetaKey,
  Notification,
  type Implementation,
  type MessageExtra,
  type ServerCapabilities,
  type Transport,
} from '../protocol/index.js';
import type { SchemaInput } from '../schema/index.js';
import { callTool } from './call-tool.js';
import { ServerConnection, type ConnectionOptions } from './connection.js';
import { DefinitionError, stderrLogger, type Logger } from './errors.js';
import { openLegacySession, setLogLevel } from './legacy.js';
import { listPrompts, listResourceTemplates, listResources, listTools } from './list-page.js';
import type { RequestScope } from './request-scope.js';
import { RequestStateCodec } from './request-state.js';
import { listen } from './subscriptions.js';
import { SubscriptionHub, type Feature } from './subscription-hub.js';
import { complete } from './completion.js';
import { PromptCatalog, compilePrompt, getPrompt, type PromptConfig } from './prompts.js';
import {
  ResourceRegistry,
  compileResource,
  compileTemplate,
  type ResourceConfig,
  type ResourceTemplateConfig,
} from './resources.js';
import { readResource, subscribeResource, unsubscribeResource } from './resource-handlers.js';
import type { Catalog, CatalogEntry } from './catalog.js';
import { cancelTask, getTask, updateTask } from './tasks/task-handlers.js';
import { TASKS_EXTENSION, TaskManager } from './tasks/task-manager.js';
import { MemoryTaskStore } from './tasks/task-store.js';
import { checkCacheHints, positiveInteger, type CacheHints, type ServerOptions } from './options.js';
import { checkTimeout, type ToolConfig } from './tool-definition.js';
import { ToolRegistry } from './tool-registry.js';

/**
 * What a request handler produces: a result object, a result already serialised, or nothing when the handler has
 * answered itself (scope.respond) or the request was cancelled. Nothing otherwise is answered -32603 (and logged).
 */
export type Outcome = object | string | undefined;
export type RequestHandler = (scope: RequestScope) => Outcome | Promise<Outcome>;
/** Policy middleware: an onion around every request handler (auth, scopes, rate limits, approval, audit). */
export type Middleware = (scope: RequestScope, next: () => Promise<Outcome>) => Promise<Outcome>;

/** A handle on a registered tool, prompt or resource, to change it at runtime (clients are told of every change). */
export interface Registered<Config> {
  /** The tool or prompt name, the resource URI or the URI template. */
  readonly name: string;
  enable(): void;
  disable(): void;
  update(changes: Partial<Config>): void;
  remove(): void;
}

export type RegisteredTool = Registered<ToolConfig>;

const REMOVED_ON_MODERN: ReadonlySet<string> = new Set([
  Method.Initialize,
  Method.Ping,
  Method.LoggingSetLevel,
  Method.ResourcesSubscribe,
  Method.ResourcesUnsubscribe,
  'tasks/result',
  'tasks/list',
]);

export class McpServer {
  readonly info: Implementation;
  readonly logger: Logger;
  readonly tools: ToolRegistry;
  readonly prompts: PromptCatalog;
  readonly resources: ResourceRegistry;
  readonly resourceReadCache: CacheHints;
  readonly tasks: TaskManager;
  readonly taskTimeoutMs: number;
  readonly requestState: RequestStateCodec;
  readonly defaultTimeoutMs: number;
  readonly progressIntervalMs: number;
  readonly maxInFlight: number;
  readonly maxJsonDepth: number;
  readonly inputErrors: 'tool' | 'protocol';
  readonly #instructions: string | undefined;
  readonly #discoverCache: CacheHints;
  /** `"_meta":{…serverInfo…}` as JSON text, spliced into every modern result; undefined when turned off. */
  readonly #resultMeta: string | undefined;
  readonly #modern = new Map<string, RequestHandler>();
  readonly #legacy = new Map<string, RequestHandler>();
  readonly #middleware: Middleware[] = [];
  readonly #connections = new Set<ServerConnection>();
  /** Capabilities beyond tools that something registered has turned on. */
  readonly #features = new Set<Feature>();
  /** @internal The open subscriptions/listen requests. */
  readonly subscriptions = new SubscriptionHub(this.#features);
  #discoverJson: string | undefined;
  readonly #changesQueued = new Set<ListKind>();
  #closed = false;

  constructor(info: Implementation, options: ServerOptions = {}) {
    if (typeof info?.name !== 'string' || typeof info.version !== 'string') {
      throw new DefinitionError('McpServer needs { name, version } (strings) describing the server');
    }
    this.info = info;
    this.logger = options.logger ?? stderrLogger;
    this.#instructions = options.instructions;
    checkTimeout(options.defaultTimeoutMs, 'server');
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 60_000;
    this.progressIntervalMs = options.progressIntervalMs ?? 25;
    this.maxInFlight = positiveInteger(options.maxInFlight, 1000, 'maxInFlight');
    this.maxJsonDepth = positiveInteger(options.maxJsonDepth, DEFAULT_MAX_JSON_DEPTH, 'maxJsonDepth');
    this.inputErrors = options.inputValidationErrors ?? 'tool';
    this.requestState = new RequestStateCodec(
      options.requestStateKey,
      positiveInteger(options.requestStateTtlMs, 600_000, 'requestStateTtlMs'),
    );
    this.#discoverCache = checkCacheHints(options.discoverCache, 'discoverCache');
    const listCache = checkCacheHints(options.listCache, 'listCache');
    this.resourceReadCache = checkCacheHints(options.resourceReadCache, 'resourceReadCache', {
      ttlMs: 0,
      cacheScope: 'private',
    });
    this.#resultMeta =
      options.serverInfoInResults === false
        ? undefined
        : '"_meta":' + JSON.stringify({ [MetaKey.ServerInfo]: info });
    const tail = `"ttlMs":${listCache.ttlMs},"cacheScope":"${listCache.cacheScope}","resultType":"complete"`;
    const pageSize = positiveInteger(options.pageSize, 500, 'pageSize');
    const modernTail = this.#resultMeta === undefined ? tail : tail + ',' + this.#resultMeta;
    this.tools = new ToolRegistry({ pageSize, modernTail }, () => this.#listChanged('toolsListChanged'));
    this.prompts = new PromptCatalog({ pageSize, modernTail }, () => this.#listChanged('promptsListChanged'));
    this.resources = new ResourceRegistry(pageSize, modernTail, () =>
      this.#listChanged('resourcesListChanged'),
    );
    checkTimeout(options.taskTimeoutMs, 'server');
    this.taskTimeoutMs = options.taskTimeoutMs ?? 3_600_000;
    const taskTtl = options.taskTtlMs === undefined ? 3_600_000 : options.taskTtlMs;
    if (taskTtl !== null) positiveInteger(taskTtl, 1, 'taskTtlMs');
    this.tasks = new TaskManager(
      options.taskStore ?? new MemoryTaskStore(),
      {
        ttlMs: taskTtl,
        pollIntervalMs: positiveInteger(options.taskPollIntervalMs, 500, 'taskPollIntervalMs'),
      },
      (task) => this.subscriptions.taskChanged(task),
      this.logger,
    );
    this.#modern.set(Method.ServerDiscover, () => this.#discover());
    this.#modern.set(Method.ToolsList, listTools);
    this.#modern.set(Method.ToolsCall, callTool);
    this.#modern.set(Method.SubscriptionsListen, listen);
    this.#legacy.set(Method.Ping, () => ({}));
    this.#legacy.set(Method.LoggingSetLevel, setLogLevel);
    this.#legacy.set(Method.ToolsList, listTools);
    this.#legacy.set(Method.ToolsCall, callTool);
  }

  // ---- tools -------------------------------------------------------------------------------------------

  /** Registers a tool; a bad or duplicate definition throws a DefinitionError right here. */
  tool<I extends SchemaInput | undefined, O>(config: ToolConfig<I, O>): RegisteredTool {
    if (config.task !== undefined) this.#enable('tasks');
    const record = this.tools.addTool(config as unknown as ToolConfig); // erase the author's precise types for storage
    let name = record.name;
    return {
      get name() {
        return name;
      },
      enable: () => this.tools.setEnabled(name, true),
      disable: () => this.tools.setEnabled(name, false),
      update: (changes) => {
        const current = this.tools.record(name);
        name = this.tools.replaceTool(name, { ...current.config, ...changes } as ToolConfig).name;
      },
      remove: () => {
        this.tools.remove(name);
      },
    };
  }

  /** Registers a prompt; a bad or duplicate definition throws a DefinitionError right here. */
  prompt(config: PromptConfig): Registered<PromptConfig> {
    const record = compilePrompt(config);
    this.#enable('prompts');
    return this.#handle(this.prompts, this.prompts.add(record).key, compilePrompt);
  }

  /** Registers a static resource (an absolute URI). */
  resource(config: ResourceConfig): Registered<ResourceConfig> {
    const record = compileResource(config);
    this.#enable('resources');
    const catalog = this.resources.statics;
    return this.#handle(catalog, catalog.add(record).key, compileResource);
  }

  /** Registers a resource template (RFC 6570 levels 1–3); reads of matching URIs go to its read function. */
  resourceTemplate(config: ResourceTemplateConfig): Registered<ResourceTemplateConfig> {
    const record = compileTemplate(config);
    this.#enable('resources');
    const catalog = this.resources.templates;
    return this.#handle(catalog, catalog.add(record).key, compileTemplate);
  }

  #handle<Config, E extends CatalogEntry & { config: Config }>(
    catalog: Catalog<E>,
    key: string,
    compile: (config: Config) => E,
  ): Registered<Config> {
    let current = key;
    return {
      get name() {
        return current;
      },
      enable: () => catalog.setEnabled(current, true),
      disable: () => catalog.setEnabled(current, false),
      update: (changes) => {
        current = catalog.replace(current, compile({ ...catalog.record(current).config, ...changes })).key;
      },
      remove: () => {
        catalog.remove(current);
      },
    };
  }

  /** Tells subscribers that a resource changed (legacy resources/subscribe and modern resourceSubscriptions). */
  notifyResourceUpdated(uri: string): void {
    let legacyMessage: string | undefined;
    for (const connection of this.#connections) {
      if (connection.legacy?.resourceSubscriptions.has(uri) === true) {
        connection.send((legacyMessage ??= encodeNotification(Notification.ResourcesUpdated, { uri })));
      }
    }
    this.subscriptions.resourceUpdated(uri);
  }

  /** Installs the handlers of a capability the first time something of that kind is registered. */
  #enable(kind: Feature): void {
    if (this.#features.has(kind)) return;
    this.#features.add(kind);
    this.#discoverJson = undefined;
    if (kind === 'tasks') {
      this.#modern.set(Method.TasksGet, getTask);
      this.#modern.set(Method.TasksUpdate, updateTask);
      this.#modern.set(Method.TasksCancel, cancelTask);
      return;
    }
    if (kind === 'prompts') {
      this.#modern.set(Method.PromptsList, listPrompts);
      this.#legacy.set(Method.PromptsList, listPrompts);
      this.#modern.set(Method.PromptsGet, getPrompt);
      this.#legacy.set(Method.PromptsGet, getPrompt);
    } else {
      this.#modern.set(Method.ResourcesList, listResources);
      this.#legacy.set(Method.ResourcesList, listResources);
      this.#modern.set(Method.ResourcesTemplatesList, listResourceTemplates);
      this.#legacy.set(Method.ResourcesTemplatesList, listResourceTemplates);
      this.#modern.set(Method.ResourcesRead, readResource);
      this.#legacy.set(Method.ResourcesRead, readResource);
      this.#legacy.set(Method.ResourcesSubscribe, subscribeResource);
      this.#legacy.set(Method.ResourcesUnsubscribe, unsubscribeResource);
    }
    this.#modern.set(Method.CompletionComplete, complete);
    this.#legacy.set(Method.CompletionComplete, complete);
    this.#discoverJson = undefined;
  }

  // ---- extension points ----------------------------------------------------------------------------------

  /** Adds policy middleware around every request handler (applied in the order added, outermost first). */
  use(middleware: Middleware): this {
    this.#middleware.push(middleware);
    return this;
  }

  /** Registers a handler for a method on one or both eras (resources, prompts and extensions plug in here). */
  setRequestHandler(
    method: string,
    handler: RequestHandler,
    eras: { modern?: boolean; legacy?: boolean } = {},
  ): void {
    if (eras.modern !== false) this.#modern.set(method, handler);
    if (eras.legacy !== false) this.#legacy.set(method, handler);
    this.#discoverJson = undefined;
  }

  // ---- connections -------------------------------------------------------------------------------------

  /** Serves one transport (stdio, in-memory, a legacy HTTP session). Resolves once the transport has started. */
  async connect(transport: Transport, options?: ConnectionOptions): Promise<ServerConnection> {
    const connection = this.createConnection(transport, options);
    transport.onmessage = (message, extra) => connection.receive(message, extra);
    transport.onclose = () => connection.close();
    transport.onerror = (error) => this.logger.warn(`transport error: ${error.message}`);
    await transport.start();
    return connection;
  }

  /** A connection without wiring: the HTTP layer feeds it messages and gives each one its reply channel. */
  createConnection(transport?: Transport, options?: ConnectionOptions): ServerConnection {
    if (this.#closed) throw new Error('the server is closed');
    const connection = new ServerConnection(this, transport, options);
    this.#connections.add(connection);
    return connection;
  }

  /** @internal called by a connection when it closes */
  detach(connection: ServerConnection): void {
    this.#connections.delete(connection);
    this.subscriptions.endFor(connection);
  }

  /** Ends every subscription gracefully, aborts calls in flight and closes every connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.subscriptions.endAll();
    for (const connection of [...this.#connections]) connection.close();
    this.tasks.abortAll(new Error('server closed'));
  }

  // ---- dispatch -------------------------------------------------------------------------------------------

  /** @internal Runs one request through middleware and its handler, and sends the response. */
  dispatch(scope: RequestScope): void {
    const table = scope.era === 'modern' ? this.#modern : this.#legacy;
    const handler = table.get(scope.method);
    if (handler === undefined) {
      scope.respond(
        encodeError(scope.id, ErrorCode.MethodNotFound, this.#notFound(scope)),
        ErrorCode.MethodNotFound,
      );
      return;
    }
    let outcome: Outcome | Promise<Outcome>;
    try {
      outcome = this.#middleware.length === 0 ? handler(scope) : this.#runMiddleware(scope, handler, 0);
    } catch (error) {
      scope.fail(error);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (value) => this.#finish(scope, value),
        (error: unknown) => scope.fail(error),
      );
    } else this.#finish(scope, outcome);
  }

  #runMiddleware(scope: RequestScope, handler: RequestHandler, index: number): Promise<Outcome> {
    const middleware = this.#middleware[index];
    if (middleware === undefined) return Promise.resolve().then(() => handler(scope));
    let called = false;
    return middleware(scope, () => {
      if (called) return Promise.reject(new Error('middleware called next() twice'));
      called = true;
      return this.#runMiddleware(scope, handler, index + 1);
    });
  }

  #finish(scope: RequestScope, outcome: Outcome): void {
    if (outcome === undefined) {
      // Nothing means the handler answered itself (scope.respond) or the request was cancelled. Anything else is a
      // handler bug, and a request must still get its answer: a stdio client would wait forever, a batch never end.
      if (!scope.done && !scope.cancelled && !scope.connection.closed) {
        scope.fail(
          new Error(
            `the handler of ${scope.method} returned nothing and sent no response; return a result object ({} when there is nothing to say)`,
          ),
        );
      }
      return;
    }
    if (typeof outcome === 'string') {
      scope.respond(encodeResultText(scope.id, outcome));
      return;
    }
    scope.respond(
      encodeResultText(
        scope.id,
        scope.era === 'modern' ? this.modernResultJson(outcome) : JSON.stringify(outcome),
      ),
    );
  }

  /** A modern result: `resultType` (complete unless set) and the serverInfo `_meta` spliced in once. */
  modernResultJson(result: object): string {
    const record = result as Record<string, unknown>;
    const own = record._meta;
    if (this.#resultMeta === undefined || isJsonObject(own)) {
      const meta =
        this.#resultMeta === undefined ? own : { ...(own as JsonObject), [MetaKey.ServerInfo]: this.info };
      const merged = meta === undefined ? result : { ...record, _meta: meta };
      return record.resultType === undefined
        ? JSON.stringify({ resultType: 'complete', ...merged })
        : JSON.stringify(merged);
    }
    const body = JSON.stringify(result);
    const head =
      record.resultType === undefined
        ? '{"resultType":"complete",' + this.#resultMeta
        : '{' + this.#resultMeta;
    return body === '{}' ? head + '}' : head + ',' + body.slice(1);
  }

  #notFound(scope: RequestScope): string {
    if (scope.era === 'modern' && REMOVED_ON_MODERN.has(scope.method)) {
      return `Method not found: ${scope.method} is not part of protocol revision ${scope.envelope.protocolVersion}`;
    }
    return `Method not found: ${scope.method}`;
  }

  // ---- eras -----------------------------------------------------------------------------------------------

  #capabilities(): ServerCapabilities {
    const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
    if (this.#features.has('prompts')) capabilities.prompts = { listChanged: true };
    if (this.#features.has('resources')) capabilities.resources = { subscribe: true, listChanged: true };
    if (this.#features.has('prompts') || this.#features.has('resources')) capabilities.completions = {};
    return capabilities;
  }

  #discover(): string {
    const capabilities = this.#capabilities();
    if (this.#features.has('tasks')) capabilities.extensions = { [TASKS_EXTENSION]: {} };
    this.#discoverJson ??= this.modernResultJson({
      supportedVersions: [...MODERN_REVISIONS],
      capabilities,
      ...(this.#instructions !== undefined && { instructions: this.#instructions }),
      ttlMs: this.#discoverCache.ttlMs,
      cacheScope: this.#discoverCache.cacheScope,
    });
    return this.#discoverJson;
  }

  /** @internal The legacy handshake: negotiate a legacy revision (never 2026-07-28) and open the session. */
  initialize(
    connection: ServerConnection,
    id: RequestId,
    params: JsonObject | undefined,
    extra: MessageExtra | undefined,
  ): void {
    openLegacySession(connection, id, params, extra, {
      capabilities: this.#capabilities(),
      serverInfo: this.info,
      instructions: this.#instructions,
    });
  }

  // ---- subscriptions and list changes -----------------------------------------------------------------------

  /** Open subscriptions/listen requests. */
  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  #listChanged(kind: ListKind): void {
    if (this.#changesQueued.size === 0) {
      // Several changes in one turn of the event loop (a batch of registrations) make one notification per list.
      queueMicrotask(() => {
        const kinds = [...this.#changesQueued];
        this.#changesQueued.clear();
        for (const queued of kinds) this.#announce(LIST_CHANGED[queued], queued);
      });
    }
    this.#changesQueued.add(kind);
  }

  #announce(
    method: string,
    filterKey: 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged',
  ): void {
    let legacyMessage: string | undefined;
    for (const connection of this.#connections) {
      if (connection.legacy?.initialized) connection.send((legacyMessage ??= encodeNotification(method)));
    }
    this.subscriptions.listChanged(method, filterKey);
  }
}

type ListKind = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

const LIST_CHANGED: Record<ListKind, string> = {
  toolsListChanged: Notification.ToolsListChanged,
  promptsListChanged: Notification.PromptsListChanged,
  resourcesListChanged: Notification.ResourcesListChanged,
};
