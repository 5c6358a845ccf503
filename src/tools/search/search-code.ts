// The search_code tool: find text or a regular expression in the files under the roots, grep-style.

import type { ContentBlock } from '../../protocol/index.js';
import { defineTool, text, type ToolConfig } from '../../server/index.js';
import { fileLink, formatBytes } from '../files/index.js';
import type { PackEnvironment } from '../pack.js';
import { MAX_PATH_LENGTH, type ResolvedPath, type Roots } from '../roots.js';
import type { SearchConfig } from './config.js';
import { renderSearch } from './format-results.js';
import { MAX_PATTERN_LENGTH, buildQuery, parseFileTypes } from './query.js';
import { MatchPool } from './match-pool.js';
import { PREVIEW_CHARS, runSearch, type MatchedFile } from './run-search.js';
import { Slots } from './slots.js';
import { walkFiles, type Candidate } from './walk.js';

const DEFAULT_MAX_RESULTS = 20;
const MAX_RESULTS_LIMIT = 100;
const MAX_CONTEXT_LINES = 10;
/**
 * Searches in progress at once, per matching thread; more wait for a turn within their time limit. Each holds up to
 * two batches of text, so this bounds their memory; the threads are shared among them fairly.
 */
const SEARCHES_PER_THREAD = 8;
/** The tool's own time limit leaves room beyond the search budget for the answer to be built. */
const TIMEOUT_MARGIN_MS = 10_000;

interface SearchCodeArgs {
  pattern: string;
  regex?: boolean;
  caseSensitive?: boolean;
  fileType?: string;
  path?: string;
  maxResults?: number;
  contextLines?: number;
}

const shownPath = (roots: Roots, candidate: Candidate): string => roots.display(candidate);

/** What to search: every root, one directory (walked), or one file (searched as is, whatever its extension). */
async function candidatesFor(
  roots: Roots,
  path: string | undefined,
  extensions: readonly string[] | undefined,
): Promise<(keepGoing: () => boolean) => AsyncIterable<Candidate>> {
  if (path === undefined) {
    return async function* (keepGoing) {
      for (const root of roots.list) {
        const shown = roots.display({ real: root, relative: '.' });
        yield* walkFiles(
          { root, relative: '.', confinement: roots.confinement, shown },
          extensions,
          keepGoing,
        );
      }
    };
  }
  const resolved: ResolvedPath = await roots.resolve(path, 'any');
  if (resolved.stats?.isDirectory() === true) {
    return (keepGoing) => walkFiles({ ...resolved, shown: roots.display(resolved) }, extensions, keepGoing);
  }
  const single: Candidate = resolved;
  return async function* () {
    yield single;
  };
}

export function searchCodeTool(config: SearchConfig, environment: PackEnvironment): ToolConfig {
  const { roots } = environment;
  const slots = new Slots(SEARCHES_PER_THREAD * config.matchingThreads);
  const pool = new MatchPool(config.matchingThreads, PREVIEW_CHARS);
  const maxFileSize = formatBytes(config.maxFileBytes);
  const tool = defineTool({
    name: 'search_code',
    title: 'Search code',
    description:
      'Searches the text files under the allowed roots for a literal string (default) or a JavaScript regular ' +
      'expression (regex: true), line by line, and answers grep-style "path:line:column: text" lines plus structured ' +
      'matches. Honours .gitignore files (and always skips .git/ and node_modules/), skips binary files, files over ' +
      `${maxFileSize} and symbolic links, and stops after ${config.maxFiles} files, ${config.timeBudgetMs} ms, or ` +
      `${config.matchBudgetMs} ms of matching (so a pattern that backtracks without end is stopped). ` +
      'Hidden files are searched. Case-insensitive unless caseSensitive is true. Example: {"pattern": "TODO", "fileType": "ts,tsx", "path": "src", ' +
      '"contextLines": 2}.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_PATTERN_LENGTH,
          description:
            'The text to find, or a regular expression when regex is true (matched within single lines)',
        },
        regex: {
          type: 'boolean',
          default: false,
          description:
            'Treat pattern as a JavaScript regular expression (u flag; ^ and $ match at line ends). Default false: literal text.',
        },
        caseSensitive: {
          type: 'boolean',
          default: false,
          description: 'Match letter case exactly. Default false.',
        },
        fileType: {
          type: 'string',
          maxLength: 200,
          description:
            'Only files with these extensions: one, or several separated by commas, without wildcards, for example "ts" or "ts,tsx,md". Default: every file.',
        },
        path: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_PATH_LENGTH,
          description:
            'A directory to search (or a single file), relative to the first root or absolute inside a root. Default: every root.',
        },
        maxResults: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_RESULTS_LIMIT,
          default: DEFAULT_MAX_RESULTS,
          description: `Most matches to return (at most one per line). Default ${DEFAULT_MAX_RESULTS}.`,
        },
        contextLines: {
          type: 'integer',
          minimum: 0,
          maximum: MAX_CONTEXT_LINES,
          default: 0,
          description: 'Lines of context to show before and after each match. Default 0.',
        },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        matches: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              line: { type: 'integer', description: '1-based' },
              column: { type: 'integer', description: '1-based, in characters' },
              preview: { type: 'string', description: `The line, cut to about ${PREVIEW_CHARS} characters` },
              context: {
                type: 'object',
                properties: {
                  before: { type: 'array', items: { type: 'string' } },
                  after: { type: 'array', items: { type: 'string' } },
                },
                required: ['before', 'after'],
                additionalProperties: false,
              },
            },
            required: ['path', 'line', 'column', 'preview'],
            additionalProperties: false,
          },
        },
        truncated: {
          type: 'boolean',
          description: 'True when the search stopped before the end (see stoppedBy)',
        },
        stoppedBy: { type: 'string', enum: ['maxResults', 'maxFiles', 'timeBudget', 'matchBudget'] },
        filesScanned: { type: 'integer', description: 'Text files searched' },
        filesSkipped: {
          type: 'object',
          properties: {
            binary: { type: 'integer' },
            tooLarge: { type: 'integer' },
            unreadable: {
              type: 'integer',
              description: 'Gone, not permitted, or not a regular file when opened',
            },
          },
          required: ['binary', 'tooLarge', 'unreadable'],
          additionalProperties: false,
        },
      },
      required: ['matches', 'truncated', 'filesScanned', 'filesSkipped'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    timeoutMs: environment.timeouts['search_code'] ?? config.timeBudgetMs + TIMEOUT_MARGIN_MS,
    handler: async (raw, ctx) => {
      const args = raw as unknown as SearchCodeArgs; // validated against the inputSchema above
      const query = buildQuery(args.pattern, args.regex ?? false, args.caseSensitive ?? false);
      const extensions = parseFileTypes(args.fileType);
      const maxResults = args.maxResults ?? DEFAULT_MAX_RESULTS;
      const contextLines = args.contextLines ?? 0;
      const candidates = await candidatesFor(roots, args.path, extensions);
      const release = await slots.acquire(ctx.signal);
      const outcome = await runSearch({
        query,
        candidates,
        show: (candidate) => shownPath(roots, candidate),
        maxResults,
        contextLines,
        maxFiles: config.maxFiles,
        maxFileBytes: config.maxFileBytes,
        timeBudgetMs: config.timeBudgetMs,
        matchBudgetMs: config.matchBudgetMs,
        pool,
        owner: ctx.auth?.subject ?? '',
        signal: ctx.signal,
        onProgress: (filesScanned, matches) =>
          ctx.progress(filesScanned, undefined, `searched ${filesScanned} files, ${matches} matches`),
      }).finally(release);
      const summary = renderSearch(
        {
          shownPattern: query.shown,
          matches: outcome.matches,
          filesScanned: outcome.filesScanned,
          skippedBinary: outcome.skippedBinary,
          skippedLarge: outcome.skippedLarge,
          skippedUnreadable: outcome.skippedUnreadable,
          stoppedBy: outcome.stoppedBy,
          limits: {
            maxResults,
            maxResultsLimit: MAX_RESULTS_LIMIT,
            maxFiles: config.maxFiles,
            maxFileBytes: config.maxFileBytes,
            timeBudgetMs: config.timeBudgetMs,
            matchBudgetMs: config.matchBudgetMs,
          },
        },
        contextLines > 0,
      );
      const linked = new Map<string, MatchedFile>();
      for (const match of outcome.matches) linked.set(match.path, match.file);
      const links = [...linked].map(([shown, file]) => fileLink(file.candidate.real, shown, file.size));
      const content: ContentBlock[] = [text(summary), ...links];
      return {
        content,
        structuredContent: {
          matches: outcome.matches.map(({ path, line, column, preview, before, after }) => ({
            path,
            line,
            column,
            preview,
            ...(contextLines > 0 && { context: { before, after } }),
          })),
          truncated: outcome.stoppedBy !== undefined,
          ...(outcome.stoppedBy !== undefined && { stoppedBy: outcome.stoppedBy }),
          filesScanned: outcome.filesScanned,
          filesSkipped: {
            binary: outcome.skippedBinary,
            tooLarge: outcome.skippedLarge,
            unreadable: outcome.skippedUnreadable,
          },
        },
      };
    },
  });
  return tool as unknown as ToolConfig; // erase the argument types for the pack's list
}
