// Approval rules as an operator writes them (library options or toolwire.json `policy.approvals.rules`), checked once
// when approvals are built: every problem names the rule index and key, and nothing unchecked reaches a decision.

import { ANNOTATION_CLASSES, type AnnotationClass } from '../scopes/annotation-classes.js';
import { nameMatcher, type NameMatcher } from '../scopes/glob.js';
import { argumentCondition, type ArgumentCondition } from './argument-condition.js';
import { ApprovalRuleError } from './errors.js';

export interface ApprovalRule {
  /** Tool names or globs ("*", "?"), matched on the exact registered name. */
  readonly tools?: readonly string[];
  /** Annotation classes: the tool matches if it is in ANY of them (untrusted annotations: destructive, open-world). */
  readonly annotations?: readonly AnnotationClass[];
  /** An argument: a top-level name ("path") or a JSON pointer ("/options/target"). Needs equals, matches or prefix. */
  readonly argument?: string;
  /** The argument equals this JSON scalar. */
  readonly equals?: string | number | boolean | null;
  /** The argument is a string this regular expression finds (checked on its first 1024 characters). */
  readonly matches?: string;
  /** The argument is a string that starts with this. */
  readonly prefix?: string;
  /** Whether a call the rule selects needs a human's approval. */
  readonly require: boolean;
}

/** A rule made ready for decisions. */
export interface CompiledApprovalRule {
  readonly index: number;
  readonly tools: NameMatcher | undefined;
  readonly classes: ReadonlySet<AnnotationClass> | undefined;
  readonly argument: ArgumentCondition | undefined;
  readonly require: boolean;
}

const RULE_KEYS = ['tools', 'annotations', 'argument', 'equals', 'matches', 'prefix', 'require'];
export const MAX_APPROVAL_RULES = 1_000;
const MAX_LIST = 1_000;
const TOOL_PATTERN = /^[A-Za-z0-9_.\-*?]{1,128}$/;

function stringList(value: unknown, path: string, check: (item: string, at: string) => void): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST) {
    throw new ApprovalRuleError(path, `must be a non-empty array of at most ${MAX_LIST} strings`);
  }
  return value.map((item: unknown, index) => {
    const at = `${path}[${index}]`;
    if (typeof item !== 'string') throw new ApprovalRuleError(at, 'must be a string');
    check(item, at);
    return item;
  });
}

function compileRule(rule: unknown, index: number): CompiledApprovalRule {
  const at = `rules[${index}]`;
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    throw new ApprovalRuleError(at, 'must be an object');
  }
  const record = rule as Record<string, unknown>; // each member is checked below
  for (const key of Object.keys(record)) {
    if (!RULE_KEYS.includes(key)) {
      throw new ApprovalRuleError(`${at}.${key}`, `is not a rule key (expected ${RULE_KEYS.join(', ')})`);
    }
  }
  if (typeof record.require !== 'boolean')
    throw new ApprovalRuleError(`${at}.require`, 'must be true or false');
  const tools =
    record.tools === undefined
      ? undefined
      : stringList(record.tools, `${at}.tools`, (item, where) => {
          if (!TOOL_PATTERN.test(item)) {
            throw new ApprovalRuleError(where, 'is not a tool name or glob (1-128 of A-Z a-z 0-9 _ - . * ?)');
          }
        });
  const classes =
    record.annotations === undefined
      ? undefined
      : stringList(record.annotations, `${at}.annotations`, (item, where) => {
          if (!(ANNOTATION_CLASSES as readonly string[]).includes(item)) {
            throw new ApprovalRuleError(
              where,
              `is not an annotation class (${ANNOTATION_CLASSES.join(', ')})`,
            );
          }
        });
  const argument = argumentCondition(record, at);
  if (tools === undefined && classes === undefined && argument === undefined) {
    throw new ApprovalRuleError(at, 'selects nothing: give tools, annotations or argument');
  }
  return {
    index,
    tools: tools === undefined ? undefined : nameMatcher(tools),
    classes: classes === undefined ? undefined : new Set(classes as AnnotationClass[]),
    argument,
    require: record.require,
  };
}

/** Checks and compiles the rules; the first problem throws an ApprovalRuleError naming it. */
export function compileApprovalRules(rules: unknown): readonly CompiledApprovalRule[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) throw new ApprovalRuleError('rules', 'must be an array');
  if (rules.length > MAX_APPROVAL_RULES) {
    throw new ApprovalRuleError('rules', `has ${rules.length} rules, over ${MAX_APPROVAL_RULES}`);
  }
  return rules.map(compileRule);
}
