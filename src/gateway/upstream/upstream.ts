// One upstream of the gateway (an mcpServers entry), reached through toolwire's own client: connects on start,
// restarts after a crash or a dropped connection with backoff, refuses fast while its circuit is open, bounds every
// listing in time, reports list changes (debounced), and on close leaves no child process behind.

import { McpClient, RequestAbortedError, type ClientOptions } from '../../client/index.js';
import {
  Notification,
  TransportError,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
  type Transport,
} from '../../protocol/index.js';
import { StdioClientTransport } from '../../transports/stdio/index.js';
import { backoffDelay, resolveRestart, type RestartOptions } from './backoff.js';
import { CHANGE_KINDS, ChangeEvents, type ChangeKind } from './changes.js';
import { CircuitBreaker } from './circuit.js';
import {
  checkUpstreamConfig,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_LIST_TIMEOUT_MS,
  type UpstreamConfig,
} from './config.js';
import { upstreamAuth, type UpstreamAuth } from './credentials.js';
import { UpstreamTimeout, UpstreamUnavailable } from './errors.js';
import { isUpstreamFailure, messageOf } from './failures.js';
import type { UpstreamHealth, UpstreamOptions } from './options.js';
import { realScheduler, type Scheduler } from './scheduler.js';
import { untilAborted, withTimeLimit } from './time-limit.js';
import { createUpstreamTransport, watchClose } from './transport.js';

type Phase = 'idle' | 'connecting' | 'ready' | 'backoff' | 'closed';

const DEFAULT_DEBOUNCE_MS = 250;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CLOSE_TIMEOUT_MS = 2000;

export class Upstream {
  readonly name: string;
  readonly config: Readonly<UpstreamConfig>;
  readonly #options: UpstreamOptions;
  readonly #scheduler: Scheduler;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #restart: Required<RestartOptions>;
  readonly #breaker: CircuitBreaker;
  readonly #changes: ChangeEvents;
  /** The listing under way per method (tools/list…), shared by concurrent callers. At most four entries. */
  readonly #listings = new Map<string, Promise<unknown>>();
  #phase: Phase = 'idle';
  /** Bumped by every connection attempt and by close: late events of an older attempt are ignored. */
  #generation = 0;
  #auth: UpstreamAuth | undefined;
  #client: McpClient | undefined;
  #transport: Transport | undefined;
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #retryTimer: unknown;
  #attempt = 0;
  #connections = 0;
  #restarts = 0;
  #readyAt = 0;
  #nextAttemptAt: number | undefined;
  #lastError: string | undefined;
  #tools = 0;

  constructor(config: UpstreamConfig, options: UpstreamOptions) {
    checkUpstreamConfig(config);
    this.name = config.name;
    this.config = config;
    this.#options = options;
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#now = options.clock ?? (() => this.#scheduler.now());
    this.#random = options.random ?? Math.random;
    this.#restart = resolveRestart(options.restart);
    this.#breaker = new CircuitBreaker(options.circuit, this.#now);
    this.#changes = new ChangeEvents(this.#scheduler, options.debounceMs ?? DEFAULT_DEBOUNCE_MS, (message) =>
      options.logger.warn(`upstream "${config.name}": ${message}`),
    );
  }

  /** The live client while ready; undefined otherwise. */
  get client(): McpClient | undefined {
    return this.#phase === 'ready' ? this.#client : undefined;
  }

  /** The stdio child's process id (of the current or last attempt). */
  get pid(): number | undefined {
    return this.#transport instanceof StdioClientTransport ? this.#transport.pid : undefined;
  }

  /** The tail of the stdio child's stderr (for diagnostics; may hold whatever the upstream prints). */
  get stderrText(): string {
    return this.#transport instanceof StdioClientTransport ? this.#transport.stderrText : '';
  }

  /**
   * Connects. Resolves once the first attempt has ended either way: a down upstream is recorded (health) and
   * retried with backoff, never thrown. Rejects only for a configuration that cannot work (UpstreamConfigError:
   * a missing environment variable, say), which no retry would fix.
   */
  start(): Promise<void> {
    this.#starting ??= (async () => {
      if (this.#phase === 'closed') throw new UpstreamUnavailable(this.name, 'it is closed');
      this.#auth = upstreamAuth(this.config, this.#options.env ?? process.env, this.#options.fetch);
      await this.#connect();
    })();
    return this.#starting;
  }

  async #connect(): Promise<void> {
    if (this.#phase === 'closed') return;
    const generation = ++this.#generation;
    this.#phase = 'connecting';
    this.#nextAttemptAt = undefined;
    let transport: Transport;
    try {
      transport = createUpstreamTransport(this.config, this.#auth as UpstreamAuth, {
        env: this.#options.env ?? process.env,
        baseDir: this.#options.baseDir ?? process.cwd(),
        closeTimeoutMs: this.#options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
        ...(this.#options.onStderr !== undefined && { onStderr: this.#options.onStderr }),
      });
    } catch (error) {
      this.#failed(messageOf(error));
      return;
    }
    this.#transport = transport;
    let gone = false;
    watchClose(transport, () => {
      gone = true;
      this.#dropped(generation, transport);
    });
    const client = new McpClient(this.#options.clientInfo, this.#clientOptions());
    const limitMs = this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    let timedOut = false;
    const limit = this.#scheduler.setTimeout(() => {
      timedOut = true;
      void transport.close().catch(() => undefined);
    }, limitMs);
    try {
      await client.connect(transport);
    } catch (error) {
      this.#scheduler.clearTimeout(limit);
      await transport.close().catch(() => undefined); // a child that started but failed the handshake must go
      if (generation !== this.#generation) return;
      this.#failed(timedOut ? `no answer to the handshake within ${limitMs} ms` : messageOf(error));
      return;
    }
    this.#scheduler.clearTimeout(limit);
    if (generation !== this.#generation) {
      await client.close().catch(() => undefined);
      return;
    }
    if (gone) {
      this.#failed('the connection closed right after the handshake');
      return;
    }
    this.#ready(client);
  }

  #clientOptions(): ClientOptions {
    const upstream = this.name;
    const logger = this.#options.logger;
    return {
      // The gateway's policy layer decides what may be called; the upstream's client must not ask again.
      approve: 'always',
      ...this.#options.client,
      handlers: this.#options.handlers,
      logger: { warn: (message) => logger.warn(`upstream "${upstream}": ${message}`) },
      timeoutMs: this.config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      trusted: this.config.trusted === true,
      serverName: upstream,
    };
  }

  #ready(client: McpClient): void {
    this.#client = client;
    this.#phase = 'ready';
    this.#readyAt = this.#now();
    this.#connections++;
    client.onToolsChanged(() => this.#changes.changed('tools'));
    client.onNotification(Notification.PromptsListChanged, () => this.#changes.changed('prompts'));
    client.onNotification(Notification.ResourcesListChanged, () => this.#changes.changed('resources'));
    this.#options.logger.info(`upstream "${this.name}" is ready (${client.era ?? 'unknown'} era)`);
    if (this.#connections === 1) return;
    // What it offers may have changed while it was away: every list is stale.
    this.#restarts++;
    for (const kind of CHANGE_KINDS) this.#changes.changed(kind);
  }

  /** The transport closed. While ready, that is a crash or a dropped connection: restart with backoff. */
  #dropped(generation: number, transport: Transport): void {
    if (generation !== this.#generation || this.#phase !== 'ready') return;
    const client = this.#client;
    this.#client = undefined;
    void client?.close().catch(() => undefined);
    let detail = 'the connection closed';
    if (transport instanceof StdioClientTransport) {
      const code = transport.exitCode;
      const signal = transport.signal;
      detail = `the process exited${signal ? ` on ${signal}` : code === null || code === undefined ? '' : ` with code ${code}`}`;
    }
    // A connection that held for a while earns a fresh backoff; a crash loop keeps growing it.
    if (this.#now() - this.#readyAt >= this.#restart.maxMs) this.#attempt = 0;
    this.#failed(detail);
  }

  #failed(reason: string): void {
    if (this.#phase === 'closed') return;
    this.#lastError = reason;
    this.#client = undefined;
    const delay = backoffDelay(this.#restart, this.#attempt++, this.#random);
    this.#phase = 'backoff';
    this.#nextAttemptAt = this.#now() + delay;
    this.#options.logger.warn(`upstream "${this.name}": ${reason}; next attempt in ${delay} ms`);
    this.#retryTimer = this.#scheduler.setTimeout(() => {
      this.#retryTimer = undefined;
      void this.#connect();
    }, delay);
  }

  /** Drops the live connection and reconnects after the usual backoff (the old connection's events are ignored). */
  #recycle(reason: string): void {
    if (this.#phase !== 'ready') return;
    this.#generation++;
    const client = this.#client;
    this.#client = undefined;
    void client?.close().catch(() => undefined);
    this.#failed(reason);
  }

  /**
   * Reconnects now (an admin's "restart", or a wedged stdio child the circuit keeps failing on): the current
   * connection is closed (a stdio child killed) and a new one made. Resolves when that attempt has ended either way.
   */
  async restart(): Promise<void> {
    if (this.#phase === 'closed') throw new UpstreamUnavailable(this.name, 'it is closed');
    if (this.#auth === undefined) return this.start();
    this.#scheduler.clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#generation++;
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    this.#attempt = 0;
    this.#phase = 'connecting';
    await (client?.close() ?? transport?.close())?.catch(() => undefined);
    await this.#connect();
  }

  /** The live client, or UpstreamUnavailable saying why there is none. */
  #live(): McpClient {
    switch (this.#phase) {
      case 'ready':
        return this.#client as McpClient; // set whenever the phase is ready
      case 'idle':
        throw new UpstreamUnavailable(this.name, 'it has not been started');
      case 'connecting':
        throw new UpstreamUnavailable(this.name, 'it is connecting');
      case 'backoff': {
        const wait = Math.max(0, (this.#nextAttemptAt ?? this.#now()) - this.#now());
        throw new UpstreamUnavailable(this.name, `restarting after: ${this.#lastError ?? 'a failure'}`, wait);
      }
      case 'closed':
        throw new UpstreamUnavailable(this.name, 'it is closed');
    }
  }

  /** Runs one request with the circuit breaker's accounting: UpstreamUnavailable when down or open. */
  async call<T>(run: (client: McpClient) => Promise<T>): Promise<T> {
    const client = this.#live();
    const admission = this.#breaker.admit();
    if (!admission.ok) {
      const reason =
        admission.retryAfterMs === undefined
          ? 'its circuit is half-open and a probe is under way'
          : `its circuit is open after ${this.#breaker.failures} consecutive failures`;
      throw new UpstreamUnavailable(this.name, reason, admission.retryAfterMs);
    }
    try {
      const result = await run(client);
      this.#breaker.success();
      this.#attempt = 0;
      return result;
    } catch (error) {
      // An HTTP upstream that forgot our session (it restarted) needs a new handshake: the spec's 404 rule.
      if (error instanceof TransportError && error.status === 404 && this.#client === client)
        this.#recycle('the upstream ended the session (HTTP 404)');
      if (isUpstreamFailure(error)) {
        this.#breaker.failure();
        if (this.#breaker.state !== 'closed')
          this.#options.logger.warn(`upstream "${this.name}": circuit open after: ${messageOf(error)}`);
      } else if (error instanceof RequestAbortedError) this.#breaker.release(admission.probe);
      else this.#breaker.success(); // it answered (a JSON-RPC error, a tool error): it is alive
      throw error;
    }
  }

  /**
   * A listing under the list time limit: cancelled upstream and rejected with UpstreamTimeout when it runs over.
   * Concurrent listings of one kind share one upstream request (counted once by the circuit), and a caller's own
   * signal only stops that caller's wait: one gateway client going away must not fail the others' lists.
   */
  #list<T>(
    what: string,
    signal: AbortSignal | undefined,
    run: (client: McpClient, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    // The map holds one promise per method name, each made below with that method's own T.
    let shared = this.#listings.get(what) as Promise<T> | undefined;
    if (shared === undefined) {
      const limitMs = this.config.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
      const listing: Promise<T> = this.call((client) =>
        withTimeLimit(
          this.#scheduler,
          limitMs,
          undefined,
          () => new UpstreamTimeout(this.name, what, limitMs),
          (limited) => run(client, limited),
        ),
      ).finally(() => {
        if (this.#listings.get(what) === listing) this.#listings.delete(what);
      });
      this.#listings.set(what, listing);
      shared = listing;
    }
    return signal === undefined ? shared : untilAborted(shared, signal, what);
  }

  async listTools(signal?: AbortSignal): Promise<Tool[]> {
    const tools = await this.#list('tools/list', signal, (client, s) => client.listTools({ signal: s }));
    this.#tools = tools.length;
    return tools;
  }

  listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    return this.#list('prompts/list', signal, (client, s) => client.listPrompts({ signal: s }));
  }

  listResources(signal?: AbortSignal): Promise<Resource[]> {
    return this.#list('resources/list', signal, (client, s) => client.listResources({ signal: s }));
  }

  listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplate[]> {
    return this.#list('resources/templates/list', signal, (client, s) =>
      client.listResourceTemplates({ signal: s }),
    );
  }

  /** `listener` hears of list changes (debounced), and of all three kinds after a restart. Returns the way to stop. */
  onChanged(listener: (kind: ChangeKind) => void): () => void {
    return this.#changes.listen(listener);
  }

  health(): UpstreamHealth {
    const circuit = this.#breaker.state;
    const state =
      this.#phase === 'idle' || this.#phase === 'connecting'
        ? 'connecting'
        : this.#phase === 'ready' && circuit !== 'closed'
          ? 'open'
          : this.#phase;
    const next =
      state === 'backoff' ? this.#nextAttemptAt : state === 'open' ? this.#breaker.probeAt : undefined;
    const era = this.#phase === 'ready' ? this.#client?.era : undefined;
    return {
      name: this.name,
      state,
      ...(era !== undefined && { era }),
      failures: this.#breaker.failures,
      restarts: this.#restarts,
      ...(this.#lastError !== undefined && { lastError: this.#lastError }),
      ...(next !== undefined && { nextAttemptAt: new Date(next).toISOString() }),
      tools: this.#tools,
    };
  }

  /** Stops for good: no more restarts; a stdio child gets stdin closed, then SIGTERM, then SIGKILL. Idempotent. */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    this.#phase = 'closed';
    this.#generation++;
    this.#scheduler.clearTimeout(this.#retryTimer);
    this.#changes.stop();
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    this.#closing = (async () => {
      try {
        if (client !== undefined) await client.close();
        else await transport?.close();
      } catch (error) {
        this.#options.logger.warn(`upstream "${this.name}": closing failed: ${messageOf(error)}`);
      }
    })();
    return this.#closing;
  }
}
