// createGateway: the upstreams of the config behind one McpServer — their tools, prompts and resources named
// (server___name), scanned and pinned, registered as proxies, kept in step with the upstreams' list changes, and the
// policy layer in front, for which only a `trusted` upstream's annotations count (C4).

import { dirname } from 'node:path';
import type { McpClient } from '../client/index.js';
import {
  Method,
  type Implementation,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '../protocol/index.js';
import type { Policy } from '../policy/index.js';
import { McpServer, stderrLogger, type Logger, type ToolConfig, type ToolTarget } from '../server/index.js';
import { CallLogs } from './call-logs.js';
import type { GatewayConfig } from './config.js';
import { nameEntries, NamingError, unusedOverrides, type NameInput } from './naming/index.js';
import { openPinStore, PinBook, type PinStore } from './pins/index.js';
import { proxyPrompt } from './proxy-prompt.js';
import { proxyResource, proxyResourceTemplate } from './proxy-resource.js';
import { proxyTool, type UpstreamRunner } from './proxy-tool.js';
import { Registrations, type Wanted } from './registrations.js';
import { selectTools } from './select-tools.js';
import { upstreamHandlers } from './upstream-handlers.js';
import { Upstream, type UpstreamConfig, type UpstreamHealth } from './upstream/index.js';
import type { PromptConfig } from '../server/prompts.js';
import type { ResourceConfig, ResourceTemplateConfig } from '../server/resources.js';

export interface GatewayOptions {
  /** The gateway's version, as it tells clients (and upstreams, in its client info). */
  version?: string;
  logger?: Logger;
  /** The pin store; default: the SQLite file the config names (gateway.pins). */
  pinStore?: PinStore;
}

export interface Gateway {
  readonly server: McpServer;
  /** The policy layer installed on the server (absent without a "policy" section): spread `policy.http` into HTTP options. */
  readonly policy: Policy | undefined;
  /** Connects the upstreams and registers what they list; an upstream that is down or slow is left out, with a warning. */
  start(): Promise<void>;
  /** Lists every upstream again now (what a list_changed does for one upstream, after the debounce). */
  sync(): Promise<void>;
  /** Health per upstream. */
  status(): UpstreamHealth[];
  close(): Promise<void>;
}

type Kind = 'tools' | 'prompts' | 'resources';

/** One upstream and what it listed last (kept when a later listing fails, so a blip does not empty the gateway). */
interface Member {
  readonly config: UpstreamConfig;
  readonly upstream: Upstream;
  readonly run: UpstreamRunner;
  readonly logs: CallLogs;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  templates: ResourceTemplate[];
  timer: NodeJS.Timeout | undefined;
  readonly due: Set<Kind>;
}

export async function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const logger = options.logger ?? stderrLogger;
  const info: Implementation = { name: config.name, version: options.version ?? '0.0.0' };
  const server = new McpServer(info, { logger });
  const trustedTools = new Set<string>();
  let policy: Policy | undefined;
  if (config.policy !== undefined) {
    const configured = config.policy.scopes.trustAnnotations;
    // C4: an upstream's annotations count only when its entry says trusted, and the policy's own setting allows it.
    const trustAnnotations = (target: ToolTarget): boolean =>
      trustedTools.has(target.name) &&
      (typeof configured === 'function' ? configured(target) : configured !== false);
    const { loadPolicy } = await import('../policy/index.js');
    const { approvalsAdmin: _admin, ...policyOptions } = config.policy;
    policy = await loadPolicy({
      logger,
      ...policyOptions,
      scopes: { ...policyOptions.scopes, trustAnnotations },
    });
    policy.install(server);
  }
  const store = options.pinStore ?? openPinStore(config.pins);
  const pins = new PinBook(store, { firstUse: config.firstUse });
  const clientInfo: Implementation = { name: `${config.name} (toolwire gateway)`, version: info.version };
  const handlers = upstreamHandlers();
  const members = config.upstreams.map((upstreamConfig): Member => {
    const upstream = new Upstream(upstreamConfig, {
      clientInfo,
      logger,
      handlers,
      // The Upstream debounces list changes; the gateway only gathers what arrives together.
      debounceMs: config.debounceMs,
      baseDir: dirname(config.file),
      client: { maxListPages: config.limits.maxPages },
    });
    return {
      config: upstreamConfig,
      upstream,
      run: (work) => upstream.call(work),
      logs: new CallLogs(upstreamConfig.name, logger),
      tools: [],
      prompts: [],
      resources: [],
      templates: [],
      timer: undefined,
      due: new Set(),
    };
  });
  const tools = new Registrations<ToolConfig>('tool', (tool) => server.tool(tool), logger);
  const prompts = new Registrations<PromptConfig>('prompt', (prompt) => server.prompt(prompt), logger);
  const resources = new Registrations<ResourceConfig>(
    'resource',
    (resource) => server.resource(resource),
    logger,
  );
  const templates = new Registrations<ResourceTemplateConfig>(
    'resource template',
    (template) => server.resourceTemplate(template),
    logger,
  );
  let closed = false;
  const asked = new WeakSet<McpClient>();

  /** Lists `kinds` of one upstream; a failure keeps what it listed before, and says so. */
  async function list(member: Member, kinds: Iterable<Kind>): Promise<void> {
    const { upstream, config: upstreamConfig } = member;
    const tried = async <T>(what: string, run: () => Promise<T>, keep: T): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        logger.warn(
          `gateway: listing the ${what} of upstream "${upstreamConfig.name}" failed, so the gateway serves what it listed before (if anything): ${(error as Error).message}`,
        );
        return keep;
      }
    };
    const work: Array<Promise<void>> = [];
    // Only what the upstream says it offers is listed: asking a tools-only server for prompts is an error each time.
    const offers = upstream.client?.serverCapabilities;
    askForLogs(upstream.client);
    for (const kind of kinds) {
      if (kind === 'prompts' && offers !== undefined && offers.prompts === undefined) {
        member.prompts = [];
        continue;
      }
      if (kind === 'resources' && offers !== undefined && offers.resources === undefined) {
        member.resources = [];
        member.templates = [];
        continue;
      }
      if (kind === 'tools')
        work.push(
          tried('tools', () => upstream.listTools(), member.tools).then((v) => void (member.tools = v)),
        );
      if (kind === 'prompts')
        work.push(
          tried('prompts', () => upstream.listPrompts(), member.prompts).then(
            (v) => void (member.prompts = v),
          ),
        );
      if (kind === 'resources') {
        work.push(
          tried('resources', () => upstream.listResources(), member.resources).then(
            (v) => void (member.resources = v),
          ),
        );
        work.push(
          tried('resource templates', () => upstream.listResourceTemplates(), member.templates).then(
            (v) => void (member.templates = v),
          ),
        );
      }
    }
    await Promise.all(work);
  }

  /**
   * A legacy upstream sends log messages only after logging/setLevel, once per session: "info" is asked, and each
   * inbound request's own level filters further (a modern upstream is asked per call, with the caller's level).
   */
  function askForLogs(client: McpClient | undefined): void {
    if (client === undefined || client.era !== 'legacy' || client.serverCapabilities.logging === undefined)
      return;
    if (asked.has(client)) return;
    asked.add(client);
    client.request(Method.LoggingSetLevel, { level: 'info' }).catch((error: unknown) => {
      logger.debug(`gateway: logging/setLevel was refused by an upstream: ${(error as Error).message}`);
    });
  }

  /** Brings the server's registrations to what the members listed. A name collision throws (NamingError). */
  function rebuild(): void {
    const inputs: NameInput[] = [];
    const chosen = new Map<string, Map<string, Tool>>();
    for (const member of members) {
      const { served } = selectTools(member.config.name, member.tools, {
        poisoning: config.poisoning,
        limits: config.limits,
        pins,
        logger,
      });
      const byName = new Map(served.map((tool) => [tool.name, tool]));
      chosen.set(member.config.name, byName);
      for (const tool of byName.values()) inputs.push({ server: member.config.name, name: tool.name });
    }
    const named = nameEntries(inputs, config.overrides);
    for (const unused of unusedOverrides(inputs, config.overrides)) {
      logger.warn(
        `gateway: mcpServers.${unused.server}.tools names ${JSON.stringify(unused.name)}, which the upstream does not list (or the gateway left out): the override does nothing`,
      );
    }
    for (const report of named.reports) {
      logger.warn(
        `gateway: upstream "${report.server}" tool ${JSON.stringify(report.name)}: ${report.kind}${report.exposed === undefined ? '' : ` as ${report.exposed}`} (${report.reason})`,
      );
    }
    const memberOf = new Map(members.map((member) => [member.config.name, member]));
    const wantedTools = new Map<string, Wanted<ToolConfig>>();
    trustedTools.clear();
    for (const entry of named.entries) {
      const member = memberOf.get(entry.server);
      const upstreamTool = chosen.get(entry.server)?.get(entry.name);
      if (member === undefined || upstreamTool === undefined) continue;
      const description = config.overrides.get(entry.server)?.get(entry.name)?.description;
      const tool = description === undefined ? upstreamTool : { ...upstreamTool, description };
      const timeoutMs = member.config.timeoutMs ?? config.timeoutMs;
      if (member.config.trusted === true) trustedTools.add(entry.exposed);
      wantedTools.set(entry.exposed, {
        server: entry.server,
        fingerprint: JSON.stringify([tool, timeoutMs]),
        config: () =>
          proxyTool({
            exposed: entry.exposed,
            server: entry.server,
            tool,
            run: member.run,
            logs: member.logs,
            timeoutMs,
          }),
      });
    }
    const promptInputs = members.flatMap((member) =>
      member.prompts.map((prompt) => ({ server: member.config.name, name: prompt.name })),
    );
    const wantedPrompts = new Map<string, Wanted<PromptConfig>>();
    for (const entry of nameEntries(promptInputs, new Map()).entries) {
      const member = memberOf.get(entry.server);
      const prompt = member?.prompts.find((candidate) => candidate.name === entry.name);
      if (member === undefined || prompt === undefined) continue;
      const timeoutMs = member.config.timeoutMs ?? config.timeoutMs;
      wantedPrompts.set(entry.exposed, {
        server: entry.server,
        fingerprint: JSON.stringify([prompt, timeoutMs]),
        config: () =>
          proxyPrompt({ exposed: entry.exposed, server: entry.server, prompt, run: member.run, timeoutMs }),
      });
    }
    const wantedResources = new Map<string, Wanted<ResourceConfig>>();
    const wantedTemplates = new Map<string, Wanted<ResourceTemplateConfig>>();
    for (const member of members) {
      const proxy = {
        server: member.config.name,
        run: member.run,
        timeoutMs: member.config.timeoutMs ?? config.timeoutMs,
      };
      for (const resource of member.resources) {
        const built = proxyResource(proxy, resource);
        wantedResources.set(built.uri, {
          server: proxy.server,
          fingerprint: JSON.stringify([resource, proxy.timeoutMs]),
          config: () => built,
        });
      }
      for (const template of member.templates) {
        const built = proxyResourceTemplate(proxy, template);
        wantedTemplates.set(built.uriTemplate, {
          server: proxy.server,
          fingerprint: JSON.stringify([template, proxy.timeoutMs]),
          config: () => built,
        });
      }
    }
    tools.apply(wantedTools);
    prompts.apply(wantedPrompts);
    resources.apply(wantedResources);
    templates.apply(wantedTemplates);
  }

  /** A rebuild after start: a collision now is logged and the previous registrations stay (clients keep working). */
  function rebuildLater(): void {
    try {
      rebuild();
    } catch (error) {
      if (!(error instanceof NamingError)) throw error;
      logger.error(
        `gateway: the upstreams' lists changed into a name collision, so the gateway keeps serving what it served: ${error.message}`,
      );
    }
  }

  function schedule(member: Member, kind: Kind): void {
    if (closed) return;
    member.due.add(kind);
    if (member.timer !== undefined) return;
    member.timer = setTimeout(() => {
      member.timer = undefined;
      const kinds = [...member.due];
      member.due.clear();
      void list(member, kinds).then(() => {
        if (!closed) rebuildLater();
      });
    }, 0);
    member.timer.unref?.();
  }

  return {
    server,
    policy,
    async start() {
      await Promise.all(members.map((member) => member.upstream.start()));
      for (const member of members) member.upstream.onChanged((kind) => schedule(member, kind));
      await Promise.all(members.map((member) => list(member, ['tools', 'prompts', 'resources'])));
      rebuild(); // at startup a collision is an error that names both sides
    },
    async sync() {
      await Promise.all(members.map((member) => list(member, ['tools', 'prompts', 'resources'])));
      rebuildLater();
    },
    status: () => members.map((member) => member.upstream.health()),
    async close() {
      closed = true;
      for (const member of members) if (member.timer !== undefined) clearTimeout(member.timer);
      await server.close();
      await Promise.allSettled(members.map((member) => member.upstream.close()));
      await policy?.close();
      store.close();
    },
  };
}
