// Walks a directory tree inside one root, depth first in name order, honouring .gitignore files and never following links.

import { constants, promises as fs, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { IgnoreFile, isIgnored, type IgnoreLayer } from './gitignore.js';

/** Directories never searched, whatever the ignore files say. */
const ALWAYS_SKIPPED: ReadonlySet<string> = new Set(['.git', 'node_modules']);
/** Only the first part of a larger .gitignore is read. */
const MAX_IGNORE_FILE_BYTES = 256 * 1024;

export interface Candidate {
  /** Absolute real path (no component is a symbolic link: links are never entered). */
  real: string;
  /** Relative to the root, "/"-separated. */
  relative: string;
  root: string;
}

export interface WalkStart {
  root: string;
  /** The directory to walk, relative to the root ("." for the root itself). */
  relative: string;
}

/** Whether a file's name ends with one of the extensions (lower case, without the dot); undefined accepts all. */
export const hasExtension = (name: string, extensions: readonly string[] | undefined): boolean =>
  extensions === undefined || extensions.some((extension) => name.toLowerCase().endsWith(`.${extension}`));

/** Reads a .gitignore that is a regular file (not a link, FIFO…), or undefined when there is none. */
async function loadIgnoreFile(directory: string): Promise<IgnoreFile | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(
      join(directory, '.gitignore'),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch {
    return undefined;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_IGNORE_FILE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const file = new IgnoreFile(buffer.subarray(0, bytesRead).toString('utf8'));
    return file.size > 0 ? file : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The .gitignore layers of the directories above `start` (root first), which apply inside it too. */
async function ancestorLayers(start: WalkStart): Promise<IgnoreLayer[]> {
  const layers: IgnoreLayer[] = [];
  if (start.relative === '.') return layers;
  const parts = start.relative.split('/');
  for (let depth = 0; depth < parts.length; depth++) {
    const base = parts.slice(0, depth).join('/');
    const file = await loadIgnoreFile(join(start.root, ...parts.slice(0, depth)));
    if (file !== undefined) layers.push({ base, file });
  }
  return layers;
}

interface Frame {
  real: string;
  /** Relative to the root; "" for the root itself. */
  relative: string;
  layers: readonly IgnoreLayer[];
  entries: Dirent[];
  next: number;
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function openFrame(real: string, relative: string, inherited: readonly IgnoreLayer[]): Promise<Frame> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(real, { withFileTypes: true });
  } catch {
    entries = []; // unreadable (permissions) or gone meanwhile: nothing to search there
  }
  entries.sort(byName);
  const own = entries.some((entry) => entry.name === '.gitignore') ? await loadIgnoreFile(real) : undefined;
  const layers = own === undefined ? inherited : [...inherited, { base: relative, file: own }];
  return { real, relative, layers, entries, next: 0 };
}

/**
 * The files under `start` that a search should read, in a stable order: regular files only (symbolic links, FIFOs,
 * sockets and devices are skipped, never followed), minus ignored ones, .git/ and node_modules/.
 */
export async function* walkFiles(
  start: WalkStart,
  extensions: readonly string[] | undefined,
  keepGoing: () => boolean,
): AsyncGenerator<Candidate, void, undefined> {
  const startRelative = start.relative === '.' ? '' : start.relative;
  const startReal = startRelative === '' ? start.root : join(start.root, startRelative);
  const stack: Frame[] = [await openFrame(startReal, startRelative, await ancestorLayers(start))];
  while (stack.length > 0 && keepGoing()) {
    const frame = stack[stack.length - 1] as Frame;
    const entry = frame.entries[frame.next++];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    const relative = frame.relative === '' ? entry.name : `${frame.relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (ALWAYS_SKIPPED.has(entry.name) || isIgnored(frame.layers, relative, true)) continue;
      stack.push(await openFrame(join(frame.real, entry.name), relative, frame.layers));
    } else if (entry.isFile()) {
      if (entry.name === '.git' || !hasExtension(entry.name, extensions)) continue; // .git is a file in worktrees
      if (isIgnored(frame.layers, relative, false)) continue;
      yield { real: join(frame.real, entry.name), relative, root: start.root };
    }
  }
}
