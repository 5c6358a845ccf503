// A bounded, copy-on-write walk over the strings of a JSON value: what redaction and output cleaning both need.
// Nothing is copied unless a string in it changes, so a clean value comes back as the very same object.

export interface WalkLimits {
  /** Containers nested deeper than this are replaced by `tooDeep` (default 64). */
  readonly maxDepth: number;
  /** After this many values (strings, numbers, members…), the rest of each container is replaced by `tooLarge`. */
  readonly maxNodes: number;
}

export const DEFAULT_WALK_LIMITS: WalkLimits = Object.freeze({ maxDepth: 64, maxNodes: 1_000_000 });

export interface WalkVisitor {
  /** The new text of a string value (the key it sits under, when it is an object member's value). */
  text(value: string, key: string | undefined): string;
  /** Replaces a member's whole value before walking into it (for keys that name secrets); undefined: walk on. */
  member?(key: string, value: unknown): unknown;
  /** What stands in for a subtree past the limits. */
  readonly tooDeep: unknown;
  readonly tooLarge: unknown;
}

export interface WalkOutcome {
  readonly value: unknown;
  /** Whether any limit was reached (the value then holds `tooDeep`/`tooLarge` markers). */
  readonly cut: boolean;
}

/** Sets a member as data, so a key named "__proto__" (JSON.parse makes such keys) stays a member. */
function setMember(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies the visitor to every string of a JSON value (arrays and plain objects; other values pass through). */
export function walkStrings(
  value: unknown,
  visitor: WalkVisitor,
  limits: WalkLimits = DEFAULT_WALK_LIMITS,
): WalkOutcome {
  let nodes = 0;
  let cut = false;
  const visit = (item: unknown, key: string | undefined, depth: number): unknown => {
    nodes++;
    if (typeof item === 'string') return visitor.text(item, key);
    if (typeof item !== 'object' || item === null) return item;
    if (depth >= limits.maxDepth) {
      cut = true;
      return visitor.tooDeep;
    }
    if (Array.isArray(item)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < item.length; i++) {
        if (nodes >= limits.maxNodes) {
          cut = true;
          copy ??= item.slice(0, i);
          copy.length = i;
          copy.push(visitor.tooLarge);
          return copy;
        }
        const before: unknown = item[i];
        const after = visit(before, undefined, depth + 1);
        if (after !== before && copy === undefined) copy = item.slice(0, i);
        if (copy !== undefined) copy.push(after);
      }
      return copy ?? item;
    }
    const entries = Object.entries(item);
    let copy: Record<string, unknown> | undefined;
    for (let i = 0; i < entries.length; i++) {
      const [name, before] = entries[i]!;
      if (nodes >= limits.maxNodes) {
        cut = true;
        copy ??= Object.fromEntries(entries.slice(0, i));
        setMember(copy, name, visitor.tooLarge);
        return copy;
      }
      const replaced = visitor.member?.(name, before);
      const after = replaced !== undefined ? (nodes++, replaced) : visit(before, name, depth + 1);
      if (after !== before && copy === undefined) copy = Object.fromEntries(entries.slice(0, i));
      if (copy !== undefined) setMember(copy, name, after);
    }
    return copy ?? item;
  };
  const result = visit(value, undefined, 0);
  return { value: result, cut };
}
