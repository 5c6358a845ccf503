// An upstream's log messages (notifications/message) during proxied requests, handed to the inbound request they
// belong to. The wire does not say which request a log message is about, so: when exactly one proxied request to
// that upstream is in flight, it is that one's; otherwise the gateway's own log gets it (never another caller).

import type { McpClient } from '../client/index.js';
import type { JsonObject } from '../jsonrpc/index.js';
import { isLoggingLevel, Notification } from '../protocol/index.js';
import type { Logger, ToolContext } from '../server/index.js';

interface Watched {
  readonly calls: Set<ToolContext>;
  readonly stop: () => void;
}

export class CallLogs {
  readonly #server: string;
  readonly #logger: Logger;
  readonly #watched = new Map<McpClient, Watched>();

  constructor(server: string, logger: Logger) {
    this.#server = server;
    this.#logger = logger;
  }

  /** Routes `client`'s log messages to `ctx` while the returned function is not yet called. */
  open(client: McpClient, ctx: ToolContext): () => void {
    let watched = this.#watched.get(client);
    if (watched === undefined) {
      const calls = new Set<ToolContext>();
      const stop = client.onNotification(Notification.Message, (params) => this.#message(calls, params));
      watched = { calls, stop };
      this.#watched.set(client, watched);
    }
    const entry = watched;
    entry.calls.add(ctx);
    return () => {
      entry.calls.delete(ctx);
      if (entry.calls.size > 0) return;
      entry.stop();
      this.#watched.delete(client);
    };
  }

  #message(calls: ReadonlySet<ToolContext>, params: JsonObject | undefined): void {
    const level = params?.level;
    if (!isLoggingLevel(level)) return;
    const logger = typeof params?.logger === 'string' ? params.logger : this.#server;
    if (calls.size === 1) {
      for (const ctx of calls) ctx.log(level, params?.data, logger);
      return;
    }
    this.#logger.debug(
      `upstream "${this.#server}" log (${level}, ${logger}): ${JSON.stringify(params?.data)?.slice(0, 500)}`,
    );
  }
}
