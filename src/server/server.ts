// McpServer, the public face of a server: registration, extension points (middleware, visibility, handlers),
// connections and shutdown. Requests are run by the pipeline (intake.ts) with the narrow services (services.ts).

import { DEFAULT_MAX_JSON_DEPTH, encodeNotification } from '../jsonrpc/index.js';
import {
  MODERN_REVISIONS,
  Method,
  MetaKey,
  Notification,
  type Implementation,
  type Transport,
} from '../protocol/index.js';
import type { SchemaInput } from '../schema/index.js';
import { callTool } from './call-tool.js';
import { ServerConnection, type ConnectionHost, type ConnectionOptions } from './connection.js';
import { DefinitionError, stderrLogger, type Logger } from './errors.js';
import { Intake } from './intake.js';
import { initialize, setLogLevel, type ServerFacts } from './legacy.js';
import { listPrompts, listResourceTemplates, listResources, listTools } from './list-page.js';
import { RequestStateCodec } from './request-state.js';
import type { Middleware, RequestHandler } from './request-view.js';
import type { ServerServices } from './services.js';
import { listen } from './subscriptions.js';
import { SubscriptionHub, type Feature } from './subscription-hub.js';
import { complete } from './completion.js';
import { getPrompt } from './prompt-handlers.js';
import { PromptCatalog, compilePrompt, type PromptConfig } from './prompts.js';
import {
  ResourceRegistry,
  compileResource,
  compileTemplate,
  type ResourceConfig,
  type ResourceTemplateConfig,
} from './resources.js';
import { readResource, subscribeResource, unsubscribeResource } from './resource-handlers.js';
import { cancelTask, getTask, updateTask } from './tasks/task-handlers.js';
import { TASKS_EXTENSION, TaskManager } from './tasks/task-manager.js';
import { MemoryTaskStore } from './tasks/task-store.js';
import { checkCacheHints, positiveInteger, type CacheHints, type ServerOptions } from './options.js';
import { checkTimeout, type ToolConfig } from './tool-definition.js';
import { ToolRegistry, compileTool } from './tool-registry.js';
import { handleFor, type Registered, type RegisteredTool } from './registered.js';
import { capabilitiesFor, modernResultJson } from './result-json.js';
import { VisibilityRules, type VisibilityRule } from './visibility.js';

export type { Middleware, Outcome, RequestHandler } from './request-view.js';

export type { Registered, RegisteredTool } from './registered.js';

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
  readonly #connections = new Set<ServerConnection>();
  /** Capabilities beyond tools that something registered has turned on. */
  readonly #features = new Set<Feature>();
  /** The open subscriptions/listen requests. */
  readonly #subscriptions = new SubscriptionHub(this.#features);
  readonly #visibility: VisibilityRules;
  readonly #intake: Intake;
  /** What connections are given: the pipeline, limits, and a way to say they closed. */
  readonly #host: ConnectionHost;
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
    const tailFor = (cacheScope: string): string => {
      const tail = `"ttlMs":${listCache.ttlMs},"cacheScope":"${cacheScope}","resultType":"complete"`;
      return this.#resultMeta === undefined ? tail : tail + ',' + this.#resultMeta;
    };
    // Lists that depend on the caller are never shared by intermediaries (F8): their own tail says "private".
    const settings = {
      pageSize: positiveInteger(options.pageSize, 500, 'pageSize'),
      modernTail: tailFor(listCache.cacheScope),
      privateModernTail: tailFor('private'),
    };
    this.tools = new ToolRegistry(settings, () => this.#listChanged('toolsListChanged'));
    this.prompts = new PromptCatalog(settings, () => this.#listChanged('promptsListChanged'));
    this.resources = new ResourceRegistry(settings, () => this.#listChanged('resourcesListChanged'));
    this.#visibility = new VisibilityRules(() => this.#announceAll());
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
      (task) => this.#subscriptions.taskChanged(task),
      this.logger,
    );
    const services: ServerServices = {
      info,
      logger: this.logger,
      tools: this.tools,
      prompts: this.prompts,
      resources: this.resources,
      visibility: this.#visibility,
      subscriptions: this.#subscriptions,
      tasks: this.tasks,
      requestState: this.requestState,
      resourceReadCache: this.resourceReadCache,
      defaultTimeoutMs: this.defaultTimeoutMs,
      taskTimeoutMs: this.taskTimeoutMs,
      progressIntervalMs: this.progressIntervalMs,
      inputErrors: this.inputErrors,
      modernResultJson: (result) => this.#modernResultJson(result),
    };
    if (options.visibility !== undefined) this.#visibility.add(options.visibility);
    const intake = (this.#intake = new Intake(services));
    this.#host = {
      intake,
      logger: this.logger,
      maxInFlight: this.maxInFlight,
      maxJsonDepth: this.maxJsonDepth,
      closed: (connection) => {
        this.#connections.delete(connection);
        this.#subscriptions.endFor(connection);
      },
    };
    intake.handle(Method.ServerDiscover, () => this.#discover(), { legacy: false });
    intake.handle(Method.ToolsList, listTools);
    intake.handle(Method.ToolsCall, callTool);
    intake.handle(Method.SubscriptionsListen, listen, { legacy: false });
    intake.handle(Method.Initialize, (scope) => initialize(scope, this.#facts()), { modern: false });
    intake.handle(Method.Ping, () => ({}), { modern: false });
    intake.handle(Method.LoggingSetLevel, setLogLevel, { modern: false });
  }

  // ---- tools -------------------------------------------------------------------------------------------

  /** Registers a tool; a bad or duplicate definition throws a DefinitionError right here. */
  tool<I extends SchemaInput | undefined, O>(config: ToolConfig<I, O>): RegisteredTool {
    if (config.task !== undefined) this.#enable('tasks');
    const record = this.tools.addTool(config as unknown as ToolConfig); // erase the author's precise types for storage
    return handleFor(this.tools, record.name, compileTool);
  }

  /** Registers a prompt; a bad or duplicate definition throws a DefinitionError right here. */
  prompt(config: PromptConfig): Registered<PromptConfig> {
    const record = compilePrompt(config);
    this.#enable('prompts');
    return handleFor(this.prompts, this.prompts.add(record).key, compilePrompt);
  }

  /** Registers a static resource (an absolute URI). */
  resource(config: ResourceConfig): Registered<ResourceConfig> {
    const record = compileResource(config);
    this.#enable('resources');
    const catalog = this.resources.statics;
    return handleFor(catalog, catalog.add(record).key, compileResource);
  }

  /** Registers a resource template (RFC 6570 levels 1–3); reads of matching URIs go to its read function. */
  resourceTemplate(config: ResourceTemplateConfig): Registered<ResourceTemplateConfig> {
    const record = compileTemplate(config);
    this.#enable('resources');
    const catalog = this.resources.templates;
    return handleFor(catalog, catalog.add(record).key, compileTemplate);
  }

  /** Tells subscribers that a resource changed (legacy resources/subscribe and modern resourceSubscriptions). */
  notifyResourceUpdated(uri: string): void {
    let legacyMessage: string | undefined;
    for (const connection of this.#connections) {
      if (connection.legacy?.resourceSubscriptions.has(uri) === true) {
        connection.send((legacyMessage ??= encodeNotification(Notification.ResourcesUpdated, { uri })));
      }
    }
    this.#subscriptions.resourceUpdated(uri);
  }

  /** Installs the handlers of a capability the first time something of that kind is registered. */
  #enable(kind: Feature): void {
    if (this.#features.has(kind)) return;
    this.#features.add(kind);
    this.#discoverJson = undefined;
    const intake = this.#intake;
    if (kind === 'tasks') {
      const modernOnly = { legacy: false };
      intake.handle(Method.TasksGet, getTask, modernOnly);
      intake.handle(Method.TasksUpdate, updateTask, modernOnly);
      intake.handle(Method.TasksCancel, cancelTask, modernOnly);
      return;
    }
    if (kind === 'prompts') {
      intake.handle(Method.PromptsList, listPrompts);
      intake.handle(Method.PromptsGet, getPrompt);
    } else {
      intake.handle(Method.ResourcesList, listResources);
      intake.handle(Method.ResourcesTemplatesList, listResourceTemplates);
      intake.handle(Method.ResourcesRead, readResource);
      intake.handle(Method.ResourcesSubscribe, subscribeResource, { modern: false });
      intake.handle(Method.ResourcesUnsubscribe, unsubscribeResource, { modern: false });
    }
    intake.handle(Method.CompletionComplete, complete);
  }

  // ---- extension points ----------------------------------------------------------------------------------

  /**
   * Adds policy middleware around every request of every era and transport (applied in the order added, outermost
   * first). It sees a read-only view of the request, with the caller and the resolved tool, prompt or resource.
   */
  use(middleware: Middleware): this {
    this.#intake.use(middleware);
    return this;
  }

  /**
   * Adds a visibility rule: a caller sees a tool, prompt, resource or template in lists, and can call or read it,
   * only when every rule allows it. Lists become per caller (cacheScope "private"), filtered before pagination.
   */
  addVisibility(rule: VisibilityRule): this {
    this.#visibility.add(rule);
    return this;
  }

  /** Registers a handler for a method on one or both eras (resources, prompts and extensions plug in here). */
  setRequestHandler(
    method: string,
    handler: RequestHandler,
    eras: { modern?: boolean; legacy?: boolean } = {},
  ): void {
    this.#intake.handle(method, handler, eras);
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
    const connection = new ServerConnection(this.#host, transport, options);
    this.#connections.add(connection);
    return connection;
  }

  /** Ends every subscription gracefully, aborts calls in flight and closes every connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#subscriptions.endAll();
    for (const connection of [...this.#connections]) connection.close();
    this.tasks.abortAll(new Error('server closed'));
  }

  // ---- eras -----------------------------------------------------------------------------------------------

  #modernResultJson(result: object): string {
    return modernResultJson(result, this.#resultMeta, this.info);
  }

  /** server/discover: built once per change of what is registered, not per request. */
  #discover(): string {
    if (this.#discoverJson !== undefined) return this.#discoverJson;
    const capabilities = capabilitiesFor(this.#features);
    if (this.#features.has('tasks')) capabilities.extensions = { [TASKS_EXTENSION]: {} };
    this.#discoverJson = this.#modernResultJson({
      supportedVersions: [...MODERN_REVISIONS],
      capabilities,
      ...(this.#instructions !== undefined && { instructions: this.#instructions }),
      ttlMs: this.#discoverCache.ttlMs,
      cacheScope: this.#discoverCache.cacheScope,
    });
    return this.#discoverJson;
  }

  #facts(): ServerFacts {
    return {
      capabilities: capabilitiesFor(this.#features),
      serverInfo: this.info,
      instructions: this.#instructions,
    };
  }

  // ---- subscriptions and list changes -----------------------------------------------------------------------

  /** Open subscriptions/listen requests. */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
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
    this.#subscriptions.listChanged(method, filterKey);
  }

  /** A visibility rule was added: what every caller sees may have changed. */
  #announceAll(): void {
    this.#listChanged('toolsListChanged');
    if (this.#features.has('prompts')) this.#listChanged('promptsListChanged');
    if (this.#features.has('resources')) this.#listChanged('resourcesListChanged');
  }
}

type ListKind = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

const LIST_CHANGED: Record<ListKind, string> = {
  toolsListChanged: Notification.ToolsListChanged,
  promptsListChanged: Notification.PromptsListChanged,
  resourcesListChanged: Notification.ResourcesListChanged,
};
