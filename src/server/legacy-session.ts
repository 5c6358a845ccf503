// What a legacy (initialize) session remembers between its requests.

import type {
  Caller,
  ClientCapabilities,
  Implementation,
  LegacyRevision,
  LoggingLevel,
} from '../protocol/index.js';

export interface LegacySession {
  revision: LegacyRevision;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
  initialized: boolean;
  /** Resource URIs this session subscribed to (resources/subscribe). */
  resourceSubscriptions: Set<string>;
  /** Who opened the session. */
  caller: Caller;
}
