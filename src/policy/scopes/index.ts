// Per-tool scopes, deny by default: who sees and who may call each tool, prompt and resource.

export { scopes, defaultStepUpHeaders, type Scopes, type ScopesOptions } from './scopes.js';
export { ScopeRuleError, type ScopeRule } from './rules.js';
export type { AnnotationClass } from './annotation-classes.js';
export type { AnnotationTrust, Decision } from './decide.js';
export type { ScopeCacheLimits } from './decision-cache.js';
export type { ImpliedScopes } from './implied-scopes.js';
