// The client's side of pinning (threat C2): each listed tool goes through ClientOptions.pins, and a tool whose
// definition changed since it was last seen is warned about with the diff. The hook keeps the memory; this only asks.

import type { Tool } from '../protocol/index.js';
import type { ClientSession } from './session.js';

export function checkPins(session: ClientSession, tools: readonly Tool[]): void {
  const pins = session.options.pins;
  if (pins === undefined) return;
  const server = session.serverName;
  for (const tool of tools) {
    let verdict;
    try {
      verdict = pins.check(server, tool);
    } catch (error) {
      // A broken store must not break listing: one warning, and no more checks on this list.
      session.logger.warn(`cannot check the tools against their pins: ${(error as Error).message}`);
      return;
    }
    if (verdict.kind !== 'changed') continue;
    const note = pins.note?.(server, tool.name);
    session.logger.warn(
      `tool "${tool.name}" of ${server} changed since it was last seen:\n${verdict.diff}${note === undefined ? '' : `\n${note}`}`,
    );
  }
}
