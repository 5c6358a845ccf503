// One upstream as the gateway holds it: the Upstream, and what it listed last, already vetted — tools through the
// scan and the pin book (select-tools.ts), prompts and resources through the same poisoning rules (vet-entries.ts).
// A listing that fails keeps what was listed before, so a blip does not empty the gateway.

import type { McpClient } from '../client/index.js';
import { Method, type Prompt, type Resource, type ResourceTemplate, type Tool } from '../protocol/index.js';
import type { Logger } from '../server/index.js';
import { CallLogs } from './call-logs.js';
import type { PinBook } from './pins/index.js';
import type { UpstreamRunner } from './proxy-tool.js';
import type { ListingLimits, PoisoningMode } from './scan/index.js';
import { selectTools } from './select-tools.js';
import type { Upstream, UpstreamConfig } from './upstream/index.js';
import { vetPrompt, vetResource } from './vet-entries.js';

export type Kind = 'tools' | 'prompts' | 'resources';

export interface Vetting {
  poisoning: PoisoningMode;
  limits: ListingLimits;
  pins: PinBook;
  logger: Logger;
}

export class Member {
  readonly config: UpstreamConfig;
  readonly upstream: Upstream;
  readonly run: UpstreamRunner;
  readonly logs: CallLogs;
  /** The tools to serve (scanned, pinned), in the upstream's order. */
  tools: Tool[] = [];
  prompts: Prompt[] = [];
  resources: Resource[] = [];
  templates: ResourceTemplate[] = [];
  /**
   * The connection whose tools were last listed: another live one (a first connect after a failed start, a restart)
   * means this member has not been listed since it came up.
   */
  listedWith: McpClient | undefined;
  readonly #vetting: Vetting;
  /** Clients already asked for log messages (legacy upstreams: once per session). */
  readonly #asked = new WeakSet<McpClient>();

  constructor(config: UpstreamConfig, upstream: Upstream, vetting: Vetting) {
    this.config = config;
    this.upstream = upstream;
    this.run = (work) => upstream.call(work);
    this.logs = new CallLogs(config.name, vetting.logger);
    this.#vetting = vetting;
  }

  get name(): string {
    return this.config.name;
  }

  /** True when the upstream is up on a connection whose lists this member has not read yet. */
  get unlisted(): boolean {
    const client = this.upstream.client;
    return client !== undefined && client !== this.listedWith;
  }

  /** Lists `kinds` again and vets what came back. */
  async list(kinds: Iterable<Kind>): Promise<void> {
    const { upstream } = this;
    const { poisoning, logger } = this.#vetting;
    // Only what the upstream says it offers is listed: asking a tools-only server for prompts is an error each time.
    const offers = upstream.client?.serverCapabilities;
    this.#askForLogs(upstream.client);
    const work: Array<Promise<void>> = [];
    for (const kind of new Set(kinds)) {
      if (kind === 'tools') {
        work.push(
          this.#tried(
            'tools',
            () => upstream.listTools(),
            (tools) => {
              this.tools = selectTools(this.name, tools, this.#vetting).served;
            },
          ),
        );
      } else if (kind === 'prompts') {
        if (offers !== undefined && offers.prompts === undefined) this.prompts = [];
        else
          work.push(
            this.#tried(
              'prompts',
              () => upstream.listPrompts(),
              (prompts) => {
                this.prompts = prompts.flatMap(
                  (prompt) => vetPrompt(this.name, prompt, poisoning, logger) ?? [],
                );
              },
            ),
          );
      } else if (offers !== undefined && offers.resources === undefined) {
        this.resources = [];
        this.templates = [];
      } else {
        work.push(
          this.#tried(
            'resources',
            () => upstream.listResources(),
            (resources) => {
              this.resources = resources.flatMap(
                (entry) => vetResource(this.name, entry, poisoning, logger) ?? [],
              );
            },
          ),
          this.#tried(
            'resource templates',
            () => upstream.listResourceTemplates(),
            (templates) => {
              this.templates = templates.flatMap(
                (entry) => vetResource(this.name, entry, poisoning, logger) ?? [],
              );
            },
          ),
        );
      }
    }
    await Promise.all(work);
  }

  async #tried<T>(what: string, run: () => Promise<T>, keep: (value: T) => void): Promise<void> {
    let value: T;
    try {
      value = await run();
    } catch (error) {
      this.#vetting.logger.warn(
        `gateway: listing the ${what} of upstream "${this.name}" failed, so the gateway serves what it listed before (if anything): ${(error as Error).message}`,
      );
      return;
    }
    keep(value);
  }

  /**
   * A legacy upstream sends log messages only after logging/setLevel, once per session: "info" is asked, and each
   * inbound request's own level filters further (a modern upstream is asked per call, with the caller's level).
   */
  #askForLogs(client: McpClient | undefined): void {
    if (client === undefined || client.era !== 'legacy' || client.serverCapabilities.logging === undefined)
      return;
    if (this.#asked.has(client)) return;
    this.#asked.add(client);
    client.request(Method.LoggingSetLevel, { level: 'info' }).catch((error: unknown) => {
      this.#vetting.logger.debug(
        `gateway: upstream "${this.name}" refused logging/setLevel: ${(error as Error).message}`,
      );
    });
  }
}
