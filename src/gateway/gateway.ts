// createGateway: the upstreams of the config behind one McpServer — their tools, prompts and resources named
// (server___name), scanned and pinned, registered as proxies, kept in step with the upstreams' list changes, and the
// policy layer in front, for which only a `trusted` upstream's annotations count (C4).

import { dirname } from 'node:path';
import type { Implementation, Tool } from '../protocol/index.js';
import type { Policy } from '../policy/index.js';
import { McpServer, stderrLogger, type Logger, type ToolConfig, type ToolTarget } from '../server/index.js';
import type { GatewayConfig } from './config.js';
import {
  nameEntries,
  NamingError,
  unusedOverrides,
  type NameInput,
  type NameReport,
} from './naming/index.js';
import { admitUpstreams, openPinStore, PinBook, type PinStore, type ServerPinStore } from './pins/index.js';
import { proxyPrompt } from './proxy-prompt.js';
import { proxyResource, proxyResourceTemplate } from './proxy-resource.js';
import { proxyTool } from './proxy-tool.js';
import { Registrations, type Wanted } from './registrations.js';
import { Member, type Kind } from './member.js';
import { upstreamHandlers } from './upstream-handlers.js';
import {
  Upstream,
  UpstreamConfigError,
  type UpstreamConfig,
  type UpstreamHealth,
  type UpstreamOptions,
} from './upstream/index.js';
import { ConfigError } from '../tools/pack.js';
import type { PromptConfig } from '../server/prompts.js';
import type { ResourceConfig, ResourceTemplateConfig } from '../server/resources.js';

export interface GatewayOptions {
  /** The gateway's version, as it tells clients (and upstreams, in its client info). */
  version?: string;
  logger?: Logger;
  /** The pin store (tools and servers); default: the SQLite file the config names (gateway.pins). */
  pinStore?: PinStore & ServerPinStore;
}

export interface Gateway {
  readonly server: McpServer;
  /** The policy layer installed on the server (absent without a "policy" section): spread `policy.http` into HTTP options. */
  readonly policy: Policy | undefined;
  /** Connects the upstreams and registers what they list; an upstream that is down or slow is left out, with a warning. */
  start(): Promise<void>;
  /** Lists every upstream again now (what a list_changed does for one upstream, after the debounce). */
  sync(): Promise<void>;
  /** Resolves once no re-listing after a change event is pending or under way (what tests wait for). */
  settled(): Promise<void>;
  /** Health per upstream. */
  status(): UpstreamHealth[];
  close(): Promise<void>;
}

const ALL_KINDS: readonly Kind[] = ['tools', 'prompts', 'resources'];
/** How often the gateway looks for upstreams that are up but not listed yet. */
const READY_CHECK_MS = 1000;

/** An Upstream, its configuration mistakes (a bad header, say) reported as the config's. */
function newUpstream(config: UpstreamConfig, options: UpstreamOptions): Upstream {
  try {
    return new Upstream(config, options);
  } catch (error) {
    if (error instanceof UpstreamConfigError)
      throw new ConfigError(`mcpServers.${config.name}: ${error.message}`);
    throw error;
  }
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
    try {
      policy = await loadPolicy({
        logger,
        ...policyOptions,
        scopes: { ...policyOptions.scopes, trustAnnotations },
      });
    } catch (error) {
      // The pieces check what the reader cannot (URLs, scope strings, globs, the keys file): a config mistake too.
      throw new ConfigError(`policy: ${(error as Error).message}`);
    }
    policy.install(server);
  }
  const store = options.pinStore ?? openPinStore(config.pins);
  // C8: an upstream added since the first run, or whose launch definition changed, is held: never started.
  const admitted = admitUpstreams(store, config.upstreams, {
    configFile: config.file,
    baseDir: dirname(config.file),
    firstUse: config.firstUse,
    logger,
  });
  // Each upstream may pin as many tools as it may list: one flooding the store with names fills only its share.
  const pins = new PinBook(store, { firstUse: config.firstUse, maxPerServer: config.limits.maxTools });
  const clientInfo: Implementation = { name: `${config.name} (toolwire gateway)`, version: info.version };
  const handlers = upstreamHandlers();
  const vetting = { poisoning: config.poisoning, limits: config.limits, pins, logger };
  const members = admitted.start.map((upstreamConfig) => {
    const upstream = newUpstream(upstreamConfig, {
      clientInfo,
      logger,
      handlers,
      // The Upstream debounces list changes; the gateway only gathers what arrives together.
      debounceMs: config.debounceMs,
      baseDir: dirname(config.file),
      // One item past the limit is read, so that selectTools sees the listing is over it and serves none of it.
      client: { maxListPages: config.limits.maxPages, maxListItems: config.limits.maxTools + 1 },
    });
    return new Member(upstreamConfig, upstream, vetting);
  });
  /** Change events waiting for their member's next listing, the last round of each member, and rounds under way. */
  const due = new Map<Member, Set<Kind>>();
  const rounds = new Map<Member, Promise<void>>();
  const busy = new Set<Promise<void>>();
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
  let readyCheck: NodeJS.Timeout | undefined;

  /**
   * Brings the server's registrations to what the members listed. Entries that collide are left out and reported;
   * with `strictRenames` (at startup) a collision a configured rename takes part in throws NamingError.
   */
  function rebuild(strictRenames = false): void {
    const inputs: NameInput[] = [];
    const chosen = new Map<string, Map<string, Tool>>();
    for (const member of members) {
      const byName = new Map(member.tools.map((tool) => [tool.name, tool]));
      chosen.set(member.name, byName);
      for (const tool of byName.values()) inputs.push({ server: member.name, name: tool.name });
    }
    const named = nameEntries(inputs, config.overrides, undefined, { strictRenames });
    for (const unused of unusedOverrides(inputs, config.overrides)) {
      logger.warn(
        `gateway: mcpServers.${unused.server}.tools names ${JSON.stringify(unused.name)}, which the upstream does not list (or the gateway left out): the override does nothing`,
      );
    }
    for (const report of named.reports) logNameReport('tool', report);
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
    const namedPrompts = nameEntries(promptInputs, new Map());
    for (const report of namedPrompts.reports) logNameReport('prompt', report);
    for (const entry of namedPrompts.entries) {
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

  function logNameReport(kind: 'tool' | 'prompt', report: NameReport): void {
    const text = `gateway: upstream "${report.server}" ${kind} ${JSON.stringify(report.name)}: ${report.kind}${report.exposed === undefined ? '' : ` as ${report.exposed}`} (${report.reason})`;
    if (report.kind === 'collision') logger.error(text);
    else logger.warn(text);
  }

  /**
   * A rebuild after start. Collisions are left out and reported by rebuild itself (never fatal now: an upstream could
   * cause one); should it still throw a NamingError, it is logged and the previous registrations stay.
   */
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

  /**
   * Lists a member again after a change event, then rebuilds. Events that arrive before its listing starts join it;
   * one that arrives during it starts another round after it (never two listings of one member at once, so an older
   * answer can never land after a newer one).
   */
  function schedule(member: Member, kind: Kind): void {
    if (closed) return;
    const waiting = due.get(member);
    if (waiting !== undefined) {
      waiting.add(kind);
      return;
    }
    const kinds = new Set<Kind>([kind]);
    due.set(member, kinds);
    const work = (rounds.get(member) ?? Promise.resolve())
      .then(async () => {
        due.delete(member);
        if (closed) return;
        await member.list(kinds);
        if (!closed) rebuildLater();
      })
      .catch((error: unknown) => logger.error(`gateway: re-listing upstream "${member.name}" failed`, error));
    rounds.set(member, work);
    busy.add(work);
    void work.finally(() => busy.delete(work));
  }

  async function settled(): Promise<void> {
    while (busy.size > 0) await Promise.allSettled([...busy]);
  }

  return {
    server,
    policy,
    async start() {
      await Promise.all(members.map((member) => member.upstream.start()));
      for (const member of members) member.upstream.onChanged((kind) => schedule(member, kind));
      await Promise.all(members.map((member) => member.list(ALL_KINDS)));
      rebuild(true); // at startup a collision a configured rename takes part in is an error naming both sides
      // An upstream that was down at start (or came back on a new connection without saying what changed) is
      // listed once it is up: checked every second, which costs a look at each member and nothing else.
      readyCheck = setInterval(() => {
        for (const member of members)
          if (member.unlisted) for (const kind of ALL_KINDS) schedule(member, kind);
      }, READY_CHECK_MS);
      readyCheck.unref();
    },
    async sync() {
      // Through the same rounds as change events, so a manual sync never lists a member twice at once.
      for (const member of members) for (const kind of ALL_KINDS) schedule(member, kind);
      await settled();
    },
    settled,
    status: () => [...members.map((member) => member.upstream.health()), ...admitted.held],
    async close() {
      closed = true;
      clearInterval(readyCheck);
      await server.close();
      await Promise.allSettled(members.map((member) => member.upstream.close()));
      await policy?.close();
      store.close();
    },
  };
}
