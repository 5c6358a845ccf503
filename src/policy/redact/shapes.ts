// The secret shapes redaction recognises inside text (threat E3), each a linear-time pattern: a match may only start
// where a run of its characters starts (a lookbehind), and every repetition is bounded or ends at a character its
// class excludes, so no input makes the engine go back over more than a bounded stretch.

import { isCardNumber } from './luhn.js';

/** The kinds a marker names: `[redacted:<kind>]`. */
export type SecretKind =
  | 'private-key'
  | 'aws-access-key-id'
  | 'aws-secret-access-key'
  | 'github-token'
  | 'gitlab-token'
  | 'slack-token'
  | 'slack-webhook'
  | 'stripe-key'
  | 'google-api-key'
  | 'google-oauth'
  | 'openai-key'
  | 'anthropic-key'
  | 'jwt'
  | 'bearer-token'
  | 'basic-auth'
  | 'url-password'
  | 'secret-field'
  | 'card-number';

export const marker = (kind: string): string => `[redacted:${kind}]`;

export interface Shape {
  readonly kind: SecretKind;
  /** Global; the whole match is replaced unless `replace` says otherwise. */
  readonly pattern: RegExp;
  /** The replacement for one match, or undefined to keep the match (a check that failed). */
  readonly replace?: (match: string, groups: readonly (string | undefined)[]) => string | undefined;
  /** A cheap test that must pass before the pattern runs (a literal every match contains). */
  readonly hint?: RegExp;
}

/** Characters of base64url and similar token alphabets. */
const TOKEN = 'A-Za-z0-9_-';
/** A token starts where a run of token characters starts. */
const START = `(?<![${TOKEN}])`;
/** …and ends where the run ends. */
const END = `(?![${TOKEN}])`;

const keepPrefix =
  (kind: SecretKind) =>
  (_match: string, groups: readonly (string | undefined)[]): string =>
    `${groups[0] ?? ''}${marker(kind)}`;

/** A value after "password=" is a secret when it looks like one: a digit or symbol in it, or long; not a placeholder. */
const PLACEHOLDER =
  /^(?:null|none|nil|true|false|undefined|redacted|required|optional|string|\*+|x+|\.+|<[^>]*>)$/i;
const looksSecret = (value: string): boolean =>
  !PLACEHOLDER.test(value) && (value.length >= 12 || /[^A-Za-z]/.test(value));

export const SHAPES: readonly Shape[] = [
  {
    kind: 'private-key',
    // An unterminated block (a cut result) is redacted to the end: `$` always matches, so the lazy scan never fails.
    pattern:
      /-----BEGIN (?:[A-Z0-9]{1,12} ){0,3}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]{1,12} ){0,3}PRIVATE KEY(?: BLOCK)?-----|$)/g,
    hint: /PRIVATE KEY/,
  },
  {
    kind: 'jwt',
    pattern: new RegExp(`${START}eyJ[${TOKEN}]{5,}\\.eyJ[${TOKEN}]{2,}\\.[${TOKEN}]*`, 'g'),
    hint: /eyJ/,
  },
  {
    kind: 'aws-access-key-id',
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Z0-9])/g,
  },
  {
    kind: 'aws-secret-access-key',
    // Forty base64 characters are any hash's shape: only after a name that says what they are.
    pattern:
      /((?<![A-Za-z0-9_])(?:aws_?secret_?access_?key|secret_?access_?key|aws_?secret_?key|SecretAccessKey)["']?\s{0,8}[:=]\s{0,8}["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
    replace: keepPrefix('aws-secret-access-key'),
    hint: /secret_?access|secret_?key|secretaccesskey/i,
  },
  {
    kind: 'github-token',
    pattern: new RegExp(
      `${START}(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,251})${END}`,
      'g',
    ),
  },
  {
    kind: 'gitlab-token',
    pattern: new RegExp(`${START}gl(?:pat|ptt|dt|rt|cbt|soat|ft|imt)-[${TOKEN}]{20,251}${END}`, 'g'),
  },
  {
    kind: 'slack-webhook',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{16,250}/g,
  },
  { kind: 'slack-token', pattern: new RegExp(`${START}xox[abposre]-[A-Za-z0-9-]{10,251}${END}`, 'g') },
  {
    kind: 'stripe-key',
    pattern: new RegExp(
      `${START}(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9]{24,250})${END}`,
      'g',
    ),
  },
  { kind: 'google-api-key', pattern: new RegExp(`${START}AIza[${TOKEN}]{35}${END}`, 'g') },
  {
    kind: 'google-oauth',
    pattern: new RegExp(`${START}(?:GOCSPX-[${TOKEN}]{28}|ya29\\.[${TOKEN}]{20,2048})${END}`, 'g'),
  },
  { kind: 'anthropic-key', pattern: new RegExp(`${START}sk-ant-[${TOKEN}]{20,251}${END}`, 'g') },
  {
    kind: 'openai-key',
    pattern: new RegExp(`${START}sk-(?:proj-|svcacct-|admin-)?[${TOKEN}]{20,251}${END}`, 'g'),
  },
  {
    kind: 'bearer-token',
    // "Bearer" followed by a token (a digit or symbol in it, or 20+ letters): "the bearer of bad news" stays.
    pattern:
      /((?<![A-Za-z0-9_-])[Bb][Ee][Aa][Rr][Ee][Rr][ \t]{1,8})(?=[A-Za-z]{0,19}[0-9._~+/=-]|[A-Za-z]{20})[A-Za-z0-9._~+/-]{8,4096}=*/g,
    replace: keepPrefix('bearer-token'),
    hint: /bearer/i,
  },
  {
    kind: 'basic-auth',
    pattern:
      /((?<![A-Za-z0-9_-])[Aa]uthorization["']?\s{0,8}[:=]\s{0,8}["']?[Bb][Aa][Ss][Ii][Cc][ \t]{1,8})[A-Za-z0-9+/]{4,4096}=*/g,
    replace: keepPrefix('basic-auth'),
    hint: /basic/i,
  },
  {
    kind: 'url-password',
    // scheme://user:password@host → the password only; the user and host stay readable.
    pattern: /((?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s/?#@:]{0,256}:)[^\s/?#@]{1,256}(?=@)/g,
    replace: keepPrefix('url-password'),
    hint: /:\/\//,
  },
  {
    kind: 'secret-field',
    // password=…, "api_key": "…", secret: … in logs, configs and JSON text.
    pattern:
      /((?<![A-Za-z0-9_])(?:password|passwd|passphrase|secret|client_?secret|api_?key|apikey|access_?token|refresh_?token|auth_?token|token)["']?\s{0,8}[:=]\s{0,8}["']?)([^\s"',;&<>]{4,512})/gi,
    replace: (_match, groups) =>
      looksSecret(groups[1] ?? '') ? `${groups[0] ?? ''}${marker('secret-field')}` : undefined,
    hint: /pass|pwd|secret|key|token/i,
  },
  {
    kind: 'card-number',
    // 13 to 19 digits, single spaces or hyphens between them, then the network and Luhn checks.
    pattern: /(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])/g,
    replace: (match) => (isCardNumber(match) ? marker('card-number') : undefined),
  },
];
