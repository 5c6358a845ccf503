// What an McpClient is configured with. Its own module so the client's parts (session.ts and what uses it) can name
// these types without importing client.ts, which imports them.

import type { ClientCapabilities, Tool } from '../protocol/index.js';
import type { ChannelLogger } from './channel.js';
import type { InputHandlers } from './input.js';
import type { ApprovalHook, AuditHook } from './policy.js';
import type { RetryOptions } from './retry.js';
import type { ClientTelemetrySetting } from './telemetry-options.js';

export type Era = 'modern' | 'legacy';

/** A pin check's answer: the shape of the gateway's PinVerdict (src/gateway/pins), which a PinBook returns. */
export type ToolPinVerdict = { kind: 'new' } | { kind: 'match' } | { kind: 'changed'; diff: string };

/** Remembers tool definitions across sessions (a PinBook fits): each listed tool is checked against what was seen. */
export interface ToolPins {
  check(server: string, tool: Tool): ToolPinVerdict;
  /** Said after the diff in the warning for a changed tool: where the pins are kept, how to approve the change. */
  note?(server: string, tool: string): string;
}

export interface ClientOptions {
  /** Answers to the server's input requests; they also decide which capabilities are declared. */
  handlers?: InputHandlers;
  /** Extra capabilities to declare (merged over those the handlers imply). */
  capabilities?: ClientCapabilities;
  /**
   * A human in the loop: asked before every call that is not read-only (annotations count only from a trusted
   * server). 'always' approves everything. Without a hook such calls are refused.
   */
  approve?: ApprovalHook | 'always';
  /** Trust this server's annotations (readOnlyHint etc.). Default false: every tool counts as destructive. */
  trusted?: boolean;
  /** Receives every call: server, tool, arguments, outcome, duration. */
  audit?: AuditHook;
  /** Per-request time limit. Default 60,000 ms. */
  timeoutMs?: number;
  /** Restart a call's time limit on progress, up to maxTotalTimeoutMs (default 10 minutes). */
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
  /** 'auto' (default): server/discover first, legacy initialize as the fallback. */
  era?: 'auto' | Era;
  /**
   * How long to wait for server/discover before falling back to initialize. Default: 5,000 ms on stdio (some legacy
   * servers never answer a request before initialize); on HTTP the normal time limit, since any HTTP server answers.
   */
  discoverTimeoutMs?: number;
  /** Pages read by listTools at most. Default 100. */
  maxListPages?: number;
  /**
   * Entries kept from one list (tools, prompts, resources, resource templates) at most: the rest are left out with a
   * warning and no further page is read. Default 10,000.
   */
  maxListItems?: number;
  /** Keep a subscriptions/listen stream (modern) to learn of tool list changes. Default true. */
  listenForChanges?: boolean;
  /** Declare the tasks extension and follow task results until they finish. Default true. */
  tasks?: boolean;
  /**
   * Pinning (threat C2, rug pulls): every listed tool is checked with the server's name (serverName); a 'changed'
   * verdict is warned about through the logger, with its diff. The tool stays usable: the warning is the point.
   */
  pins?: ToolPins;
  /** Validate structuredContent against outputSchema ('throw': OutputValidationError). Default 'throw'. */
  validateOutput?: 'throw' | 'off';
  /** Warnings (dropped tools, odd server messages). Default: stderr. */
  logger?: ChannelLogger;
  /** A name for this server in audit entries. Default: the server's own name. */
  serverName?: string;
  /**
   * Retries after transient failures (connection refused or reset, HTTP 429/502/503/504), only for requests safe to
   * repeat: discovery, initialize, ping, lists, and calls of tools a trusted server annotates readOnlyHint or
   * idempotentHint. Never other tool calls. Default { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 5000 };
   * false turns them off.
   */
  retry?: RetryOptions | false;
  /**
   * OpenTelemetry (needs the optional peer @opentelemetry/api): true for the global providers, or { tracerProvider,
   * meterProvider }. A CLIENT span per request, traceparent/tracestate in params._meta. Default off: nothing is done.
   */
  telemetry?: ClientTelemetrySetting;
}
