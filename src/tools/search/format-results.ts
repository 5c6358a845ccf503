// The readable text of a search result: grep-style lines (path:line:column: text), context, and what was left out.

import { formatBytes } from '../files/index.js';

export interface FoundMatch {
  path: string;
  line: number;
  column: number;
  preview: string;
  before: string[];
  after: string[];
}

export type StopReason = 'maxResults' | 'maxFiles' | 'timeBudget' | 'matchBudget';

export interface SearchSummary {
  shownPattern: string;
  matches: readonly FoundMatch[];
  filesScanned: number;
  skippedBinary: number;
  skippedLarge: number;
  skippedUnreadable: number;
  stoppedBy: StopReason | undefined;
  limits: {
    maxResults: number;
    maxResultsLimit: number;
    maxFiles: number;
    maxFileBytes: number;
    timeBudgetMs: number;
    matchBudgetMs: number;
  };
}

const count = (value: number, singular: string, plural = `${singular}s`): string =>
  `${value} ${value === 1 ? singular : plural}`;

/** Lines without context: one per match. */
const plainLines = (matches: readonly FoundMatch[]): string[] =>
  matches.map((match) => `${match.path}:${match.line}:${match.column}: ${match.preview}`);

/** Lines with context: per file, matches and their neighbours merged in line order, "--" between separate runs. */
function contextLines(matches: readonly FoundMatch[]): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < matches.length) {
    const path = (matches[index] as FoundMatch).path;
    const rows = new Map<number, string>();
    const matchRows = new Set<number>();
    for (; index < matches.length && (matches[index] as FoundMatch).path === path; index++) {
      const match = matches[index] as FoundMatch;
      match.before.forEach((text, offset) => {
        const line = match.line - match.before.length + offset;
        if (!matchRows.has(line)) rows.set(line, `${path}-${line}- ${text}`);
      });
      rows.set(match.line, `${path}:${match.line}:${match.column}: ${match.preview}`);
      matchRows.add(match.line);
      match.after.forEach((text, offset) => {
        const line = match.line + 1 + offset;
        if (!matchRows.has(line)) rows.set(line, `${path}-${line}- ${text}`);
      });
    }
    let previous: number | undefined;
    for (const line of [...rows.keys()].sort((a, b) => a - b)) {
      if (out.length > 0 && (previous === undefined || line !== previous + 1)) out.push('--');
      out.push(rows.get(line) as string);
      previous = line;
    }
  }
  return out;
}

const joinAnd = (parts: readonly string[]): string =>
  parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;

function notes(summary: SearchSummary): string[] {
  const { limits } = summary;
  const lines: string[] = [];
  switch (summary.stoppedBy) {
    case 'maxResults':
      lines.push(
        `There are more matches: only the first ${limits.maxResults} are shown. Narrow the search (path, fileType, a more specific pattern) or raise maxResults (up to ${limits.maxResultsLimit}).`,
      );
      break;
    case 'maxFiles':
      lines.push(
        `The search stopped after examining ${limits.maxFiles} files (its limit); narrow it with path or fileType.`,
      );
      break;
    case 'timeBudget':
      lines.push(
        `The search stopped at its ${limits.timeBudgetMs} ms time budget; narrow it with path or fileType.`,
      );
      break;
    case 'matchBudget':
      lines.push(
        `The search stopped when it had spent its ${limits.matchBudgetMs} ms matching budget; narrow it with path or fileType, or use a simpler pattern.`,
      );
      break;
    case undefined:
      break;
  }
  const skipped: string[] = [];
  if (summary.skippedBinary > 0) skipped.push(count(summary.skippedBinary, 'binary file'));
  if (summary.skippedLarge > 0) {
    skipped.push(`${count(summary.skippedLarge, 'file')} over ${formatBytes(limits.maxFileBytes)}`);
  }
  if (summary.skippedUnreadable > 0) skipped.push(count(summary.skippedUnreadable, 'unreadable file'));
  if (skipped.length > 0) lines.push(`Skipped ${joinAnd(skipped)}.`);
  return lines;
}

export function renderSearch(summary: SearchSummary, withContext: boolean): string {
  const { matches, filesScanned } = summary;
  const searched = count(filesScanned, 'file');
  if (matches.length === 0) {
    return [`No matches for ${summary.shownPattern} in ${searched}.`, ...notes(summary)].join('\n');
  }
  const files = new Set(matches.map((match) => match.path)).size;
  const header = `${count(matches.length, 'match', 'matches')} for ${summary.shownPattern} in ${count(files, 'file')} (${searched} searched):`;
  const body = withContext ? contextLines(matches) : plainLines(matches);
  return [header, ...body, ...notes(summary)].join('\n');
}
