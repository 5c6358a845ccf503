// vetTool: the scan's pieces applied in the order the gateway needs, under the `gateway.poisoning` mode, so the core
// serves, strips or leaves out an upstream tool with one call and one reason.

import type { Tool } from '../../protocol/index.js';
import { refuseDefinition } from './refuse-definition.js';
import { scanTool, stripTool } from './scan-tool.js';
import type { DefinitionLimits, Finding } from './types.js';

/**
 * report: serve the tool with only invisible characters removed, and log the findings.
 * strip: cut comments and instruction blocks from its prose too; leave it out if a deny finding survives stripping
 * (a parameter asking for a secret, an instruction phrase, tag characters in data).
 * deny: leave it out on any deny finding; otherwise serve it with invisible characters removed.
 */
export type PoisoningMode = 'report' | 'strip' | 'deny';

export interface Vetting {
  /** The definition to serve, or undefined when the tool is left out. */
  tool: Tool | undefined;
  /** What the scan found in the definition as the upstream sent it (empty when it was refused unscanned). */
  findings: Finding[];
  /** Why the tool is left out, for the log and the status view; undefined when it is served. */
  reason: string | undefined;
}

const describe = (finding: Finding): string => `${finding.rule} at ${finding.where}: ${finding.detail}`;

/**
 * Refuses first (refuseDefinition: bounded, so a hostile definition is never scanned at length), then scans the
 * definition as sent, then applies the mode. Invisible characters never reach a model in any mode (threat C1).
 * Pin the definition as the upstream sent it, not the vetted one: a change hidden in invisible characters is a change.
 */
export function vetTool(tool: Tool, mode: PoisoningMode, limits: Partial<DefinitionLimits> = {}): Vetting {
  const refused = refuseDefinition(tool, limits);
  if (refused !== undefined) return { tool: undefined, findings: [], reason: refused };
  const findings = scanTool(tool);
  const denying = findings.filter((finding) => finding.severity === 'deny');
  switch (mode) {
    case 'report':
      return { tool: stripTool(tool, { blocks: false }), findings, reason: undefined };
    case 'deny': {
      const first = denying[0];
      if (first === undefined)
        return { tool: stripTool(tool, { blocks: false }), findings, reason: undefined };
      return { tool: undefined, findings, reason: poisoned(denying.length, first) };
    }
    case 'strip': {
      const stripped = stripTool(tool);
      const left = scanTool(stripped).filter((finding) => finding.severity === 'deny');
      const first = left[0];
      if (first === undefined) return { tool: stripped, findings, reason: undefined };
      return { tool: undefined, findings, reason: `${poisoned(left.length, first)} (left after stripping)` };
    }
  }
}

const poisoned = (count: number, first: Finding): string =>
  `the definition is poisoned (${count} finding${count === 1 ? '' : 's'} that deny): ${describe(first)}`;
