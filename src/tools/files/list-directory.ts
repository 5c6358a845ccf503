// The list_directory tool: a directory's entries, sorted by name, with types, sizes and links to the files.

import { promises as fs, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { ContentBlock } from '../../protocol/index.js';
import { ToolError, defineTool, text, type ToolConfig } from '../../server/index.js';
import type { PackEnvironment } from '../pack.js';
import { MAX_PATH_LENGTH, openDirectory } from '../roots.js';
import { formatBytes } from './bytes.js';
import { fileLink } from './file-link.js';

export const LIST_DIRECTORY_TIMEOUT_MS = 30_000;
/** At most this many names are read from one directory; a bigger directory is listed from these (truncated). */
export const MAX_SCANNED_ENTRIES = 100_000;
/** resource_link blocks per listing: the first files only, so huge listings stay readable. */
export const MAX_FILE_LINKS = 100;
const DEFAULT_MAX_ENTRIES = 500;
const MAX_ENTRIES_LIMIT = 5000;
const STAT_CONCURRENCY = 32;

type EntryType = 'file' | 'directory' | 'symlink' | 'other';

interface Entry {
  name: string;
  type: EntryType;
  size?: number;
}

interface ListDirectoryArgs {
  path?: string;
  includeHidden?: boolean;
  maxEntries?: number;
}

const typeOf = (stats: Stats): EntryType =>
  stats.isSymbolicLink() ? 'symlink' : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other';

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every name in the directory (up to MAX_SCANNED_ENTRIES), hidden ones counted apart unless wanted. `directory` is the
 * opened directory's own path (see OpenedDirectory), never the path the model gave, which may lead elsewhere by now.
 */
async function readNames(
  directory: string,
  includeHidden: boolean,
  signal: AbortSignal,
): Promise<{ names: string[]; hidden: number; capped: boolean }> {
  const names: string[] = [];
  let hidden = 0;
  let seen = 0;
  const dir = await fs.opendir(directory, { bufferSize: 256 });
  try {
    for await (const dirent of dir) {
      if (++seen > MAX_SCANNED_ENTRIES) return { names, hidden, capped: true };
      if (signal.aborted) throw new ToolError('list_directory was cancelled');
      if (!includeHidden && dirent.name.startsWith('.')) hidden++;
      else names.push(dirent.name);
    }
  } finally {
    await dir.close().catch(() => undefined); // iterating to the end closes it already
  }
  return { names, hidden, capped: false };
}

/**
 * lstat of each name in the opened directory (never following links), a few at a time; entries that vanished
 * meanwhile are left out.
 */
async function describeEntries(
  directory: string,
  names: readonly string[],
  report: (done: number) => void,
): Promise<Entry[]> {
  const entries: (Entry | undefined)[] = new Array<Entry | undefined>(names.length);
  for (let from = 0; from < names.length; from += STAT_CONCURRENCY) {
    const slice = names.slice(from, from + STAT_CONCURRENCY);
    const stats = await Promise.all(
      slice.map((name) => fs.lstat(join(directory, name)).catch(() => undefined)),
    );
    stats.forEach((stat, offset) => {
      const name = slice[offset] as string;
      if (stat === undefined) return;
      const type = typeOf(stat);
      entries[from + offset] = type === 'file' ? { name, type, size: stat.size } : { name, type };
    });
    report(Math.min(from + STAT_CONCURRENCY, names.length));
  }
  return entries.filter((entry): entry is Entry => entry !== undefined);
}

interface Listing {
  /** Every visible name read, sorted. */
  names: string[];
  hidden: number;
  capped: boolean;
  /** The first maxEntries names, described (those that vanished meanwhile left out). */
  entries: Entry[];
}

/** Reads, sorts and describes the entries of the directory at `path` (the opened directory's own path). */
async function listNames(
  path: string,
  includeHidden: boolean,
  maxEntries: number,
  signal: AbortSignal,
  report: (done: number, of: number) => void,
): Promise<Listing> {
  const { names, hidden, capped } = await readNames(path, includeHidden, signal);
  names.sort(byName);
  const kept = names.slice(0, maxEntries);
  const entries = await describeEntries(path, kept, (done) => report(done, kept.length));
  return { names, hidden, capped, entries };
}

const entryLine = (entry: Entry): string => {
  switch (entry.type) {
    case 'directory':
      return `- ${entry.name}/ (directory)`;
    case 'file':
      return `- ${entry.name} (file, ${formatBytes(entry.size ?? 0)})`;
    case 'symlink':
      return `- ${entry.name} (symbolic link, not followed)`;
    case 'other':
      return `- ${entry.name} (other: device, FIFO or socket)`;
  }
};

const countEntries = (count: number, adjective = ''): string =>
  `${count} ${adjective}${count === 1 ? 'entry' : 'entries'}`;

function summary(shown: string, total: number, kept: number, capped: boolean, hidden: number): string[] {
  const lines: string[] = [];
  if (total === 0) {
    lines.push(
      hidden > 0 ? `Directory "${shown}" has no visible entries.` : `Directory "${shown}" is empty.`,
    );
  } else if (capped) {
    lines.push(
      `Directory "${shown}" has more than ${MAX_SCANNED_ENTRIES} entries; showing ${kept} of the first ${MAX_SCANNED_ENTRIES} read, sorted by name.`,
    );
  } else if (kept < total) {
    lines.push(
      `Directory "${shown}": ${countEntries(total)}, showing the first ${kept} by name (raise maxEntries, up to ${MAX_ENTRIES_LIMIT}, to see more).`,
    );
  } else lines.push(`Directory "${shown}": ${countEntries(total)}.`);
  if (hidden > 0) {
    lines.push(
      `${countEntries(hidden, 'hidden ')} (names starting with ".") not shown; set includeHidden to true to list them.`,
    );
  }
  return lines;
}

export function listDirectoryTool(environment: PackEnvironment): ToolConfig {
  const { roots } = environment;
  const tool = defineTool({
    name: 'list_directory',
    title: 'List a directory',
    description:
      'Lists the entries of a directory inside the allowed roots, sorted by name: each with its type (file, ' +
      'directory, symlink, other) and, for files, its size in bytes, plus a resource link for each of the first ' +
      `${MAX_FILE_LINKS} files. Symbolic links are listed but not followed. Hidden entries (names starting with ".") ` +
      'are left out unless includeHidden is true. Example: {"path": "src", "maxEntries": 100}.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_PATH_LENGTH,
          default: '.',
          description:
            'The directory, relative to the first root or absolute inside a root. Default "." (the root).',
        },
        includeHidden: {
          type: 'boolean',
          default: false,
          description: 'List entries whose names start with "." too. Default false.',
        },
        maxEntries: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_ENTRIES_LIMIT,
          default: DEFAULT_MAX_ENTRIES,
          description: `Most entries to return (the first by name). Default ${DEFAULT_MAX_ENTRIES}.`,
        },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              type: { type: 'string', enum: ['file', 'directory', 'symlink', 'other'] },
              size: { type: 'integer', description: 'Bytes; files only' },
            },
            required: ['name', 'type'],
            additionalProperties: false,
          },
        },
        totalEntries: {
          type: 'integer',
          description: 'Visible entries in the directory (before maxEntries)',
        },
        hiddenOmitted: { type: 'integer', description: 'Hidden entries left out (includeHidden false)' },
        truncated: { type: 'boolean', description: 'True when entries were left out because of maxEntries' },
      },
      required: ['path', 'entries', 'totalEntries', 'hiddenOmitted', 'truncated'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    timeoutMs: environment.timeouts['list_directory'] ?? LIST_DIRECTORY_TIMEOUT_MS,
    handler: async (raw, ctx) => {
      const args = raw as unknown as ListDirectoryArgs; // validated against the inputSchema above
      const maxEntries = args.maxEntries ?? DEFAULT_MAX_ENTRIES;
      const resolved = await roots.resolve(args.path ?? '.', 'directory');
      const shown = roots.display(resolved);
      const directory = await openDirectory(resolved, shown);
      let listing: Listing;
      try {
        listing = await directory.read((path) =>
          listNames(path, args.includeHidden ?? false, maxEntries, ctx.signal, (done, of) =>
            ctx.progress(done, of, `described ${done} of ${of} entries`),
          ),
        );
      } finally {
        await directory.close();
      }
      const { names, hidden, capped, entries } = listing;
      const truncated = capped || names.length > maxEntries;
      const lines = [
        ...summary(shown, names.length, entries.length, capped, hidden),
        ...entries.map(entryLine),
      ];
      const links = entries
        .filter((entry) => entry.type === 'file')
        .slice(0, MAX_FILE_LINKS)
        .map((entry) =>
          fileLink(
            join(resolved.real, entry.name),
            shown === '.' ? entry.name : `${shown}/${entry.name}`,
            entry.size,
          ),
        );
      const content: ContentBlock[] = [text(lines.join('\n')), ...links];
      return {
        content,
        structuredContent: {
          path: shown,
          entries,
          totalEntries: names.length,
          hiddenOmitted: hidden,
          truncated,
        },
      };
    },
  });
  return tool as unknown as ToolConfig; // erase the argument types for the pack's list
}
