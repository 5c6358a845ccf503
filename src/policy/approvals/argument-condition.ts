// Argument conditions of approval rules: one argument (a top-level name or a JSON pointer) compared with a scalar, a
// prefix or a bounded regular expression. Kept small on purpose: arguments are attacker-controlled, so matching must
// stay cheap whatever they hold.

import { ApprovalRuleError } from './errors.js';

export interface ArgumentCondition {
  /** Whether the call's arguments meet the condition (a missing argument never does). */
  test(args: unknown): boolean;
}

const MAX_POINTER_LENGTH = 256;
const MAX_SEGMENTS = 8;
const MAX_PATTERN_LENGTH = 256;
const MAX_PREFIX_LENGTH = 1024;
/** Only the start of an argument is searched: a long value cannot make a match slow. */
export const MATCH_WINDOW = 1024;

type Scalar = string | number | boolean | null;

/** "path" → ["path"]; "/a/b~1c" → ["a", "b/c"] (RFC 6901 escapes). */
function segments(argument: string, at: string): string[] {
  if (argument.length === 0 || argument.length > MAX_POINTER_LENGTH) {
    throw new ApprovalRuleError(at, `must be 1-${MAX_POINTER_LENGTH} characters`);
  }
  const parts = argument.startsWith('/')
    ? argument
        .slice(1)
        .split('/')
        .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    : [argument];
  if (parts.length > MAX_SEGMENTS) throw new ApprovalRuleError(at, `has more than ${MAX_SEGMENTS} segments`);
  return parts;
}

function lookup(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]{0,5})$/.test(part)) return undefined;
      value = value[Number(part)];
    } else {
      if (!Object.hasOwn(value, part)) return undefined;
      value = (value as Record<string, unknown>)[part];
    }
  }
  return value;
}

/**
 * A pattern whose matching time stays near-linear: no backreferences, no lookbehind, and no quantified group (the
 * nested quantifiers behind catastrophic backtracking need one).
 */
function compilePattern(pattern: unknown, at: string): RegExp {
  if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) {
    throw new ApprovalRuleError(at, `must be a regular expression of 1-${MAX_PATTERN_LENGTH} characters`);
  }
  if (/\\[1-9]|\\k<|\(\?<[=!]/.test(pattern)) {
    throw new ApprovalRuleError(at, 'may not use backreferences or lookbehind');
  }
  if (/\)(?:[*+?]|\{\d)/.test(pattern)) {
    throw new ApprovalRuleError(at, 'may not quantify a group (write the alternatives out instead)');
  }
  try {
    return new RegExp(pattern, 'u');
  } catch {
    throw new ApprovalRuleError(at, 'is not a valid regular expression');
  }
}

const isScalar = (value: unknown): value is Scalar =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** The rule's argument condition, or undefined when it has none; checked as compileRule checks the rest. */
export function argumentCondition(rule: Record<string, unknown>, at: string): ArgumentCondition | undefined {
  const given = ['equals', 'matches', 'prefix'].filter((key) => rule[key] !== undefined);
  if (rule.argument === undefined) {
    if (given.length > 0) throw new ApprovalRuleError(`${at}.${given[0]}`, 'needs argument');
    return undefined;
  }
  if (typeof rule.argument !== 'string') throw new ApprovalRuleError(`${at}.argument`, 'must be a string');
  const path = segments(rule.argument, `${at}.argument`);
  if (given.length !== 1) {
    throw new ApprovalRuleError(`${at}.argument`, 'needs exactly one of equals, matches or prefix');
  }
  if (rule.equals !== undefined) {
    const expected = rule.equals;
    if (!isScalar(expected)) {
      throw new ApprovalRuleError(`${at}.equals`, 'must be a string, number, boolean or null');
    }
    return { test: (args) => lookup(args, path) === expected };
  }
  if (rule.prefix !== undefined) {
    const prefix = rule.prefix;
    if (typeof prefix !== 'string' || prefix.length === 0 || prefix.length > MAX_PREFIX_LENGTH) {
      throw new ApprovalRuleError(`${at}.prefix`, `must be a string of 1-${MAX_PREFIX_LENGTH} characters`);
    }
    return {
      test: (args) => {
        const value = lookup(args, path);
        return typeof value === 'string' && value.startsWith(prefix);
      },
    };
  }
  const pattern = compilePattern(rule.matches, `${at}.matches`);
  return {
    test: (args) => {
      const value = lookup(args, path);
      return typeof value === 'string' && pattern.test(value.slice(0, MATCH_WINDOW));
    },
  };
}
