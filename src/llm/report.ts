// The compile report: per tool, what was changed or why it was left out, in words a person can act on.

import type { ProfileId } from './profiles.js';

export type ToolStatus = 'unchanged' | 'changed' | 'not-strict' | 'left-out';

export interface ToolReport {
  /** The MCP tool's name. */
  tool: string;
  /** Its name at the model API (absent when left out before a name was given). */
  providerName?: string;
  status: ToolStatus;
  /** What was changed to fit the profile. */
  changes: string[];
  /** Why it was sent without strict mode, or left out. */
  reason?: string;
}

export interface CompileReport {
  profile: ProfileId;
  tools: ToolReport[];
  /** Tools sent (changed or not). */
  sent: number;
  leftOut: number;
}

/** A name as the server sent it, quoted when it holds anything but printable ASCII (a name cannot start a line). */
const shown = (name: string): string => (/^[\x20-\x7e]*$/.test(name) ? name : JSON.stringify(name));

/** Text from a server (keys, pointers) on one line: control characters escaped as JSON would. */
const oneLine = (text: string): string =>
  [...text].map((c) => (c < ' ' || c === '\u007f' ? JSON.stringify(c).slice(1, -1) : c)).join('');

/** The report as lines for a terminal (stderr of `toolwire list --format`); unchanged tools are not mentioned. */
export function formatReport(report: CompileReport): string {
  const lines = [
    `${report.profile}: ${report.sent} tool${report.sent === 1 ? '' : 's'} converted, ${report.leftOut} left out`,
  ];
  for (const entry of report.tools) {
    if (entry.status === 'unchanged') continue;
    const renamed =
      entry.providerName !== undefined && entry.providerName !== entry.tool
        ? ` (as ${entry.providerName})`
        : '';
    const label =
      entry.status === 'left-out'
        ? 'left out'
        : entry.status === 'not-strict'
          ? 'sent without strict mode'
          : 'changed';
    lines.push(
      `  ${shown(entry.tool)}${renamed}: ${label}${entry.reason === undefined ? '' : `: ${oneLine(entry.reason)}`}`,
    );
    for (const change of entry.changes) lines.push(`    - ${oneLine(change)}`);
  }
  return lines.join('\n');
}
