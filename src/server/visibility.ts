// Per-caller visibility: rules of the form (caller, target) → visible, turned once per change into the per-catalog
// predicates the catalogs page and look up with. No rule installed means the shared, precomputed pages.

import type { Caller } from '../protocol/index.js';
import type { PromptRecord } from './prompts.js';
import type { ResourceRecord, TemplateRecord } from './resources.js';
import type { Target } from './targets.js';
import type { ToolRecord } from './tool-registry.js';

/**
 * Whether `caller` may see `target`: in every list, and when a request names it (an unseen tool is an unknown tool).
 * Must be pure and fast: results are cached per caller object and catalog change, and it runs before pagination.
 */
export type VisibilityRule = (caller: Caller, target: Target) => boolean;

type EntryRule<E> = ((caller: Caller, entry: E) => boolean) | undefined;

export class VisibilityRules {
  readonly #rules: VisibilityRule[] = [];
  readonly #onChange: () => void;
  tools: EntryRule<ToolRecord>;
  prompts: EntryRule<PromptRecord>;
  resources: EntryRule<ResourceRecord>;
  templates: EntryRule<TemplateRecord>;
  /** The statics/templates pair resource lookups take. */
  resourceLookup: { statics: EntryRule<ResourceRecord>; templates: EntryRule<TemplateRecord> } = {
    statics: undefined,
    templates: undefined,
  };

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** True once any rule is installed: lists then depend on the caller (cacheScope "private"). */
  get active(): boolean {
    return this.#rules.length > 0;
  }

  /** Adds a rule; an entry is visible when every rule allows it. */
  add(rule: VisibilityRule): void {
    if (typeof rule !== 'function')
      throw new TypeError('a visibility rule must be a function (caller, target) => boolean');
    this.#rules.push(rule);
    const rules = [...this.#rules];
    const check =
      rules.length === 1
        ? rule
        : (caller: Caller, target: Target): boolean => rules.every((each) => each(caller, target));
    const byTarget = (caller: Caller, entry: { target: Target }): boolean => check(caller, entry.target);
    this.tools = byTarget;
    this.prompts = byTarget;
    this.resources = byTarget;
    this.templates = byTarget;
    this.resourceLookup = { statics: byTarget, templates: byTarget };
    this.#onChange();
  }
}
