// Secret redaction (threat E3): known credential shapes inside any string, and the whole value of a member whose key
// names a secret, become `[redacted:<kind>]` — never a part of the secret. The one redactor of the project: the
// output cleaner uses it before a result leaves, the audit before a record is written.

import { marker, SHAPES, type Shape } from './shapes.js';
import { DEFAULT_WALK_LIMITS, walkStrings, type WalkLimits } from './walk.js';

export interface Redaction {
  /** The value with secrets replaced; the very same value when nothing was found. */
  readonly value: unknown;
  /** How many secrets were replaced (a subtree past the limits counts as one). */
  readonly count: number;
}

/** What `sanitise({ redact })` and the audit accept: redactSecrets, or one made by createRedactor. */
export type Redactor = (value: unknown) => Redaction;

export interface TextRedaction {
  readonly text: string;
  readonly count: number;
}

function applyShape(shape: Shape, text: string, found: { count: number }): string {
  if (shape.hint !== undefined && !shape.hint.test(text)) return text;
  shape.pattern.lastIndex = 0;
  return text.replace(shape.pattern, (match: string, ...rest: unknown[]) => {
    // The callback's trailing arguments are the offset and the whole string; capture groups come first.
    const groups = rest.slice(0, -2) as (string | undefined)[];
    const replaced = shape.replace === undefined ? marker(shape.kind) : shape.replace(match, groups);
    if (replaced === undefined) return match;
    found.count++;
    return replaced;
  });
}

/** Replaces every secret shape inside one string. Linear in the length of the text. */
export function redactText(text: string): TextRedaction {
  // The shortest shape (a card number) has 13 characters.
  if (text.length < 13) return { text, count: 0 };
  const found = { count: 0 };
  let current = text;
  for (const shape of SHAPES) current = applyShape(shape, current, found);
  return { text: found.count === 0 ? text : current, count: found.count };
}

/**
 * Key names (lower case, without "-", "_", "." and spaces) whose values are secrets whatever they look like.
 * Suffixes, so "db_password" and "x-api-key" count; "max_tokens" and "tokenCount" do not.
 */
const SECRET_KEY =
  /(?:password|passwd|passphrase|secret|token|apikey|privatekey|secretkey|accesskey|credentials?|authorization|cookie|sessionid|signingkey)$/;
/** Tokens that page through a list are handles, not credentials. */
const NOT_SECRET_KEY = /(?:page|next|continuation|sync|cursor|csrf)token$|^tokens?$|^token(?:type|count)$/;

const secretKeyKind = (key: string): boolean => {
  const name = key.toLowerCase().replace(/[-_. ]/g, '');
  return SECRET_KEY.test(name) && !NOT_SECRET_KEY.test(name);
};

export interface RedactorOptions {
  /** Bounds of the walk: deeper or larger parts are replaced whole, so nothing leaves that was not looked at. */
  readonly limits?: Partial<WalkLimits>;
  /** More key names (compared lower case, without "-", "_", "." and spaces) whose values are always secrets. */
  readonly secretKeys?: readonly string[];
}

/** A redactor with other limits or more secret key names than redactSecrets. */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const limits: WalkLimits = { ...DEFAULT_WALK_LIMITS, ...options.limits };
  const extra = new Set((options.secretKeys ?? []).map((key) => key.toLowerCase().replace(/[-_. ]/g, '')));
  const isSecretKey = (key: string): boolean =>
    secretKeyKind(key) || (extra.size > 0 && extra.has(key.toLowerCase().replace(/[-_. ]/g, '')));
  return (value: unknown): Redaction => {
    let count = 0;
    const outcome = walkStrings(
      value,
      {
        text(text) {
          const redacted = redactText(text);
          count += redacted.count;
          return redacted.text;
        },
        member(key, item) {
          // null, booleans and empty strings say nothing secret ("password": null, "token": false).
          if (item === null || item === '' || typeof item === 'boolean' || !isSecretKey(key))
            return undefined;
          if (typeof item === 'string' && /^\[redacted:[a-z-]+\]$/.test(item)) return undefined;
          count++;
          return marker('secret-field');
        },
        tooDeep: marker('too-deep'),
        tooLarge: marker('too-large'),
      },
      limits,
    );
    return { value: outcome.value, count: count + (outcome.cut ? 1 : 0) };
  };
}

/**
 * Redacts a JSON value (a copy where anything changed; the input is never modified): private key blocks, AWS access
 * key ids and secret keys, GitHub, GitLab, Slack, Stripe, Google, OpenAI and Anthropic keys, JWTs, bearer tokens,
 * basic credentials in Authorization and in URLs, `password=…`-style values, Luhn-valid card numbers, and the whole
 * value of members named like a password, secret, token, API key, private key, credential, cookie or session id.
 * Depth 64 and a million values at most; past that, subtrees become `[redacted:too-deep]` / `[redacted:too-large]`.
 */
export const redactSecrets: Redactor = createRedactor();
