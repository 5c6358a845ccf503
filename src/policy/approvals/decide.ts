// Which calls need a human: the first rule that selects the call says; without one, a tool needs approval when it is
// destructive as its annotations say (spec defaults: an unannotated tool is destructive) or when they are not trusted.

import type { ToolTarget } from '../../server/index.js';
import { annotationClasses } from '../scopes/annotation-classes.js';
import type { AnnotationTrust } from '../scopes/decide.js';
import type { CompiledApprovalRule } from './rules.js';

/** What decided: a rule's index, or "default". */
export type ApprovalRuleRef = number | 'default';

export interface ApprovalDecision {
  readonly require: boolean;
  readonly rule: ApprovalRuleRef;
}

export function trusts(trust: AnnotationTrust, target: ToolTarget): boolean {
  return typeof trust === 'function' ? trust(target) === true : trust;
}

/** The decision for one call of `target` with `args`. */
export function decideApproval(
  rules: readonly CompiledApprovalRule[],
  trust: AnnotationTrust,
  target: ToolTarget,
  args: unknown,
): ApprovalDecision {
  let classes: ReadonlySet<string> | undefined;
  for (const rule of rules) {
    if (rule.tools !== undefined && !rule.tools.matches(target.name)) continue;
    if (rule.classes !== undefined) {
      classes ??= annotationClasses(target, trusts(trust, target));
      if (![...rule.classes].some((name) => classes?.has(name) === true)) continue;
    }
    if (rule.argument !== undefined && !rule.argument.test(args)) continue;
    return { require: rule.require, rule: rule.index };
  }
  classes ??= annotationClasses(target, trusts(trust, target));
  return { require: classes.has('destructive'), rule: 'default' };
}
