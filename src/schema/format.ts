// Issue lists as a model sees them: deduplicated, ordered by path, capped, and rendered as one message.

import { comparePointers, displayPath } from './pointer.js';
import type { ValidationIssue } from './types.js';

/** At most this many issues are kept; the rest become one "(and N more)" issue. */
export const MAX_ISSUES = 20;

const MORE = /^\(and \d+ more\)$/;

/** Drops repeats, orders by path (stable, so one value's issues keep their order), and caps the list. */
export function limitIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  const unique = issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => comparePointers(a.path, b.path));
  if (unique.length <= MAX_ISSUES) return unique;
  const kept = unique.slice(0, MAX_ISSUES);
  kept.push({ path: '', message: `(and ${unique.length - MAX_ISSUES} more)` });
  return kept;
}

/**
 * `Invalid arguments for tool "calculate_sum":\n- a: must be number, got string`.
 * `subject` is the first line without its colon. Line breaks inside messages are flattened so each issue is one line.
 */
export function formatIssues(issues: readonly ValidationIssue[], subject: string): string {
  const lines = issues.map(({ path, message }) => {
    const text = message.replace(/\s*[\r\n]+\s*/g, ' ');
    return path === '' && MORE.test(text) ? `- ${text}` : `- ${displayPath(path)}: ${text}`;
  });
  return lines.length === 0 ? `${subject}.` : `${subject}:\n${lines.join('\n')}`;
}
