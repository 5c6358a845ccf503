// Overrides that match nothing an upstream lists: worth a warning, since a misspelt tool name silently does nothing.

import type { NameInput } from './entries.js';
import type { Overrides } from './overrides.js';

/**
 * The overrides whose tool is not among the inputs, for servers that are among them (an upstream that is down has
 * listed nothing, so its overrides are not reported). Sorted by server, then name.
 */
export function unusedOverrides(inputs: readonly NameInput[], overrides: Overrides): NameInput[] {
  const listed = new Map<string, Set<string>>();
  for (const { server, name } of inputs) {
    let names = listed.get(server);
    if (names === undefined) listed.set(server, (names = new Set()));
    names.add(name);
  }
  const unused: NameInput[] = [];
  for (const [server, tools] of overrides) {
    const names = listed.get(server);
    if (names === undefined) continue;
    for (const name of tools.keys()) if (!names.has(name)) unused.push({ server, name });
  }
  const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return unused.sort((a, b) => byText(a.server, b.server) || byText(a.name, b.name));
}
