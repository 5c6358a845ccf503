// Which stdio servers spoke only the legacy era last time, kept in the user's toolwire config directory
// ($XDG_CONFIG_HOME/toolwire/eras.json, else ~/.config/toolwire/…), so that list and call start them with
// `initialize` at once instead of asking server/discover first and falling back (a round trip, or the discover
// timeout for a legacy server that ignores unknown methods). Modern servers are not noted: discover is their handshake.
// The memory is a hint, never a source of errors: an unreadable or oversized file is ignored, a failed write skipped.

import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { replaceFile } from '../replace-file.js';

/** Far above one person's stdio servers; the ones noted longest ago make room beyond it. */
export const MAX_REMEMBERED_ERAS = 500;
/** A note older than this is not trusted: the server may have learnt the modern era; discover asks again. */
export const ERA_MEMORY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** A file larger than this was not written by us: it is ignored (and replaced at the next write). */
const MAX_FILE_BYTES = 256 * 1024;

export function eraMemoryPath(env: NodeJS.ProcessEnv): string {
  const config =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : undefined;
  return join(config ?? join(env.HOME ?? homedir(), '.config'), 'toolwire', 'eras.json');
}

/** Server key → when it was last seen speaking legacy only (ms since the epoch). */
type Legacy = Record<string, number>;

function read(path: string): Legacy {
  try {
    const text = readFileSync(path, 'utf8');
    if (text.length > MAX_FILE_BYTES) return {};
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const legacy = (parsed as { legacy?: unknown }).legacy;
    if (typeof legacy !== 'object' || legacy === null || Array.isArray(legacy)) return {};
    const entries = Object.entries(legacy).filter(
      (entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]),
    );
    return Object.fromEntries(entries);
  } catch {
    return {}; // missing or unreadable: nothing remembered
  }
}

function write(path: string, legacy: Legacy): void {
  const newest = Object.entries(legacy)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_REMEMBERED_ERAS);
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Whole or not at all: a second toolwire reading it never sees half a file.
    replaceFile(path, `${JSON.stringify({ legacy: Object.fromEntries(newest) })}\n`);
  } catch {
    // a read-only or full config directory: the next run asks server/discover again, which is only slower
  }
}

export interface EraMemory {
  /** 'legacy' when the server spoke only the legacy era last time. */
  readonly remembered: 'legacy' | undefined;
  /** Notes the era the client settled on: legacy is remembered, modern forgets an old legacy note. */
  settled(era: 'legacy' | 'modern' | undefined): void;
}

/** The memory for one server, known by `key` (the same key its tool pins use). */
export function eraMemory(key: string, env: NodeJS.ProcessEnv, now: () => number = Date.now): EraMemory {
  const path = eraMemoryPath(env);
  const noted = read(path)[key];
  const fresh = noted !== undefined && now() - noted < ERA_MEMORY_MAX_AGE_MS;
  let written = noted !== undefined; // a stale note is renewed or removed, a fresh one left as it is
  return {
    remembered: fresh ? 'legacy' : undefined, // as found at the start: what this connection tries first
    settled(era) {
      if (era === 'legacy' && !(written && fresh)) {
        write(path, { ...read(path), [key]: now() });
        written = true;
      } else if (era === 'modern' && written) {
        const legacy = read(path);
        delete legacy[key];
        write(path, legacy);
        written = false;
      }
    },
  };
}
