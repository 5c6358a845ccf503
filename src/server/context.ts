// The context a tool handler receives: cancellation, progress, logging, client facts and input requests.

import type { JsonObject, RequestId } from '../jsonrpc/index.js';
import type {
  Caller,
  Cancellation,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  EmbeddedResource,
  Implementation,
  InputRequest,
  ListRootsResult,
  LoggingLevel,
  MessageExtra,
  RequestEnvelope,
  ResourceLink,
} from '../protocol/index.js';
import type { InputBroker } from './input.js';
import { ProgressReporter, type NotificationSink } from './progress.js';

/**
 * What a tool context is made from: the request being handled (the request scope implements it). An interface so
 * that this module, which every tool definition imports, does not reach the pipeline.
 */
export interface ContextSource extends NotificationSink {
  readonly id: RequestId;
  readonly meta: JsonObject | undefined;
  readonly envelope: RequestEnvelope;
  readonly extra: MessageExtra | undefined;
  readonly caller: Caller;
  readonly progressIntervalMs: number;
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** The current contents of a registered resource (static or by template) as an embedded resource block. */
  embedResource(uri: string, context: ToolContext): Promise<EmbeddedResource>;
  /** A resource_link block for a registered resource (static or by template), from its metadata. */
  linkResource(uri: string): ResourceLink;
}

export class ToolContext {
  readonly #cancellation: Cancellation;
  readonly #scope: ContextSource;
  #broker: InputBroker;
  readonly #escalate: (() => Promise<void>) | undefined;
  #isTask = false;
  #reporter: ProgressReporter | undefined;
  #inputCounter = 0;

  constructor(
    scope: ContextSource,
    cancellation: Cancellation,
    broker: InputBroker,
    escalate?: () => Promise<void>,
  ) {
    this.#scope = scope;
    this.#cancellation = cancellation;
    this.#broker = broker;
    this.#escalate = escalate;
  }

  /**
   * Aborts on client cancellation, a closed response stream, the tool's timeout, or server shutdown. Made when first
   * read, so handlers that never look at it cost no AbortSignal.
   */
  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }

  /**
   * Calls `listener` once, with the reason `signal` would carry, when the request is aborted (at once if it already
   * is). For code that only needs the callback: no AbortSignal is made, and nothing is left behind by a request
   * that ends normally.
   */
  onAbort(listener: (reason: unknown) => void): void {
    this.#cancellation.onAbort(listener);
  }

  /**
   * Tasks extension: continue as a task. The client gets a CreateTaskResult now and polls tasks/get; input requests
   * from here on go through tasks/update. Resolves true once running as a task, false where that is not possible
   * (the tool does not support tasks, or the request did not declare the extension): the call simply goes on.
   */
  async runAsTask(): Promise<boolean> {
    if (this.#escalate === undefined) return false;
    if (!this.#isTask) await this.#escalate();
    return true;
  }

  /** True once the call runs as a task. */
  get isTask(): boolean {
    return this.#isTask;
  }

  /** @internal */
  useBroker(broker: InputBroker): void {
    this.#broker = broker;
    this.#isTask = true;
  }

  get requestId(): RequestId {
    return this.#scope.id;
  }
  /** The request's `_meta`, as the client sent it. */
  get meta(): JsonObject | undefined {
    return this.#scope.meta;
  }
  get protocolVersion(): string {
    return this.#scope.envelope.protocolVersion;
  }
  get clientInfo(): Implementation | undefined {
    return this.#scope.envelope.clientInfo;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.#scope.envelope.clientCapabilities;
  }
  /** Who is calling, as the transport edge established it ("local" on stdio, "anonymous" on open HTTP). */
  get auth(): Caller {
    return this.#scope.caller;
  }

  /** Reports progress; sent only if the client asked for it (progressToken), never decreasing, coalesced. */
  progress(progress: number, total?: number, message?: string): void {
    if (this.#isTask) return; // TK-13: no progress notifications for tasks
    const token = this.#scope.envelope.progressToken;
    if (token === undefined) return;
    this.#reporter ??= new ProgressReporter(token, this.#scope, this.#scope.progressIntervalMs);
    this.#reporter.report(progress, total, message);
  }

  /** Sends a log message to the client, if it asked for this level (per request on modern, per session on legacy). */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.#isTask) return; // TK-13: no log notifications for tasks
    this.#scope.log(level, data, logger);
  }

  /** Asks the user (through the client) for structured input or for a URL flow. */
  async elicit(params: ElicitRequestParams, key?: string): Promise<ElicitResult> {
    const name = key ?? `elicit-${++this.#inputCounter}`;
    const answers = await this.requestInput({ [name]: { method: 'elicitation/create', params } });
    return answers[name] as ElicitResult; // shape checked by the broker
  }

  /** Asks the client's language model for a completion. */
  async sample(params: CreateMessageRequestParams, key?: string): Promise<CreateMessageResult> {
    const name = key ?? `sample-${++this.#inputCounter}`;
    const answers = await this.requestInput({ [name]: { method: 'sampling/createMessage', params } });
    return answers[name] as CreateMessageResult; // shape checked by the broker
  }

  /** Asks the client for its roots. */
  async listRoots(key?: string): Promise<ListRootsResult> {
    const name = key ?? `roots-${++this.#inputCounter}`;
    const answers = await this.requestInput({ [name]: { method: 'roots/list' } });
    return answers[name] as ListRootsResult; // shape checked by the broker
  }

  /** An embedded resource block with the current contents of a registered resource (static or by template). */
  embedResource(uri: string): Promise<EmbeddedResource> {
    return this.#scope.embedResource(uri, this);
  }

  /** A resource_link block for a registered resource (static or by template), from its metadata. */
  linkResource(uri: string): ResourceLink {
    return this.#scope.linkResource(uri);
  }

  /** Several input requests at once, by key; on the modern wire they go out together in one InputRequiredResult. */
  requestInput(requests: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    return this.#broker.request(requests, this.signal);
  }

  /**
   * Legacy Streamable HTTP (2025-11-25 polling): closes this request's SSE connection now without ending the call;
   * the client reconnects with Last-Event-ID. Returns false where the transport has no such thing.
   */
  closeStream(): boolean {
    const close = this.#scope.extra?.closeStream;
    if (close === undefined) return false;
    close();
    return true;
  }

  /** @internal Flushes pending progress (before the final response) and stops further notifications. */
  finish(): void {
    if (this.#reporter !== undefined) {
      this.#reporter.flush();
      this.#reporter.close();
    }
  }
}
