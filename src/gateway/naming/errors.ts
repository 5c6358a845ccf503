// The one local error of gateway naming, and how names from upstreams are shown inside its messages.

export type NamingErrorCode = 'bad-server-name' | 'collision' | 'bad-override' | 'reserved';

/** A configuration or listing the gateway cannot name safely; a local error (string code), never sent as-is. */
export class NamingError extends Error {
  readonly code: NamingErrorCode;
  constructor(code: NamingErrorCode, message: string) {
    super(message);
    this.name = 'NamingError';
    this.code = code;
  }
}

const SHOWN_CHARS = 80;

/**
 * A name as it may appear in a message or a log line: printable ASCII stays (a space only inside), anything else (controls, zero-width and
 * bidirectional characters, homoglyphs, lone surrogates) becomes a visible \u escape, and a long name is cut, so an
 * upstream can neither hide what a name really is nor inject lines or terminal sequences into the log (H2).
 */
export function showName(name: string): string {
  if (name === '') return '""';
  const cut = name.length > SHOWN_CHARS;
  const kept = cut ? name.slice(0, SHOWN_CHARS) : name;
  let shown = '';
  let at = 0;
  for (const char of kept) {
    const code = char.codePointAt(0) ?? 0;
    // A space is kept inside a name but escaped at either end, where a reader would never see it.
    const edge = at === 0 || at + char.length === kept.length;
    at += char.length;
    if (code > 0x20 && code < 0x7f && char !== '\\' && char !== '"') shown += char;
    else if (code === 0x20 && !edge) shown += char;
    else if (code > 0xffff) shown += `\\u{${code.toString(16)}}`;
    else shown += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return cut ? `${shown}… (${name.length} characters)` : shown;
}

/** `server/name`, the way every naming message refers to one upstream tool or prompt. */
export const showEntry = (server: string, name: string): string => `${showName(server)}/${showName(name)}`;
