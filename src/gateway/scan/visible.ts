// Short, visible quotes of hostile text for findings and reasons: never long, never invisible, never a control.

const MAX_EXCERPT = 80;

/** JSON-quoted, cut to 80 characters, with every character outside printable ASCII written as \uXXXX. */
export function excerpt(text: string): string {
  const chars = [...text];
  const cut = chars.length > MAX_EXCERPT ? `${chars.slice(0, MAX_EXCERPT).join('')}...` : text;
  return JSON.stringify(cut).replace(/[^\x20-\x7e]/gu, (char) =>
    [...char]
      .map((c) => {
        const code = c.codePointAt(0) ?? 0;
        return code > 0xffff
          ? `\\u{${code.toString(16).toUpperCase()}}`
          : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
      })
      .join(''),
  );
}

/** One step of a `where` path: `.name` for identifiers, `["odd key"]` otherwise, `[0]` for indexes. */
export function pathStep(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${excerpt(key)}]`;
}
