// Sets of code points as sorted ranges, so the regex check can ask whether two steps of a pattern can read the
// same character.

/** Inclusive code-point ranges, sorted and disjoint. */
export type CharSet = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;

export const ANY: CharSet = [[0, MAX_CODE_POINT]];

export const single = (code: number): CharSet => [[code, code]];

/** The sorted, merged union of ranges. */
export function union(...sets: CharSet[]): CharSet {
  const ranges = sets.flat().map(([lo, hi]) => [lo, hi] as [number, number]);
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of union(set)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Whether some character is in both sets (a merge walk: linear in the ranges). */
export function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [aLo, aHi] = a[i] ?? [0, -1];
    const [bLo, bHi] = b[j] ?? [0, -1];
    if (aLo <= bHi && bLo <= aHi) return true;
    if (aHi < bHi) i++;
    else j++;
  }
  return false;
}

const range = (from: string, to: string): [number, number] => [
  from.codePointAt(0) ?? 0,
  to.codePointAt(0) ?? 0,
];

export const DIGIT: CharSet = [range('0', '9')];
export const WORD: CharSet = union(
  [range('0', '9')],
  [range('A', 'Z')],
  [range('_', '_')],
  [range('a', 'z')],
);
/** \s in JavaScript: WhiteSpace and LineTerminator. */
export const SPACE: CharSet = union(
  [[0x09, 0x0d]],
  single(0x20),
  single(0xa0),
  single(0x1680),
  [[0x2000, 0x200a]],
  [[0x2028, 0x2029]],
  single(0x202f),
  single(0x205f),
  single(0x3000),
  single(0xfeff),
);
/** `.` without the s flag: anything but a line terminator. */
export const DOT: CharSet = complement(union(single(0x0a), single(0x0d), [[0x2028, 0x2029]]));
