// Scope rules as an operator writes them (library options or toolwire.json `policy.scopes`), checked once when the
// policy is built: every problem names the rule index and key, and nothing unchecked reaches a decision.

import { ANNOTATION_CLASSES, type AnnotationClass } from './annotation-classes.js';
import { nameMatcher, type NameMatcher } from './glob.js';

export interface ScopeRule {
  /** Tool names or globs ("*", "?"), matched on the exact registered name. */
  readonly tools?: readonly string[];
  /** Annotation classes: a tool matches if it is in ANY of them (with `tools` too: named AND in a class). */
  readonly annotations?: readonly AnnotationClass[];
  /** Prompt names or globs. */
  readonly prompts?: readonly string[];
  /** Registered resource URIs or URI templates, or globs over them. */
  readonly resources?: readonly string[];
  /** Scopes that make a match visible, all required; [] = every caller. Default: the `call` scopes. */
  readonly see?: readonly string[];
  /** Scopes needed, beside `see`, to call, get or read a match, all required. Default: the `see` scopes. */
  readonly call?: readonly string[];
}

/** A rule made ready for decisions: matchers built, scope lists deduplicated, `call` including `see`. */
export interface CompiledRule {
  readonly index: number;
  readonly tools: NameMatcher | undefined;
  readonly classes: ReadonlySet<AnnotationClass> | undefined;
  readonly prompts: NameMatcher | undefined;
  readonly resources: NameMatcher | undefined;
  readonly see: readonly string[];
  /** Everything a caller must hold to call: `see` then the rest of `call`. */
  readonly call: readonly string[];
}

/** A rule (or option) that cannot be used; `path` says where, as in "rules[2].tools[0]". */
export class ScopeRuleError extends TypeError {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`Invalid scopes policy: ${path} ${problem}`);
    this.name = 'ScopeRuleError';
    this.path = path;
  }
}

const RULE_KEYS = ['tools', 'annotations', 'prompts', 'resources', 'see', 'call'] as const;
const SELECTORS = ['tools', 'annotations', 'prompts', 'resources'] as const;
/** Bounds that keep a configuration (and so every decision) small. */
export const MAX_RULES = 10_000;
export const MAX_LIST = 1_000;
export const MAX_SCOPES = 64;
const MAX_SCOPE_LENGTH = 256;

/** RFC 6749 §3.3 scope-token: visible ASCII except space, '"' and '\'. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** Tool names are 1–128 of A–Z a–z 0–9 _ - . (as registration requires), plus the two wildcards. */
const TOOL_PATTERN = /^[A-Za-z0-9_.\-*?]{1,128}$/;
const PROMPT_PATTERN = /^\P{Cc}{1,128}$/u;
const RESOURCE_PATTERN = /^\P{Cc}{1,2048}$/u;

const PATTERNS: Record<'tools' | 'prompts' | 'resources', { test: RegExp; what: string }> = {
  tools: {
    test: TOOL_PATTERN,
    what: 'a tool name or glob: 1–128 characters from A–Z, a–z, 0–9, "_", "-", "." and the wildcards "*" and "?"',
  },
  prompts: {
    test: PROMPT_PATTERN,
    what: 'a prompt name or glob: 1–128 characters, no control characters',
  },
  resources: {
    test: RESOURCE_PATTERN,
    what: 'a resource URI, URI template or glob: 1–2,048 characters, no control characters',
  },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A non-empty array of at most `max` strings, each passing `check` (which names the problem or says undefined). */
function stringList(
  value: unknown,
  path: string,
  max: number,
  allowEmpty: boolean,
  check: (item: string) => string | undefined,
): string[] {
  if (!Array.isArray(value)) throw new ScopeRuleError(path, 'must be an array of strings');
  if (value.length === 0 && !allowEmpty) {
    throw new ScopeRuleError(path, 'is empty: name at least one, or leave the key out');
  }
  if (value.length > max) throw new ScopeRuleError(path, `has ${value.length} entries; at most ${max}`);
  const seen = new Set<string>();
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') throw new ScopeRuleError(`${path}[${i}]`, 'must be a string');
    const problem = check(item);
    if (problem !== undefined) throw new ScopeRuleError(`${path}[${i}]`, problem);
    seen.add(item);
  }
  return [...seen];
}

const preview = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

export const scopeProblem = (scope: string): string | undefined =>
  scope.length <= MAX_SCOPE_LENGTH && SCOPE_TOKEN.test(scope)
    ? undefined
    : `${preview(scope)} is not a scope: 1–${MAX_SCOPE_LENGTH} visible ASCII characters, no space, '"' or '\\'`;

function compileRule(value: unknown, index: number): CompiledRule {
  const at = `rules[${index}]`;
  if (!isRecord(value)) throw new ScopeRuleError(at, 'must be an object');
  for (const key of Object.keys(value)) {
    if (!(RULE_KEYS as readonly string[]).includes(key)) {
      throw new ScopeRuleError(`${at}.${key}`, `is not a rule key (expected ${RULE_KEYS.join(', ')})`);
    }
  }
  if (SELECTORS.every((key) => value[key] === undefined)) {
    throw new ScopeRuleError(at, `selects nothing: give at least one of ${SELECTORS.join(', ')}`);
  }
  if (value.see === undefined && value.call === undefined) {
    throw new ScopeRuleError(
      at,
      'must say who may see or call what it selects: give "see", "call" or both ("see": [] for every caller)',
    );
  }
  const patterns = (key: 'tools' | 'prompts' | 'resources'): NameMatcher | undefined => {
    if (value[key] === undefined) return undefined;
    const { test, what } = PATTERNS[key];
    const list = stringList(value[key], `${at}.${key}`, MAX_LIST, false, (item) =>
      test.test(item) ? undefined : `${preview(item)} is not ${what}`,
    );
    return nameMatcher(list);
  };
  let classes: ReadonlySet<AnnotationClass> | undefined;
  if (value.annotations !== undefined) {
    const list = stringList(
      value.annotations,
      `${at}.annotations`,
      ANNOTATION_CLASSES.length,
      false,
      (item) =>
        (ANNOTATION_CLASSES as readonly string[]).includes(item)
          ? undefined
          : `${preview(item)} is not an annotation class (expected ${ANNOTATION_CLASSES.join(', ')})`,
    );
    classes = new Set(list as AnnotationClass[]); // every item was checked against ANNOTATION_CLASSES
  }
  const scopes = (key: 'see' | 'call'): string[] | undefined =>
    value[key] === undefined
      ? undefined
      : stringList(value[key], `${at}.${key}`, MAX_SCOPES, true, scopeProblem);
  const see = scopes('see');
  const call = scopes('call');
  const seeScopes = see ?? call ?? [];
  const callScopes = [...new Set([...seeScopes, ...(call ?? seeScopes)])];
  return Object.freeze({
    index,
    tools: patterns('tools'),
    classes,
    prompts: patterns('prompts'),
    resources: patterns('resources'),
    see: Object.freeze(seeScopes),
    call: Object.freeze(callScopes),
  });
}

/** Checks and compiles every rule; throws ScopeRuleError naming the first problem. */
export function compileRules(rules: unknown): readonly CompiledRule[] {
  if (!Array.isArray(rules)) throw new ScopeRuleError('rules', 'must be an array of rules');
  if (rules.length > MAX_RULES) {
    throw new ScopeRuleError('rules', `has ${rules.length} rules; at most ${MAX_RULES}`);
  }
  return Object.freeze(rules.map((rule: unknown, index) => compileRule(rule, index)));
}
