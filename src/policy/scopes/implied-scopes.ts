// Scope hierarchies: a broad scope satisfies the narrower ones it implies (the MCP authorization spec says servers
// MUST take hierarchies into account). The operator states them; a caller's scopes are expanded once per scope set.

import { MAX_SCOPES, ScopeRuleError, scopeProblem } from './rules.js';

/** Broad scope → the narrower scopes it grants too (transitively): { "files:admin": ["files:write"] }. */
export type ImpliedScopes = Readonly<Record<string, readonly string[]>>;

export const MAX_IMPLIED = 1_000;

/** Checks the hierarchy and returns its transitive closure (a scope never implies itself away: cycles are fine). */
export function compileImplied(value: unknown): ReadonlyMap<string, readonly string[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ScopeRuleError('implies', 'must be an object: broad scope → array of the scopes it grants too');
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_IMPLIED) {
    throw new ScopeRuleError('implies', `has ${entries.length} scopes; at most ${MAX_IMPLIED}`);
  }
  const direct = new Map<string, string[]>();
  for (const [broad, narrower] of entries) {
    const problem = scopeProblem(broad);
    if (problem !== undefined)
      throw new ScopeRuleError(`implies[${JSON.stringify(broad)}]`, `key ${problem}`);
    const at = `implies[${JSON.stringify(broad)}]`;
    if (!Array.isArray(narrower)) throw new ScopeRuleError(at, 'must be an array of scopes');
    if (narrower.length > MAX_SCOPES) {
      throw new ScopeRuleError(at, `has ${narrower.length} entries; at most ${MAX_SCOPES}`);
    }
    for (const [i, scope] of narrower.entries()) {
      if (typeof scope !== 'string') throw new ScopeRuleError(`${at}[${i}]`, 'must be a string');
      const bad = scopeProblem(scope);
      if (bad !== undefined) throw new ScopeRuleError(`${at}[${i}]`, bad);
    }
    direct.set(broad, narrower as string[]);
  }
  const closure = new Map<string, readonly string[]>();
  for (const broad of direct.keys()) {
    const reached = new Set<string>();
    const queue = [...(direct.get(broad) ?? [])];
    while (queue.length > 0) {
      const scope = queue.pop() as string; // the queue is not empty
      if (reached.has(scope)) continue;
      reached.add(scope);
      queue.push(...(direct.get(scope) ?? []));
    }
    reached.delete(broad);
    closure.set(broad, Object.freeze([...reached]));
  }
  return closure;
}

/** The scopes a caller holds, with everything they imply. */
export function expandHeld(
  held: Iterable<string>,
  implied: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  const expanded = new Set<string>(held);
  if (implied.size === 0) return expanded;
  for (const scope of [...expanded]) for (const narrower of implied.get(scope) ?? []) expanded.add(narrower);
  return expanded;
}
