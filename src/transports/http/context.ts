// What the HTTP handlers share: the server, the resolved options, the body budget, the legacy sessions and the
// requests in flight.

import type { LiveList } from '../../protocol/live-list.js';
import type { McpServer, ServerConnection } from '../../server/index.js';
import type { BodyLimits } from './body-budget.js';
import type { SessionRegistry } from './legacy/session-registry.js';
import type { ResolvedHttpOptions } from './options.js';
import type { ReplyChannel } from './reply-channel.js';

export interface HttpContext {
  readonly server: McpServer;
  readonly options: ResolvedHttpOptions;
  /** The body budget and clocks every request body is read under (both adapters). */
  readonly bodyLimits: BodyLimits;
  /** Undefined when the legacy wire is off. */
  readonly sessions: SessionRegistry | undefined;
  /** Requests being answered, so that shutdown can end them (a LiveList, not a Set: see live-list.ts). */
  readonly channels: LiveList<ReplyChannel>;
  /**
   * The one connection every modern POST goes through: shared (ids are the clients' own and not tracked), so a
   * request costs no connection of its own; each request's replies and cancellation travel in its MessageExtra.
   */
  modernConnection?: ServerConnection;
}
