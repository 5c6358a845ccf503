// The options of McpServer, their defaults, and the checks run on them at construction.

import { DefinitionError, type Logger } from './errors.js';
import type { TaskStore } from './tasks/task-store.js';
import type { VisibilityRule } from './visibility.js';

export interface CacheHints {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

export interface ServerOptions {
  instructions?: string;
  /** Tools per tools/list page. Default 500. */
  pageSize?: number;
  /** Cache hints on modern list results (tools, prompts, resources, templates). Default { ttlMs: 0, cacheScope: 'public' }. */
  listCache?: CacheHints;
  /** Cache hints on modern resources/read results. Default { ttlMs: 0, cacheScope: 'private' }. */
  resourceReadCache?: CacheHints;
  /** Cache hints on server/discover results. Default { ttlMs: 0, cacheScope: 'public' }. */
  discoverCache?: CacheHints;
  /** Default per-tool time limit. Default 60,000 ms. */
  defaultTimeoutMs?: number;
  /** HMAC key for requestState (≥ 32 bytes). Default: random per process — set it when running several instances. */
  requestStateKey?: string | Uint8Array;
  /** How long a requestState stays valid. Default 10 minutes. */
  requestStateTtlMs?: number;
  /** Argument validation failures as `isError` results ('tool', the spec's prose and the default) or -32602 ('protocol'). */
  inputValidationErrors?: 'tool' | 'protocol';
  /** Minimum spacing of progress notifications for one request. Default 25 ms. */
  progressIntervalMs?: number;
  /** Requests one connection may have in flight. Default 1,000. */
  maxInFlight?: number;
  /** Nesting limit for incoming JSON. Default 64. */
  maxJsonDepth?: number;
  /** Put `_meta["io.modelcontextprotocol/serverInfo"]` on every modern result. Default true. */
  serverInfoInResults?: boolean;
  /** Where the server's own diagnostics go. Default: stderr. */
  logger?: Logger;
  /** Tasks extension: where task state is kept. Default: a bounded in-memory store (10,000 tasks). */
  taskStore?: TaskStore;
  /** Tasks extension: how long a task stays readable after creation (null: no limit). Default 1 hour. */
  taskTtlMs?: number | null;
  /** Tasks extension: the polling interval suggested to clients. Default 500 ms. */
  taskPollIntervalMs?: number;
  /** Tasks extension: default time limit of a tool running as a task. Default 1 hour. */
  taskTimeoutMs?: number;
  /**
   * Who sees what: a tool, prompt, resource or template is listed to a caller, and can be called or read by it, only
   * when this returns true (more rules: McpServer.addVisibility). Lists then carry cacheScope "private".
   */
  visibility?: VisibilityRule;
}

export const positiveInteger = (value: number | undefined, fallback: number, name: string): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new DefinitionError(`${name} must be a positive integer`);
  return value;
};

export const checkCacheHints = (
  hints: CacheHints | undefined,
  name: string,
  fallback: CacheHints = { ttlMs: 0, cacheScope: 'public' },
): CacheHints => {
  const value = hints ?? fallback;
  if (!Number.isInteger(value.ttlMs) || value.ttlMs < 0)
    throw new DefinitionError(`${name}.ttlMs must be an integer ≥ 0`);
  if (value.cacheScope !== 'public' && value.cacheScope !== 'private') {
    throw new DefinitionError(`${name}.cacheScope must be "public" or "private"`);
  }
  return value;
};
