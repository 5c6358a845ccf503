// Walks a directory tree inside one root, depth first in name order, honouring .gitignore files and never following links.

import { promises as fs, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Confinement, OpenedDirectory } from '../confinement.js';
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
  /** Verifies the file once opened: the path above is only what the walk saw. */
  confinement: Confinement;
}

export interface WalkStart {
  root: string;
  /** The directory to walk, relative to the root ("." for the root itself). */
  relative: string;
  confinement: Confinement;
  /** The directory as the model sees it, for the refusal when it cannot be opened and verified. */
  shown: string;
}

/** Whether a file's name ends with one of the extensions (lower case, without the dot); undefined accepts all. */
export const hasExtension = (name: string, extensions: readonly string[] | undefined): boolean =>
  extensions === undefined || extensions.some((extension) => name.toLowerCase().endsWith(`.${extension}`));

/** Reads a .gitignore that is a regular file inside the root (not a link, FIFO…), or undefined when there is none. */
async function loadIgnoreFile(path: string, start: WalkStart): Promise<IgnoreFile | undefined> {
  let handle: fs.FileHandle;
  try {
    ({ handle } = await start.confinement.openFile(path, start.root, path));
  } catch {
    return undefined;
  }
  try {
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
    const file = await loadIgnoreFile(join(start.root, ...parts.slice(0, depth), '.gitignore'), start);
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

/**
 * Opens a directory, verifies the handle is inside the root, and reads its entries (and its .gitignore) through that
 * handle, so that what is listed is the directory that was verified whatever is renamed meanwhile. A directory that
 * cannot be opened or verified is searched as empty, except the one the walk starts from: that is refused.
 */
async function openFrame(
  start: WalkStart,
  real: string,
  relative: string,
  inherited: readonly IgnoreLayer[],
  isStart = false,
): Promise<Frame> {
  let directory: OpenedDirectory;
  try {
    directory = await start.confinement.openDirectory(real, start.root, start.shown);
  } catch (error) {
    if (isStart) throw error;
    return { real, relative, layers: inherited, entries: [], next: 0 };
  }
  let entries: Dirent[] = [];
  let own: IgnoreFile | undefined;
  try {
    await directory.read(async (path) => {
      entries = await fs.readdir(path, { withFileTypes: true });
      if (entries.some((entry) => entry.name === '.gitignore'))
        own = await loadIgnoreFile(join(path, '.gitignore'), start);
    });
  } catch {
    entries = []; // unreadable (permissions), gone or moved meanwhile: nothing to search there
    own = undefined;
  } finally {
    await directory.close();
  }
  entries.sort(byName);
  const layers = own === undefined ? inherited : [...inherited, { base: relative, file: own }];
  return { real: directory.real, relative, layers, entries, next: 0 };
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
  const first = start.relative === '.' ? '' : start.relative;
  const firstReal = first === '' ? start.root : join(start.root, first);
  const stack: Frame[] = [await openFrame(start, firstReal, first, await ancestorLayers(start), true)];
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
      stack.push(await openFrame(start, join(frame.real, entry.name), relative, frame.layers));
    } else if (entry.isFile()) {
      if (entry.name === '.git' || !hasExtension(entry.name, extensions)) continue; // .git is a file in worktrees
      if (isIgnored(frame.layers, relative, false)) continue;
      yield {
        real: join(frame.real, entry.name),
        relative,
        root: start.root,
        confinement: start.confinement,
      };
    }
  }
}
