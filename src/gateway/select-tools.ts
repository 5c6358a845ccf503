// Which of an upstream's tools the gateway serves, and as what: refused definitions (C5/C6: remote $ref, schema
// bombs, oversize) and listings past the bounds are left out with a reason; poisoned ones (C1) are reported, and
// served as they are, cleaned, or not at all (gateway.poisoning, applied by the scan's vetTool); a definition that
// changed since it was pinned (C2/C3) is quarantined — neither listed nor callable — until `toolwire pins approve`.

import type { Tool } from '../protocol/index.js';
import type { Logger } from '../server/index.js';
import type { PinBook } from './pins/index.js';
import { vetTool, type ListingLimits, type PoisoningMode } from './scan/index.js';

export interface Selection {
  /** The tools to serve, in the upstream's order (cleaned when scan is "strip"). */
  served: Tool[];
  /** Upstream tool names left out, with why (for the log and the status view). */
  left: Array<{ tool: string; reason: string }>;
}

export interface SelectOptions {
  poisoning: PoisoningMode;
  limits: ListingLimits;
  pins: PinBook;
  logger: Logger;
}

const printable = (name: string): string => JSON.stringify(name.slice(0, 80));

export function selectTools(server: string, tools: readonly Tool[], options: SelectOptions): Selection {
  const selection: Selection = { served: [], left: [] };
  const leave = (tool: string, reason: string): void => {
    selection.left.push({ tool, reason });
    options.logger.warn(`gateway: upstream "${server}" tool ${printable(tool)} is not served: ${reason}`);
  };
  if (tools.length > options.limits.maxTools) {
    // C6: a listing that large is an attack or a mistake; serving part of it would be arbitrary.
    options.logger.warn(
      `gateway: upstream "${server}" listed ${tools.length} tools, over the limit of ${options.limits.maxTools}: none of its tools are served`,
    );
    return {
      served: [],
      left: [{ tool: '*', reason: `${tools.length} tools, over the limit of ${options.limits.maxTools}` }],
    };
  }
  const candidates: Array<{ original: Tool; shown: Tool }> = [];
  for (const tool of tools) {
    const vetting = vetTool(tool, options.poisoning, {
      maxDefinitionBytes: options.limits.maxDefinitionBytes,
    });
    for (const finding of vetting.findings) {
      options.logger.warn(
        `gateway: upstream "${server}" tool ${printable(tool.name)}: ${finding.rule} (${finding.severity}) in ${finding.where}: ${finding.detail}`,
      );
    }
    if (vetting.tool === undefined) leave(tool.name, vetting.reason ?? 'refused by the scan');
    else candidates.push({ original: tool, shown: vetting.tool });
  }
  // Pinned as the upstream sent it, before any cleaning: the pin is of what the upstream says, not what we show.
  // admit() fails closed: a tool the store cannot check is held back too.
  const admission = options.pins.admit(
    server,
    candidates.map((candidate) => candidate.original),
  );
  const allowed = new Set(admission.allowed.map((tool) => tool.name));
  for (const held of admission.held) {
    leave(
      held.tool,
      held.reason === 'changed'
        ? `quarantined: its definition is not the pinned one (see \`toolwire pins diff ${server}___${held.tool}\`, then \`toolwire pins approve\`)`
        : `the pin store could not check it: ${held.detail}`,
    );
  }
  for (const candidate of candidates)
    if (allowed.has(candidate.original.name)) selection.served.push(candidate.shown);
  return selection;
}
