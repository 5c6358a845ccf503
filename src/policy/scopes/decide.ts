// One scope decision: which rules select a target (once per target object), then what a set of held scopes makes
// of them (visible? callable? which scopes are missing?). Pure: the same scopes and target give the same answer.

import type { Target, ToolTarget } from '../../server/index.js';
import { annotationClasses, type AnnotationClass } from './annotation-classes.js';
import type { CompiledRule } from './rules.js';

export interface Decision {
  /** Listed, and named in a request it resolves (otherwise it answers exactly as unknown). */
  readonly visible: boolean;
  /** May be called (tools/call), got (prompts/get) or read (resources/read). */
  readonly callable: boolean;
  /**
   * exempt: the caller skips scope checks; granted: a rule allows the call; step-up: visible, but the scopes to
   * call are missing; hidden: rules select the target but the caller holds none's `see`; unmatched: no rule
   * selects it (deny by default).
   */
  readonly reason: 'exempt' | 'granted' | 'step-up' | 'hidden' | 'unmatched';
  /** The rule that grants the call (granted) or whose scopes a step-up names (step-up). */
  readonly rule: number | undefined;
  /** Everything that rule asks of a caller (its `see` and `call` scopes); [] when hidden or unmatched. */
  readonly requiredScopes: readonly string[];
  /** What of `requiredScopes` the caller lacks (step-up); [] otherwise. */
  readonly missingScopes: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);
const decision = (fields: Decision): Decision => Object.freeze(fields);

export const EXEMPT: Decision = decision({
  visible: true,
  callable: true,
  reason: 'exempt',
  rule: undefined,
  requiredScopes: NONE,
  missingScopes: NONE,
});
const UNMATCHED: Decision = decision({
  visible: false,
  callable: false,
  reason: 'unmatched',
  rule: undefined,
  requiredScopes: NONE,
  missingScopes: NONE,
});
const HIDDEN: Decision = decision({
  visible: false,
  callable: false,
  reason: 'hidden',
  rule: undefined,
  requiredScopes: NONE,
  missingScopes: NONE,
});

/** Whether a tool's own annotations decide its classes: for all tools, or per tool (a gateway's upstreams). */
export type AnnotationTrust = boolean | ((target: ToolTarget) => boolean);

/** Which rules select a target: computed once per target object (targets are made once, at registration). */
export class RuleIndex {
  readonly #rules: readonly CompiledRule[];
  readonly #trust: AnnotationTrust;
  readonly #granted: readonly Decision[];
  // Weak: a target lives as long as its registration; nothing here outlives the catalog entry.
  readonly #selecting = new WeakMap<Target, readonly CompiledRule[]>();

  constructor(rules: readonly CompiledRule[], trustAnnotations: AnnotationTrust) {
    this.#rules = rules;
    this.#trust = trustAnnotations;
    this.#granted = rules.map((rule) =>
      decision({
        visible: true,
        callable: true,
        reason: 'granted',
        rule: rule.index,
        requiredScopes: rule.call,
        missingScopes: NONE,
      }),
    );
  }

  /** The rules that select `target`, in rule order. */
  selecting(target: Target): readonly CompiledRule[] {
    let found = this.#selecting.get(target);
    if (found === undefined) {
      let classes: ReadonlySet<AnnotationClass> | undefined;
      const classesOf = (tool: ToolTarget): ReadonlySet<AnnotationClass> =>
        (classes ??= annotationClasses(
          tool,
          typeof this.#trust === 'function' ? this.#trust(tool) === true : this.#trust,
        ));
      found = Object.freeze(this.#rules.filter((rule) => selects(rule, target, classesOf)));
      this.#selecting.set(target, found);
    }
    return found;
  }

  /**
   * Visible when ANY selecting rule's `see` scopes are all held; callable when ANY of those rules also has all its
   * `call` scopes held. A step-up names the visible rule missing the fewest scopes (the first such on a tie).
   */
  decide(held: ReadonlySet<string>, target: Target): Decision {
    const rules = this.selecting(target);
    if (rules.length === 0) return UNMATCHED;
    let best: { rule: CompiledRule; missing: string[] } | undefined;
    for (const rule of rules) {
      if (!rule.see.every((scope) => held.has(scope))) continue;
      const missing = rule.call.filter((scope) => !held.has(scope));
      if (missing.length === 0) return this.#granted[rule.index] as Decision;
      if (best === undefined || missing.length < best.missing.length) best = { rule, missing };
    }
    if (best === undefined) return HIDDEN;
    return decision({
      visible: true,
      callable: false,
      reason: 'step-up',
      rule: best.rule.index,
      requiredScopes: best.rule.call,
      missingScopes: Object.freeze(best.missing),
    });
  }
}

/** Whether a rule selects a target: tools by name AND class (when both are given), the others by name or URI. */
function selects(
  rule: CompiledRule,
  target: Target,
  classesOf: (tool: ToolTarget) => ReadonlySet<AnnotationClass>,
): boolean {
  switch (target.kind) {
    case 'tool': {
      if (rule.tools === undefined && rule.classes === undefined) return false;
      if (rule.tools !== undefined && !rule.tools.matches(target.name)) return false;
      if (rule.classes === undefined) return true;
      const wanted = rule.classes;
      for (const each of classesOf(target)) if (wanted.has(each)) return true;
      return false;
    }
    case 'prompt':
      return rule.prompts?.matches(target.name) === true;
    case 'resource':
    case 'resourceTemplate':
      return rule.resources?.matches(target.name) === true;
  }
}
