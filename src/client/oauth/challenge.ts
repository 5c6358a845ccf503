// Reading a WWW-Authenticate header (RFC 9110 §11.6.1): the Bearer or DPoP challenge and its parameters.

export interface Challenge {
  /** The scheme, lower-cased: "bearer" or "dpop". */
  scheme: string;
  /** RFC 9728 §5.1: where the Protected Resource Metadata is. */
  resourceMetadata?: string;
  /** Space-separated scopes the server wants for this request (RFC 6750 §3). */
  scope?: string;
  error?: string;
  errorDescription?: string;
}

/** A header longer than this is not parsed at all: no legitimate challenge comes near it. */
const MAX_HEADER_CHARS = 8192;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/**
 * The Bearer challenge of a header (else the DPoP one, else the first), or undefined when there is none. Several
 * challenges may share one header, comma-separated, and parameter values may be quoted strings with escapes.
 */
export function parseChallenge(header: string | null): Challenge | undefined {
  if (header === null || header.length > MAX_HEADER_CHARS) return undefined;
  const challenges = parseAll(header);
  return (
    challenges.find((c) => c.scheme === 'bearer') ??
    challenges.find((c) => c.scheme === 'dpop') ??
    challenges[0]
  );
}

function parseAll(header: string): Challenge[] {
  const found: Challenge[] = [];
  let rest = header;
  let current: Map<string, string> | undefined;
  let scheme = '';
  const finish = (): void => {
    if (current === undefined) return;
    const c: Challenge = { scheme };
    const set = (key: keyof Omit<Challenge, 'scheme'>, name: string): void => {
      const value = current?.get(name);
      if (value !== undefined) c[key] = value;
    };
    set('resourceMetadata', 'resource_metadata');
    set('scope', 'scope');
    set('error', 'error');
    set('errorDescription', 'error_description');
    found.push(c);
  };
  for (;;) {
    rest = rest.replace(/^[\s,]+/, '');
    if (rest === '') break;
    const name = TOKEN.exec(rest)?.[0];
    if (name === undefined) break; // not a header we understand past this point
    const after = rest.slice(name.length).replace(/^\s+/, '');
    if (after.startsWith('=')) {
      if (current === undefined) break; // a parameter before any scheme
      let value: string;
      let remaining = after.slice(1).replace(/^\s+/, '');
      if (remaining.startsWith('"')) {
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(remaining);
        if (quoted === null) break;
        value = (quoted[1] ?? '').replace(/\\(.)/g, '$1');
        remaining = remaining.slice(quoted[0].length);
      } else {
        const bare = TOKEN.exec(remaining)?.[0] ?? '';
        value = bare;
        remaining = remaining.slice(bare.length);
      }
      const key = name.toLowerCase();
      if (!current.has(key)) current.set(key, value);
      rest = remaining;
    } else {
      finish();
      scheme = name.toLowerCase();
      current = new Map();
      rest = after;
      // token68 form (`Basic abc==`): skip it, it carries no parameters we use.
      const token68 = /^[A-Za-z0-9._~+/-]+=*(?=\s*(,|$))/.exec(rest);
      if (token68 !== null) rest = rest.slice(token68[0].length);
    }
  }
  finish();
  return found;
}

/** Scopes of a space-separated scope string, without duplicates or empty entries. */
export function splitScopes(scope: string | undefined): string[] {
  return [...new Set((scope ?? '').split(' ').filter((s) => s !== ''))];
}
