// Tool names for a model API: deterministic, reversible through a table, within the provider's charset and length,
// shortened with a stable hash, server prefixes (`server___tool`) kept, and collisions refused.

import { createHash } from 'node:crypto';

/** The gateway's separator between a server's name and its tool's (see src/gateway). */
export const PREFIX_SEPARATOR = '___';
const HASH_CHARS = 8;

export interface RefusedName {
  name: string;
  reason: string;
}

export interface NameMapping {
  /** MCP name → provider name, for every accepted tool. */
  readonly toProvider: ReadonlyMap<string, string>;
  /** Provider name → MCP name: how a model's call finds its tool again. */
  readonly fromProvider: ReadonlyMap<string, string>;
  readonly refused: readonly RefusedName[];
}

/** 8 hex characters of SHA-256: the same text gives the same suffix on every machine and every run. */
export const stableHash = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('hex').slice(0, HASH_CHARS);

/**
 * The provider's name for one MCP name: characters outside `[a-zA-Z0-9_-]` become `_`, and a name longer than
 * `maxLength` keeps its start (and its whole `server___` prefix when it has one) plus `_` and 8 hex characters of
 * SHA-256 over the original name, so the same name always maps the same way, on every machine.
 */
export function providerName(name: string, maxLength: number): string {
  const safe = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (safe.length > 0 && safe.length <= maxLength) return safe;
  const suffix = `_${stableHash(name)}`;
  const cut = safe.lastIndexOf(PREFIX_SEPARATOR);
  const prefix = cut > 0 ? safe.slice(0, cut + PREFIX_SEPARATOR.length) : '';
  // The prefix is kept whole only when it leaves room for a readable piece of the tool's own name.
  if (prefix !== '' && prefix.length + suffix.length + 8 <= maxLength) {
    const room = maxLength - prefix.length - suffix.length;
    return `${prefix}${safe.slice(prefix.length, prefix.length + room)}${suffix}`;
  }
  return `${safe.slice(0, maxLength - suffix.length)}${suffix}`;
}

/**
 * Maps a tool list's names. Two MCP names that would share a provider name are refused (a model's call would be
 * ambiguous), except that a name the provider takes unchanged keeps it: the rename, not the original, gives way.
 */
export function mapNames(names: readonly string[], maxLength: number): NameMapping {
  const groups = new Map<string, string[]>();
  for (const name of new Set(names)) {
    const mapped = providerName(name, maxLength);
    const group = groups.get(mapped);
    if (group === undefined) groups.set(mapped, [name]);
    else group.push(name);
  }
  const toProvider = new Map<string, string>();
  const fromProvider = new Map<string, string>();
  const refused: RefusedName[] = [];
  for (const [mapped, group] of groups) {
    if (group.length === 1) {
      const only = group[0] as string; // a group is never empty
      toProvider.set(only, mapped);
      fromProvider.set(mapped, only);
      continue;
    }
    const exact = group.find((name) => name === mapped);
    if (exact !== undefined) {
      toProvider.set(exact, mapped);
      fromProvider.set(mapped, exact);
    }
    for (const name of group) {
      if (name === exact) continue;
      const others = group.filter((other) => other !== name).map((other) => JSON.stringify(other));
      refused.push({
        name,
        reason: `its model API name "${mapped}" would be the same as that of ${others.join(', ')}`,
      });
    }
  }
  return { toProvider, fromProvider, refused };
}
