// Per-tool overrides from the gateway configuration (rename, description, hide), checked before anything is named.

import { NamingError, showEntry, showName } from './errors.js';
import { serverNameProblem, SEPARATOR } from './server-name.js';
import { isSpecToolName, MAX_SPEC_NAME_LENGTH, nameBudget, type NamingOptions } from './tool-name.js';

/** Keyed by the upstream's own name. `rename` replaces the tool part only: the server prefix always stays. */
export interface ToolOverride {
  rename?: string;
  description?: string;
  hide?: boolean;
}

/** Per server name, per upstream tool (or prompt) name. */
export type Overrides = ReadonlyMap<string, ReadonlyMap<string, ToolOverride>>;

const KEYS = new Set(['rename', 'description', 'hide']);

const bad = (message: string): NamingError => new NamingError('bad-override', message);

/**
 * Checks one override's shape and values (it may come straight from a JSON file): an unknown key is refused rather
 * than ignored, since a misspelt `hidden: true` would otherwise expose a tool the admin meant to hide.
 */
export function checkOverride(
  server: string,
  name: string,
  override: unknown,
  maxLength: number,
): ToolOverride {
  const who = showEntry(server, name);
  if (typeof override !== 'object' || override === null || Array.isArray(override)) {
    throw bad(`the override for ${who} must be an object`);
  }
  for (const key of Object.keys(override)) {
    if (!KEYS.has(key)) {
      throw bad(
        `the override for ${who} has an unknown key "${showName(key)}" (allowed: rename, description, hide)`,
      );
    }
  }
  const { rename, description, hide } = override as Record<string, unknown>; // keys checked just above
  if (rename !== undefined) {
    if (!isSpecToolName(rename)) {
      const shown =
        typeof rename !== 'string'
          ? `a ${typeof rename}`
          : rename === ''
            ? 'an empty name'
            : `"${showName(rename)}"`;
      throw bad(
        `the rename of ${who} to ${shown} is not a valid tool name: use 1–${MAX_SPEC_NAME_LENGTH} characters from A-Z, a-z, 0-9, "_", "-" and "."`,
      );
    }
    const exposed = `${server}${SEPARATOR}${rename}`;
    if (exposed.length > maxLength) {
      throw bad(
        `the rename of ${who} to "${rename}" makes ${exposed} ${exposed.length} characters, over the ${maxLength} allowed`,
      );
    }
  }
  if (description !== undefined && typeof description !== 'string') {
    throw bad(`the description override for ${who} must be a string`);
  }
  if (hide !== undefined && typeof hide !== 'boolean') throw bad(`"hide" for ${who} must be true or false`);
  return {
    ...(rename === undefined ? {} : { rename }),
    ...(description === undefined ? {} : { description }),
    ...(hide === undefined ? {} : { hide }),
  };
}

/**
 * Checks every override at startup, whether or not its upstream is up yet: server names, shapes, renames, and two
 * renames (or a rename and a reserved name) landing on one exposed name. Collisions with upstream names can only be
 * found once the upstream lists its tools (nameEntries).
 */
export function checkOverrides(
  overrides: Overrides,
  reserved?: ReadonlySet<string>,
  options?: NamingOptions,
): void {
  const maxLength = nameBudget(options);
  for (const [server, tools] of overrides) {
    const problem = serverNameProblem(server);
    if (problem !== undefined) throw new NamingError('bad-server-name', `overrides: ${problem}`);
    const renamed = new Map<string, string>();
    for (const [name, override] of tools) {
      const checked = checkOverride(server, name, override, maxLength);
      if (checked.rename === undefined || checked.hide === true) continue;
      const exposed = `${server}${SEPARATOR}${checked.rename}`;
      if (reserved?.has(exposed) === true) {
        throw new NamingError(
          'reserved',
          `${showEntry(server, name)} (renamed ${checked.rename}) becomes ${exposed}, a name the gateway reserves`,
        );
      }
      const other = renamed.get(exposed);
      if (other !== undefined) {
        throw new NamingError(
          'collision',
          `${showEntry(server, other)} and ${showEntry(server, name)} are both renamed to ${checked.rename}`,
        );
      }
      renamed.set(exposed, name);
    }
  }
}
