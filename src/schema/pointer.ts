// JSON Pointers (RFC 6901): built from keys, split back, ordered, and shown to people and models as `items[0].name`.

const escapeSegment = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeSegment = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The pointer one key below `pointer`. */
export const appendPointer = (pointer: string, key: string | number): string =>
  `${pointer}/${escapeSegment(String(key))}`;

/** The pointer for a list of keys ("" for none, i.e. the root). */
export const pointerFrom = (keys: readonly (string | number)[]): string => keys.reduce(appendPointer, '');

export const pointerSegments = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);

const INDEX = /^(?:0|[1-9]\d*)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `/items/0/name` → `items[0].name`; the root → `(root)`. Keys that are not identifiers are quoted. */
export function displayPath(pointer: string): string {
  let out = '';
  for (const segment of pointerSegments(pointer)) {
    if (INDEX.test(segment)) out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '(root)' : out;
}

/** Path order: segment by segment, array indexes numerically (so /items/2 comes before /items/10). */
export function comparePointers(a: string, b: string): number {
  const left = pointerSegments(a);
  const right = pointerSegments(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] ?? '';
    const y = right[i] ?? '';
    if (x === y) continue;
    if (INDEX.test(x) && INDEX.test(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
