// Secret redaction before anything is stored (threat E3): known credential shapes inside strings, and the values of
// keys whose names say they hold a secret, are replaced by a marker naming what was there, never by a part of it.

/** Credential shapes found inside any string, each replaced by `[REDACTED:<name>]`. */
const SHAPES: readonly (readonly [name: string, pattern: string])[] = [
  [
    'private-key',
    String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`,
  ],
  ['jwt', String.raw`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`],
  ['aws-access-key', String.raw`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b`],
  ['github-token', String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`],
  ['slack-token', String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,}`],
  ['api-key', String.raw`\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}`],
  ['api-key', String.raw`\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`],
  ['google-api-key', String.raw`\bAIza[0-9A-Za-z_-]{35}`],
  // Prose ("basic functionality") is left alone: a token has a digit or a symbol, or is long.
  [
    'bearer-token',
    String.raw`\b(?:Bearer|Basic)[ \t]+(?:[A-Za-z]{20,}|(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,})`,
  ],
  ['url-password', String.raw`(?<=[a-z][a-z0-9+.-]*://[^\s/:@]{1,256}:)[^\s/@]{1,256}(?=@)`],
];

const SHAPE_PATTERN = new RegExp(SHAPES.map(([, pattern]) => `(${pattern})`).join('|'), 'gi');
/** The AWS key and marker names depend on case: the alternation is matched case-insensitively only for the schemes. */
const CASE_SENSITIVE = new Set(['aws-access-key', 'jwt', 'github-token', 'google-api-key', 'api-key']);
const SHAPE_CHECKS = SHAPES.map(([name, pattern]) => [name, new RegExp(`^(?:${pattern})$`)] as const);

/** Key names (lower case, without "-", "_" and ".") whose values are secrets whatever they look like. */
const SECRET_KEY =
  /pass(?:word|wd|phrase)?$|^pwd$|secret|token|apikey|privatekey|credential|authorization|^auth$|cookie|sessionid|accesskey|signature$/;

/** Deeper than this, values are replaced whole: nothing is stored that redaction did not look at. */
const MAX_DEPTH = 64;

/** Replaces every credential shape inside a string. */
export function redactText(text: string): string {
  if (text.length < 8) return text;
  return text.replace(SHAPE_PATTERN, (match: string, ...groups: unknown[]) => {
    const index = groups.findIndex((group, i) => i < SHAPES.length && typeof group === 'string');
    const name = SHAPES[index]?.[0] ?? 'secret';
    // The one alternation is case-insensitive (for "bearer"); shapes that are not must match as written.
    if (CASE_SENSITIVE.has(name) && SHAPE_CHECKS[index]?.[1].test(match) !== true) return match;
    if (name === 'bearer-token') return `${match.split(/[ \t]/, 1)[0] ?? 'Bearer'} [REDACTED:bearer-token]`;
    return `[REDACTED:${name}]`;
  });
}

const isSecretKey = (key: string): boolean => SECRET_KEY.test(key.toLowerCase().replace(/[-_.]/g, ''));

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[REDACTED:too-deep]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      isSecretKey(key) && item !== null && item !== '' && typeof item !== 'boolean'
        ? '[REDACTED]'
        : redactValue(item, depth + 1);
  }
  return out;
}

/**
 * The default redaction of arguments: AWS access keys, private key blocks, JWTs, bearer/basic tokens, GitHub,
 * Slack, OpenAI/Anthropic, Stripe and Google API keys, passwords in URLs; and the whole value of any key named like a
 * password, secret, token, API key, private key, credential, cookie or session id. A copy; the input is unchanged.
 */
export const redactSecrets = (value: unknown): unknown => redactValue(value, 0);
