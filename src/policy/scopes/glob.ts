// Name patterns of scope rules: exact names, or globs where "*" is any run of characters and "?" exactly one.
// Matched on code points in linear-ish time (no regular expressions, so no pattern can make matching explode).

/** A set of names and globs, matched against a registered name exactly as it was registered (case and all). */
export interface NameMatcher {
  matches(name: string): boolean;
}

const isGlob = (pattern: string): boolean => pattern.includes('*') || pattern.includes('?');

/**
 * Whether `name` matches `pattern` ("*": any run of code points, "?": one). The classic two-pointer walk that
 * backtracks only to the last star: at most pattern × name steps, whatever the pattern.
 */
export function globMatches(pattern: readonly string[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const want = pattern[p];
    if (want === '*') {
      star = p++;
      resume = n;
    } else if (want !== undefined && (want === '?' || want === name[n])) {
      p++;
      n++;
    } else if (star !== -1) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Compiles already validated patterns: exact names go to a set, globs are split into code points once. */
export function nameMatcher(patterns: readonly string[]): NameMatcher {
  const exact = new Set<string>();
  const globs: string[][] = [];
  for (const pattern of patterns) {
    if (isGlob(pattern)) globs.push(Array.from(pattern));
    else exact.add(pattern);
  }
  if (globs.length === 0) return { matches: (name) => exact.has(name) };
  return {
    matches(name) {
      if (exact.has(name)) return true;
      const points = Array.from(name);
      return globs.some((glob) => globMatches(glob, points));
    },
  };
}
