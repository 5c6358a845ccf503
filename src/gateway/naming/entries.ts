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

/** Something an admin should see: an alias given, or an entry hidden by the configuration. */
export interface NameReport {
  kind: 'alias' | 'hidden';
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
}

const describe = (claim: Claim): string => `${showEntry(claim.server, claim.name)}${claim.how}`;

/**
 * Names every entry (sorted output by exposed name), applying per-server overrides (keyed by upstream name).
 * Collisions (two inputs → one exposed name, or an exposed name equal to a reserved name) throw NamingError whose
 * message names BOTH sides. Names that are not valid tool names, or whose `server___name` is over the budget, get a
 * deterministic short alias (a readable prefix + a hash of server+name) and a report.
 */
export function nameEntries(
  inputs: readonly NameInput[],
  overrides: Overrides,
  reserved?: ReadonlySet<string>,
  options?: NamingOptions,
): { entries: NamedEntry[]; reports: NameReport[] } {
  const maxLength = nameBudget(options);
  // Sorted first, so which side a collision message names first never depends on the upstreams' order.
  const sorted = [...inputs].sort((a, b) => byText(a.server, b.server) || byText(a.name, b.name));
  const claims = new Map<string, Claim>();
  const entries: NamedEntry[] = [];
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
    const claim: Claim = { server, name, how };
    if (reserved?.has(exposed) === true) {
      throw new NamingError('reserved', `${describe(claim)} becomes ${exposed}, a name the gateway reserves`);
    }
    const other = claims.get(exposed);
    if (other !== undefined) {
      const both = other.server === server && other.name === name;
      throw new NamingError(
        'collision',
        both
          ? `${server} lists ${showName(name)} twice (both would be ${exposed})`
          : `${describe(other)} and ${describe(claim)} both become ${exposed}`,
      );
    }
    claims.set(exposed, claim);
    entries.push({
      exposed,
      server,
      name,
      alias,
      ...(override.description === undefined ? {} : { description: override.description }),
    });
    if (alias) {
      reports.push({
        kind: 'alias',
        server,
        name,
        exposed,
        reason: `${showEntry(server, name)} is exposed as ${exposed}: ${aliasReason(server, name, maxLength)}`,
      });
    }
  }
  entries.sort((a, b) => byText(a.exposed, b.exposed));
  return { entries, reports };
}
