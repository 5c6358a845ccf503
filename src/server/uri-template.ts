// RFC 6570 URI templates, levels 1–3: parsing at registration, and matching a URI back to its variables.

import { DefinitionError } from './errors.js';

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
/** Characters simple expansion leaves as they are (unreserved), or percent-encoded octets. */
const UNRESERVED = "(?:[^:/?#\\[\\]@!$&'()*+,;=%]|%[0-9A-Fa-f]{2})*";
/** Reserved expansion (+, #) also allows reserved characters; values stop at a comma between variables. */
const RESERVED = '[^,]*?';
/** URIs longer than this are not matched (templates are matched with regular expressions). */
export const MAX_URI_LENGTH = 8192;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  readonly #pattern: RegExp;
  /** What each capture group holds: one variable, or a whole ?/& query part naming several. */
  readonly #slots: (string | { query: readonly string[] })[] = [];

  constructor(template: string) {
    if (typeof template !== 'string' || template.length === 0 || template.length > 1024) {
      throw new DefinitionError('A URI template must be a non-empty string of at most 1024 characters');
    }
    this.template = template;
    const variables: string[] = [];
    let pattern = '^';
    let index = 0;
    while (index < template.length) {
      const open = template.indexOf('{', index);
      const literalEnd = open === -1 ? template.length : open;
      const literal = template.slice(index, literalEnd);
      if (literal.includes('}')) throw new DefinitionError(`URI template "${template}" has an unmatched "}"`);
      pattern += escape(literal);
      if (open === -1) break;
      const close = template.indexOf('}', open);
      if (close === -1) throw new DefinitionError(`URI template "${template}" has an unclosed "{"`);
      let body = template.slice(open + 1, close);
      const operator = OPERATORS.has(body[0] ?? '') ? (body[0] as string) : '';
      if (operator !== '') body = body.slice(1);
      const names = body.split(',');
      for (const name of names) {
        if (!VARNAME.test(name)) {
          throw new DefinitionError(
            `URI template "${template}": "${name}" is not a valid variable name (levels 1–3: no "*" or ":n" modifiers)`,
          );
        }
        if (variables.includes(name))
          throw new DefinitionError(`URI template "${template}" repeats variable "${name}"`);
        variables.push(name);
      }
      pattern += expressionPattern(operator, names);
      if (operator === '?' || operator === '&') this.#slots.push({ query: names });
      else this.#slots.push(...names);
      index = close + 1;
    }
    this.variables = variables;
    this.#pattern = new RegExp(pattern + '$');
  }

  /** The variables a URI binds, percent-decoded; undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined {
    if (uri.length > MAX_URI_LENGTH) return undefined;
    const found = this.#pattern.exec(uri);
    if (found === null) return undefined;
    const values: Record<string, string> = {};
    try {
      for (const [i, slot] of this.#slots.entries()) {
        const raw = found[i + 1];
        if (raw === undefined) continue;
        if (typeof slot === 'string') {
          values[slot] = decodeURIComponent(raw);
          continue;
        }
        // name=value pairs in template order, each at most once; anything else does not match.
        let next = 0;
        for (const pair of raw.slice(1).split('&')) {
          const eq = pair.indexOf('=');
          const name = eq === -1 ? pair : pair.slice(0, eq);
          const at = slot.query.indexOf(name, next);
          if (eq === -1 || at === -1) return undefined;
          values[name] = decodeURIComponent(pair.slice(eq + 1));
          next = at + 1;
        }
      }
    } catch {
      return undefined; // malformed percent-encoding
    }
    return values;
  }
}

function expressionPattern(operator: string, names: readonly string[]): string {
  const group = (value: string): string => `(${value})`;
  switch (operator) {
    case '':
      return names.map(() => group(UNRESERVED)).join(',');
    case '+':
    case '#': {
      // A lone variable may hold commas; only between several variables is "," a separator.
      const value = names.length === 1 ? '[^]*?' : RESERVED;
      return (operator === '#' ? '#' : '') + names.map(() => group(value)).join(',');
    }
    case '.':
    case '/':
      return names.map(() => escape(operator) + group(UNRESERVED)).join('');
    case ';':
      return names.map((name) => `;${escape(name)}(?:=${group(UNRESERVED)})?`).join('');
    default: {
      // ? and &: form-style query; each variable may be absent (undefined variables are omitted on expansion).
      // One group for the whole part: undefined variables are omitted, so any of them may come first.
      return `(${escape(operator)}[^#]*)?`;
    }
  }
}
