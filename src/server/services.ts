// What request handlers may use: the catalogs, the task manager, limits and the logger. Handlers get this narrow
// set, never the McpServer, so that the server's public API and its pipeline do not depend on each other.

import type { Implementation } from '../protocol/index.js';
import type { Logger } from './errors.js';
import type { CacheHints } from './options.js';
import type { PromptCatalog } from './prompts.js';
import type { RequestStateCodec } from './request-state.js';
import type { ResourceRegistry } from './resources.js';
import type { SubscriptionHub } from './subscription-hub.js';
import type { TaskManager } from './tasks/task-manager.js';
import type { ToolRegistry } from './tool-registry.js';
import type { VisibilityRules } from './visibility.js';

export interface ServerServices {
  readonly info: Implementation;
  readonly logger: Logger;
  readonly tools: ToolRegistry;
  readonly prompts: PromptCatalog;
  readonly resources: ResourceRegistry;
  readonly visibility: VisibilityRules;
  readonly subscriptions: SubscriptionHub;
  readonly tasks: TaskManager;
  readonly requestState: RequestStateCodec;
  readonly resourceReadCache: CacheHints;
  readonly defaultTimeoutMs: number;
  readonly taskTimeoutMs: number;
  readonly progressIntervalMs: number;
  readonly inputErrors: 'tool' | 'protocol';
  /** A modern result as JSON: `resultType` (complete unless set) and the serverInfo `_meta` spliced in once. */
  modernResultJson(result: object): string;
}
