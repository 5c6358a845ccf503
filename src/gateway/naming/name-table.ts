// Finding an entry by the name a client sent: exact match only, in both directions.

import type { NamedEntry } from './entries.js';

/** Lookups over one naming result. */
export interface NameTable {
  /** The entry a client's name means, or undefined: no case folding, trimming or Unicode normalisation (B5). */
  resolve(exposed: unknown): NamedEntry | undefined;
  /** The exposed name of an upstream entry (hidden or unknown entries have none). */
  exposedName(server: string, name: string): string | undefined;
  readonly size: number;
}

/**
 * Map keys compare strings code unit by code unit, which is exactly the match wanted: `FS___x`, `fs___x `,
 * `fs___x\u200d`, a Cyrillic `х` or `fs______x` are other strings, hence unknown names, answered like any other.
 */
export function createNameTable(entries: readonly NamedEntry[]): NameTable {
  const byExposed = new Map<string, NamedEntry>();
  const byUpstream = new Map<string, Map<string, string>>();
  for (const entry of entries) {
    byExposed.set(entry.exposed, entry);
    let names = byUpstream.get(entry.server);
    if (names === undefined) byUpstream.set(entry.server, (names = new Map()));
    names.set(entry.name, entry.exposed);
  }
  return {
    resolve: (exposed) => (typeof exposed === 'string' ? byExposed.get(exposed) : undefined),
    exposedName: (server, name) => byUpstream.get(server)?.get(name),
    size: byExposed.size,
  };
}
