// Names every upstream tool (or prompt) for gateway clients: `server___name`, aliases, overrides, collisions refused.

import { NamingError, showEntry, showName } from './errors.js';
import { checkOverride, type Overrides } from './overrides.js';
import { serverNameProblem, SEPARATOR } from './server-name.js';
import { aliasName, aliasReason, nameBudget, plainExposedName, type NamingOptions } from './tool-name.js';

/** An upstream tool or prompt, by the server's name (the mcpServers key) and its own name there. */
export interface NameInput {
  server: string;
  name: string;
}

/** How gateway clients see one upstream entry. `alias`: the exposed name is a short alias (reported). */
export interface NamedEntry {
  exposed: string;
  server: string;
  name: string;
  alias: boolean;
  /** The description the configuration puts in place of the upstream's. */
  description?: string;
}

/** Something an admin should see: an alias given, an entry hidden by the configuration, or a collision left out. */
export interface NameReport {
  kind: 'alias' | 'hidden' | 'collision';
  server: string;
  name: string;
  exposed?: string;
  reason: string;
}

/** Code-unit order: the same on every machine and locale (localeCompare is neither), so lists stay cacheable. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Claim {
  server: string;
  name: string;
  how: string;
  renamed: boolean;
}

const describe = (claim: Claim): string => `${showEntry(claim.server, claim.name)}${claim.how}`;

/** Both sides of a collision (and how many more), as its error or report says it. */
function collisionText(exposed: string, claims: readonly Claim[]): string {
  const [one, two] = claims as [Claim, Claim];
  if (claims.length === 2 && one.server === two.server && one.name === two.name) {
    return `${one.server} lists ${showName(one.name)} twice (both would be ${exposed})`;
  }
  const more = claims.length > 2 ? ` (and ${claims.length - 2} more)` : '';
  return `${describe(one)} and ${describe(two)}${more} both become ${exposed}`;
}

/**
 * Names every entry (sorted output by exposed name), applying per-server overrides (keyed by upstream name). Names
 * that are not valid tool names, or whose `server___name` is over the budget, get a deterministic short alias (a
 * readable prefix + a hash of server+name) and a report. An exposed name equal to a reserved name throws NamingError.
 *
 * Two entries that would share an exposed name are never served, neither of them, and a report names both sides.
 * Without a rename that can only be one upstream's own doing (a name listed twice, or a name equal to the alias of
 * another): an upstream must not be able to stop the gateway, or freeze what it serves, by listing such a pair. With
 * `strictRenames` (at startup), a collision a configured rename takes part in throws NamingError naming both sides
 * instead: the configuration is wrong.
 */
export function nameEntries(
  inputs: readonly NameInput[],
  overrides: Overrides,
  reserved?: ReadonlySet<string>,
  options?: NamingOptions & { strictRenames?: boolean },
): { entries: NamedEntry[]; reports: NameReport[] } {
  const maxLength = nameBudget(options);
  // Sorted first, so which side a collision message names first never depends on the upstreams' order.
  const sorted = [...inputs].sort((a, b) => byText(a.server, b.server) || byText(a.name, b.name));
  const claims = new Map<string, Claim[]>();
  const named: NamedEntry[] = [];
  const reports: NameReport[] = [];
  for (const { server, name } of sorted) {
    const problem = serverNameProblem(server);
    if (problem !== undefined) throw new NamingError('bad-server-name', problem);
    if (typeof name !== 'string') throw new TypeError(`a name listed by ${server} is not a string`);
    const raw = overrides.get(server)?.get(name);
    const override = raw === undefined ? {} : checkOverride(server, name, raw, maxLength);
    const plain = plainExposedName(server, name, maxLength);
    let exposed: string;
    let alias = false;
    let how = '';
    if (override.rename !== undefined) {
      exposed = `${server}${SEPARATOR}${override.rename}`;
      how = ` (renamed ${override.rename})`;
    } else if (plain !== undefined) {
      exposed = plain;
    } else {
      exposed = aliasName(server, name, maxLength);
      alias = true;
      how = ' (alias)';
    }
    if (override.hide === true) {
      reports.push({ kind: 'hidden', server, name, exposed, reason: 'hidden by the gateway configuration' });
      continue;
    }
    const claim: Claim = { server, name, how, renamed: override.rename !== undefined };
    if (reserved?.has(exposed) === true) {
      throw new NamingError('reserved', `${describe(claim)} becomes ${exposed}, a name the gateway reserves`);
    }
    const others = claims.get(exposed);
    if (others === undefined) claims.set(exposed, [claim]);
    else others.push(claim);
    named.push({
      exposed,
      server,
      name,
      alias,
      ...(override.description === undefined ? {} : { description: override.description }),
    });
  }
  for (const [exposed, sharing] of claims) {
    if (sharing.length === 1) continue;
    const text = collisionText(exposed, sharing);
    if (options?.strictRenames === true && sharing.some((claim) => claim.renamed)) {
      throw new NamingError('collision', text);
    }
    const [first] = sharing as [Claim];
    reports.push({
      kind: 'collision',
      server: first.server,
      name: first.name,
      exposed,
      reason: `${text}, so none of them is served`,
    });
  }
  const entries = named.filter((entry) => claims.get(entry.exposed)?.length === 1);
  for (const entry of entries) {
    if (!entry.alias) continue;
    const { server, name, exposed } = entry;
    reports.push({
      kind: 'alias',
      server,
      name,
      exposed,
      reason: `${showEntry(server, name)} is exposed as ${exposed}: ${aliasReason(server, name, maxLength)}`,
    });
  }
  entries.sort((a, b) => byText(a.exposed, b.exposed));
  return { entries, reports };
}
