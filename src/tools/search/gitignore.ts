// .gitignore files: parsing the common syntax and deciding, layer by layer, whether a path is ignored.

import { Glob } from './glob.js';

interface Rule {
  negate: boolean;
  directoryOnly: boolean;
  /** Matched against the path relative to the .gitignore's directory; otherwise against the name alone. */
  anchored: boolean;
  glob: Glob;
}

/** Strips trailing spaces unless the last one is escaped with a backslash. */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') {
    let backslashes = 0;
    for (let index = end - 2; index >= 0 && line[index] === '\\'; index--) backslashes++;
    if (backslashes % 2 === 1) break; // "\ " keeps this space
    end--;
  }
  return line.slice(0, end);
}

function parseRule(rawLine: string): Rule | undefined {
  let line = trimTrailingSpaces(rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine);
  if (line === '' || line.startsWith('#')) return undefined;
  const negate = line.startsWith('!');
  if (negate) line = line.slice(1);
  let directoryOnly = false;
  while (line.endsWith('/') && !line.endsWith('\\/')) {
    directoryOnly = true;
    line = line.slice(0, -1);
  }
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  if (line === '') return undefined;
  return { negate, directoryOnly, anchored, glob: new Glob(line) };
}

/** The rules of one .gitignore file. */
export class IgnoreFile {
  readonly #rules: readonly Rule[];

  constructor(text: string) {
    this.#rules = text
      .split('\n')
      .map(parseRule)
      .filter((rule): rule is Rule => rule !== undefined);
  }

  get size(): number {
    return this.#rules.length;
  }

  /**
   * true (ignored), false (re-included by a "!" rule) or undefined (no rule speaks about it): the last matching rule
   * decides. `path` is relative to this file's directory, "/"-separated; `name` is its last part.
   */
  verdict(path: string, name: string, isDirectory: boolean): boolean | undefined {
    for (let index = this.#rules.length - 1; index >= 0; index--) {
      const rule = this.#rules[index] as Rule;
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.glob.matches(rule.anchored ? path : name)) return !rule.negate;
    }
    return undefined;
  }
}

/** A .gitignore and where it sits: `base` is its directory relative to the walk's root ("" for the root). */
export interface IgnoreLayer {
  base: string;
  file: IgnoreFile;
}

/**
 * Whether `path` (relative to the root, "/"-separated) is ignored. Deeper files override shallower ones, as in git.
 * Directories that are ignored are never entered, so nothing below them can be re-included (git behaves the same).
 */
export function isIgnored(layers: readonly IgnoreLayer[], path: string, isDirectory: boolean): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  for (let index = layers.length - 1; index >= 0; index--) {
    const layer = layers[index] as IgnoreLayer;
    const relative = layer.base === '' ? path : path.slice(layer.base.length + 1);
    const verdict = layer.file.verdict(relative, name, isDirectory);
    if (verdict !== undefined) return verdict;
  }
  return false;
}
