// A JSON (or JSONC: comments and trailing commas) document with the offsets of every value, so that a member can
// be added or replaced by editing the text: everything else — other entries, key order, comments, indentation,
// line endings — stays byte for byte as the user left it.

export type JsonNode = ObjectNode | ArrayNode | ScalarNode;

interface Span {
  /** Offset of the first character of the value. */
  start: number;
  /** Offset just past its last character. */
  end: number;
}

export interface ObjectNode extends Span {
  type: 'object';
  members: MemberNode[];
}

export interface MemberNode {
  key: string;
  keyStart: number;
  value: JsonNode;
}

export interface ArrayNode extends Span {
  type: 'array';
  items: JsonNode[];
}

export interface ScalarNode extends Span {
  type: 'scalar';
  value: string | number | boolean | null;
}

/** What went wrong and where (1-based line and column), in words for the user. */
export class JsonSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(reason: string, line: number, column: number) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = 'JsonSyntaxError';
    this.line = line;
    this.column = column;
  }
}

export interface ParseOptions {
  /** Accept // and /* comments and trailing commas (VS Code's JSONC). Plain JSON otherwise. */
  jsonc: boolean;
}

/** Deeper than this is refused rather than risking the stack: no real config nests anywhere near it. */
const MAX_DEPTH = 256;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Parser {
  readonly #text: string;
  readonly #jsonc: boolean;
  #at: number;

  constructor(text: string, options: ParseOptions) {
    this.#text = text;
    this.#jsonc = options.jsonc;
    this.#at = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte order mark is kept, not parsed
  }

  /** The document's one value, or undefined when it holds only whitespace (and comments). */
  document(): JsonNode | undefined {
    this.#skip();
    if (this.#at >= this.#text.length) return undefined;
    const value = this.#value(0);
    this.#skip();
    if (this.#at < this.#text.length) this.#fail('unexpected text after the end of the JSON value');
    return value;
  }

  #fail(reason: string, at = this.#at): never {
    const before = this.#text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - (before.lastIndexOf('\n') + 1) + 1;
    throw new JsonSyntaxError(reason, line, column);
  }

  /** Whitespace, and comments when JSONC is on. */
  #skip(): void {
    const text = this.#text;
    for (;;) {
      const char = text[this.#at];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
        this.#at++;
        continue;
      }
      if (char !== '/') return;
      const next = text[this.#at + 1];
      if (!this.#jsonc) this.#fail('a comment, which plain JSON does not allow,');
      if (next === '/') {
        const end = text.indexOf('\n', this.#at);
        this.#at = end === -1 ? text.length : end;
      } else if (next === '*') {
        const end = text.indexOf('*/', this.#at + 2);
        if (end === -1) this.#fail('a comment that never ends');
        this.#at = end + 2;
      } else this.#fail('unexpected "/"');
    }
  }

  #value(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.#fail(`values nested more than ${MAX_DEPTH} levels deep`);
    const char = this.#text[this.#at];
    if (char === '{') return this.#object(depth);
    if (char === '[') return this.#array(depth);
    if (char === '"') {
      const start = this.#at;
      return { type: 'scalar', value: this.#string(), start, end: this.#at };
    }
    return this.#literal();
  }

  #object(depth: number): ObjectNode {
    const start = this.#at++;
    const members: MemberNode[] = [];
    this.#skip();
    while (this.#text[this.#at] !== '}') {
      if (this.#at >= this.#text.length) this.#fail('an object that is never closed, starting', start);
      if (members.length > 0) {
        if (this.#text[this.#at] !== ',') this.#fail('expected "," or "}" after an object member');
        const comma = this.#at++;
        this.#skip();
        if (this.#at >= this.#text.length) this.#fail('an object that is never closed, starting', start);
        if (this.#text[this.#at] === '}') {
          if (!this.#jsonc) this.#fail('a trailing comma, which plain JSON does not allow,', comma);
          break;
        }
      }
      if (this.#text[this.#at] !== '"') this.#fail('expected a member name in double quotes');
      const keyStart = this.#at;
      const key = this.#string();
      this.#skip();
      if (this.#text[this.#at] !== ':')
        this.#fail(`expected ":" after the member name ${JSON.stringify(key)}`);
      this.#at++;
      this.#skip();
      members.push({ key, keyStart, value: this.#value(depth + 1) });
      this.#skip();
    }
    this.#at++;
    return { type: 'object', members, start, end: this.#at };
  }

  #array(depth: number): ArrayNode {
    const start = this.#at++;
    const items: JsonNode[] = [];
    this.#skip();
    while (this.#text[this.#at] !== ']') {
      if (this.#at >= this.#text.length) this.#fail('an array that is never closed, starting', start);
      if (items.length > 0) {
        if (this.#text[this.#at] !== ',') this.#fail('expected "," or "]" after an array item');
        const comma = this.#at++;
        this.#skip();
        if (this.#at >= this.#text.length) this.#fail('an array that is never closed, starting', start);
        if (this.#text[this.#at] === ']') {
          if (!this.#jsonc) this.#fail('a trailing comma, which plain JSON does not allow,', comma);
          break;
        }
      }
      items.push(this.#value(depth + 1));
      this.#skip();
    }
    this.#at++;
    return { type: 'array', items, start, end: this.#at };
  }

  #string(): string {
    const text = this.#text;
    const start = this.#at;
    let at = start + 1;
    for (;;) {
      if (at >= text.length) this.#fail('a string that never ends', start);
      const code = text.charCodeAt(at);
      if (code === 0x22) break;
      if (code < 0x20) this.#fail('a control character inside a string', at);
      at += code === 0x5c ? 2 : 1;
    }
    this.#at = at + 1;
    try {
      return JSON.parse(text.slice(start, this.#at)) as string; // the escapes, decoded by the platform
    } catch {
      return this.#fail('an invalid escape in a string', start);
    }
  }

  #literal(): ScalarNode {
    const start = this.#at;
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.#text.startsWith(word, start)) {
        this.#at += word.length;
        return { type: 'scalar', value, start, end: this.#at };
      }
    }
    NUMBER.lastIndex = start;
    const match = NUMBER.exec(this.#text);
    if (match === null) {
      if (start >= this.#text.length) this.#fail('the JSON ends too early');
      this.#fail(`unexpected ${JSON.stringify(this.#text[start])}`);
    }
    this.#at += match[0].length;
    return { type: 'scalar', value: Number(match[0]), start, end: this.#at };
  }
}

/** Parses a whole document; undefined when it holds no value at all (an empty file). */
export function parseJsonDocument(text: string, options: ParseOptions): JsonNode | undefined {
  return new Parser(text, options).document();
}

/** The plain value of a node (the last of duplicate keys wins, as in JSON.parse; "__proto__" is a plain key). */
export function nodeValue(node: JsonNode): unknown {
  switch (node.type) {
    case 'scalar':
      return node.value;
    case 'array':
      return node.items.map(nodeValue);
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const member of node.members) {
        Object.defineProperty(object, member.key, {
          value: nodeValue(member.value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return object;
    }
  }
}

/** The members of `object` named `key` (more than one means the file has duplicate keys). */
export const membersNamed = (object: ObjectNode, key: string): MemberNode[] =>
  object.members.filter((member) => member.key === key);

// ---- editing ---------------------------------------------------------------------------------------------------

/** How new text is laid out: the file's own line ending and indentation unit. */
export interface Layout {
  newline: string;
  unit: string;
}

export function layoutOf(text: string): Layout {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  let unit: string | undefined;
  for (const line of text.split('\n').slice(0, 200)) {
    const indent = /^[ \t]+(?=\S)/.exec(line)?.[0];
    if (indent === undefined) continue;
    if (indent.startsWith('\t')) return { newline, unit: '\t' };
    if (unit === undefined || indent.length < unit.length) unit = indent;
  }
  return { newline, unit: unit ?? '  ' };
}

/** The whitespace at the start of the line that holds `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** True when only spaces and tabs stand between the start of its line and `offset`. */
function firstOnLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(lineStart, offset));
}

/** `value` as JSON laid out like the file, its later lines indented by `indent`. */
export function formatValue(value: unknown, layout: Layout, indent: string): string {
  return JSON.stringify(value, null, layout.unit)
    .split('\n')
    .join(layout.newline + indent);
}

/** The text with `"key": value` added as the last member of `object`. */
export function insertMember(text: string, object: ObjectNode, key: string, value: unknown): string {
  const layout = layoutOf(text);
  const { newline } = layout;
  const open = object.start;
  const close = object.end - 1; // the "}"
  const braceIndent = lineIndent(text, open);
  const last = object.members.at(-1);
  const oneLine = !text.includes('\n'); // a minified file stays on one line
  if (last === undefined && oneLine && text.slice(open + 1, close).trim() === '')
    return `${text.slice(0, open + 1)}${JSON.stringify(key)}: ${JSON.stringify(value)}${text.slice(close)}`;
  if (last === undefined) {
    const indent = braceIndent + layout.unit;
    const member = `${JSON.stringify(key)}: ${formatValue(value, layout, indent)}`;
    const inner = text.slice(open + 1, close);
    // Comments inside an empty object stay where they are; the member goes first.
    if (inner.trim() !== '')
      return text.slice(0, open + 1) + newline + indent + member + text.slice(open + 1);
    return text.slice(0, open + 1) + newline + indent + member + newline + braceIndent + text.slice(close);
  }
  if (!firstOnLine(text, last.keyStart)) {
    // An object written on one line stays on one line.
    const member = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    return withComma(text, last.value.end, close, ` ${member}`, close);
  }
  const indent = lineIndent(text, last.keyStart);
  const member = `${JSON.stringify(key)}: ${formatValue(value, layout, indent)}`;
  if (firstOnLine(text, close)) {
    // Before the line break that precedes "}": after any comment that follows the last member.
    let at = text.lastIndexOf('\n', close - 1);
    if (text[at - 1] === '\r') at--;
    return withComma(text, last.value.end, close, newline + indent + member, at);
  }
  return withComma(text, last.value.end, close, newline + indent + member + newline + braceIndent, close);
}

/**
 * Inserts `addition` at `at`, and a comma right after the value ending at `valueEnd` unless one is there already
 * (a JSONC trailing comma, possibly after comments). Edits are applied from the end so offsets stay valid.
 */
function withComma(text: string, valueEnd: number, close: number, addition: string, at: number): string {
  const between = text.slice(valueEnd, close);
  const hasComma = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*,/.test(between);
  const inserted = text.slice(0, at) + addition + text.slice(at);
  return hasComma ? inserted : inserted.slice(0, valueEnd) + ',' + inserted.slice(valueEnd);
}

/** The text with the value of `member` replaced by `value`, laid out at the member's indentation. */
export function replaceMemberValue(text: string, member: MemberNode, value: unknown): string {
  const formatted = text.includes('\n')
    ? formatValue(value, layoutOf(text), lineIndent(text, member.keyStart))
    : JSON.stringify(value); // a minified file stays on one line
  return text.slice(0, member.value.start) + formatted + text.slice(member.value.end);
}
