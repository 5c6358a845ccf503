// Which of an upstream's tools the gateway serves, and as what: refused definitions (C5/C6: remote $ref, schema
// bombs, oversize) and listings past the bounds are left out with a reason; poisoned ones (C1) are reported, and
// served as they are, cleaned, or not at all (gateway.scan); a definition that changed since it was pinned (C2/C3)
// is quarantined — neither listed nor callable — until `toolwire pins approve`.

import type { Tool } from '../protocol/index.js';
import type { Logger } from '../server/index.js';
import type { ScanMode } from './config.js';
import type { PinBook } from './pins/index.js';
import { refuseDefinition, scanTool, stripTool, type ListingLimits } from './scan/index.js';

export interface Selection {
  /** The tools to serve, in the upstream's order (cleaned when scan is "strip"). */
  served: Tool[];
  /** Upstream tool names left out, with why (for the log and the status view). */
  left: Array<{ tool: string; reason: string }>;
}

export interface SelectOptions {
  scan: ScanMode;
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
  const candidates: Tool[] = [];
  for (const tool of tools) {
    const bytes = Buffer.byteLength(JSON.stringify(tool));
    if (bytes > options.limits.maxDefinitionBytes) {
      leave(
        tool.name,
        `its definition is ${bytes} bytes, over the limit of ${options.limits.maxDefinitionBytes}`,
      );
      continue;
    }
    const refusal = refuseDefinition(tool);
    if (refusal !== undefined) {
      leave(tool.name, refusal);
      continue;
    }
    const findings = scanTool(tool);
    for (const finding of findings) {
      options.logger.warn(
        `gateway: upstream "${server}" tool ${printable(tool.name)}: ${finding.rule} (${finding.severity}) in ${finding.where}: ${finding.detail}`,
      );
    }
    if (findings.length > 0 && options.scan === 'deny') {
      leave(
        tool.name,
        `its definition has ${findings.length} poisoning finding(s) and gateway.scan is "deny"`,
      );
      continue;
    }
    // Pinned as the upstream sent it, before any cleaning: the pin is of what the upstream says, not what we show.
    options.pins.check(server, tool);
    candidates.push(findings.length > 0 && options.scan === 'strip' ? stripTool(tool) : tool);
  }
  // What the book holds back: changed definitions, and first sightings when gateway.firstUse is "quarantine".
  const held = new Set(
    options.pins
      .quarantined()
      .filter((record) => record.server === server)
      .map((record) => record.tool),
  );
  for (const tool of candidates) {
    if (held.has(tool.name)) {
      leave(
        tool.name,
        `quarantined by the pin store until \`toolwire pins approve ${server}___${tool.name}\``,
      );
    } else selection.served.push(tool);
  }
  return selection;
}
