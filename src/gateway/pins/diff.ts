// A unified line diff (the `diff -u` shape an admin already reads) of two texts, bounded in time, memory and size:
// what `toolwire pins diff` shows and what a 'changed' verdict carries.

type Op = { kind: ' ' | '-' | '+'; line: string; oldIndex: number; newIndex: number };

export interface DiffOptions {
  oldLabel?: string;
  newLabel?: string;
  /** Unchanged lines shown around each change. Default 3. */
  context?: number;
  /** Lines of output at most (headers included); the rest is cut with a note. Default 400. */
  maxLines?: number;
  /** Characters of output at most. Default 32,000. */
  maxChars?: number;
}

/** Above this many table cells (lines × lines after the common ends are cut) no LCS is computed: all old, then all new. */
const MAX_CELLS = 4_000_000;

/** The middle part's edit script: a longest common subsequence when it fits the budget. */
function middleOps(a: readonly string[], b: readonly string[]): Array<' ' | '-' | '+'> {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_CELLS) {
    return [...Array<'-'>(n).fill('-'), ...Array<'+'>(m).fill('+')];
  }
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width); // table[i*width+j]: LCS length of a[i..] and b[j..]
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  const ops: Array<' ' | '-' | '+'> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push(' ');
      i++;
      j++;
    } else if ((table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0)) {
      ops.push('-');
      i++;
    } else {
      ops.push('+');
      j++;
    }
  }
  while (i++ < n) ops.push('-');
  while (j++ < m) ops.push('+');
  return ops;
}

function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const kinds: Array<' ' | '-' | '+'> = [
    ...Array<' '>(prefix).fill(' '),
    ...middleOps(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix)),
    ...Array<' '>(suffix).fill(' '),
  ];
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  for (const kind of kinds) {
    ops.push({ kind, line: kind === '+' ? (b[j] ?? '') : (a[i] ?? ''), oldIndex: i, newIndex: j });
    if (kind !== '+') i++;
    if (kind !== '-') j++;
  }
  return ops;
}

const range = (start: number, count: number): string =>
  count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`;

/** `--- old` / `+++ new` and `@@ -a,b +c,d @@` hunks; '' when the texts are equal. */
export function unifiedDiff(oldText: string, newText: string, options: DiffOptions = {}): string {
  if (oldText === newText) return '';
  const context = options.context ?? 3;
  const ops = editScript(
    oldText === '' ? [] : oldText.split('\n'),
    newText === '' ? [] : newText.split('\n'),
  );
  const out: string[] = [`--- ${options.oldLabel ?? 'old'}`, `+++ ${options.newLabel ?? 'new'}`];
  let index = 0;
  while (index < ops.length) {
    while (index < ops.length && ops[index]?.kind === ' ') index++;
    if (index >= ops.length) break;
    const start = Math.max(0, index - context);
    // The hunk runs until `context * 2` unchanged lines in a row (or the end) follow its last change.
    let end = index;
    let lastChange = index;
    while (end < ops.length && end - lastChange <= context * 2) {
      if (ops[end]?.kind !== ' ') lastChange = end;
      end++;
    }
    const stop = Math.min(ops.length, lastChange + context + 1);
    const hunk = ops.slice(start, stop);
    const first = hunk[0];
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(
      `@@ -${range(first?.oldIndex ?? 0, oldCount)} +${range(first?.newIndex ?? 0, newCount)} @@`,
      ...hunk.map((op) => `${op.kind}${op.line}`),
    );
    index = stop;
  }
  return bound(out, options.maxLines ?? 400, options.maxChars ?? 32_000);
}

/** One line longer than this (a 10 MB description) is cut, so the lines around it still fit. */
const MAX_LINE = 2_000;

function bound(lines: readonly string[], maxLines: number, maxChars: number): string {
  const kept: string[] = [];
  let chars = 0;
  for (const whole of lines) {
    const line =
      whole.length > MAX_LINE ? `${whole.slice(0, MAX_LINE)}… (${whole.length} characters)` : whole;
    if (kept.length >= maxLines || chars + line.length + 1 > maxChars) {
      kept.push(`… (diff cut: ${lines.length - kept.length} more lines)`);
      break;
    }
    kept.push(line);
    chars += line.length + 1;
  }
  return kept.join('\n');
}
