// Per-tool scopes, deny by default: a visibility rule that filters lists and lookups per caller, and middleware
// that answers a visible target the caller may not use with 403 insufficient_scope (a JSON-RPC -31003 anywhere).

import { ErrorCode } from '../../jsonrpc/index.js';
import type { Caller } from '../../protocol/index.js';
import {
  Denial,
  type Middleware,
  type RequestView,
  type Target,
  type VisibilityRule,
} from '../../server/index.js';
import { quoteParameter } from '../credentials.js';
import { RuleIndex, type AnnotationTrust, type Decision } from './decide.js';
import { DecisionCache, type ScopeCacheLimits } from './decision-cache.js';
import { compileImplied, type ImpliedScopes } from './implied-scopes.js';
import { compileRules, ScopeRuleError, type ScopeRule } from './rules.js';

export interface ScopesOptions {
  /** Who may see and call what; a target no rule selects is invisible and uncallable. */
  readonly rules: readonly ScopeRule[];
  /**
   * Whether tools' own annotations decide their classes (read-only, destructive…). Default true: the server's own
   * tools. False for tools from untrusted upstreams: every tool then counts as destructive and open-world. A
   * function decides per tool (asked once per registration; only `true` trusts).
   */
  readonly trustAnnotations?: AnnotationTrust;
  /**
   * The HTTP headers of the 403 step-up challenge, given the missing scopes. The bearer piece supplies one with
   * resource_metadata; default `WWW-Authenticate: Bearer error="insufficient_scope", scope="<missing>"`.
   */
  readonly stepUpHeaders?: (missingScopes: readonly string[]) => Record<string, string>;
  /**
   * Scope hierarchies: a broad scope → the narrower scopes it grants too, transitively (the spec: a broad scope
   * satisfies narrower ones). A caller holding "files:admin" with { "files:admin": ["files:write"] } holds both.
   */
  readonly implies?: ImpliedScopes;
  /** Callers that skip scope checks (e.g. `caller.via === 'local'` for a stdio parent); default: none. */
  readonly exempt?: (caller: Caller) => boolean;
  /** Bounds of the decision cache. */
  readonly cache?: ScopeCacheLimits;
}

export interface Scopes {
  /** Install with `server.addVisibility(…)`: lists, lookups and subscriptions show a caller only what it may see. */
  readonly visibility: VisibilityRule;
  /** Install with `server.use(…)`: refuses tools/call, prompts/get and resources/read the caller's scopes lack. */
  readonly middleware: Middleware;
  /** The decision for one caller and target (memoised; for tests and audit). */
  decide(caller: Caller, target: Target): Decision;
}

const OPTION_KEYS = ['rules', 'implies', 'trustAnnotations', 'stepUpHeaders', 'exempt', 'cache'];

/** The default step-up challenge (RFC 6750 §3.1): the missing scopes only, as clients now add them to what they hold. */
export const defaultStepUpHeaders = (missingScopes: readonly string[]): Record<string, string> => ({
  'WWW-Authenticate': `Bearer error="insufficient_scope", scope=${quoteParameter(missingScopes.join(' '))}`,
});

function checkOptions(options: ScopesOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new ScopeRuleError('options', 'must be an object with "rules"');
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new ScopeRuleError(key, `is not a scopes option (expected ${OPTION_KEYS.join(', ')})`);
    }
  }
  const trust: unknown = options.trustAnnotations;
  if (trust !== undefined && typeof trust !== 'boolean' && typeof trust !== 'function') {
    throw new ScopeRuleError('trustAnnotations', 'must be true, false or a function of the tool');
  }
  for (const key of ['stepUpHeaders', 'exempt'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') {
      throw new ScopeRuleError(key, 'must be a function');
    }
  }
  const cache: unknown = options.cache;
  if (cache === undefined) return;
  if (typeof cache !== 'object' || cache === null) throw new ScopeRuleError('cache', 'must be an object');
  for (const [key, value] of Object.entries(cache)) {
    if (key !== 'scopeSets' && key !== 'decisionsPerSet') {
      throw new ScopeRuleError(`cache.${key}`, 'is not a cache limit (expected scopeSets, decisionsPerSet)');
    }
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      throw new ScopeRuleError(`cache.${key}`, 'must be a positive integer');
    }
  }
}

/** How the server answers a name it does not have: a target the caller may not see must look exactly like it. */
function unknownTarget(request: RequestView, target: Target): Denial {
  switch (target.kind) {
    case 'tool':
      return new Denial(ErrorCode.InvalidParams, `Unknown tool: "${target.name}"`, {
        data: { name: target.name },
      });
    case 'prompt':
      return new Denial(ErrorCode.InvalidParams, `Unknown prompt: "${target.name}"`, {
        data: { name: target.name },
      });
    case 'resource':
    case 'resourceTemplate':
      return new Denial(
        request.era === 'modern' ? ErrorCode.InvalidParams : ErrorCode.LegacyResourceNotFound,
        'Resource not found',
        { data: { uri: request.params?.uri } },
      );
  }
}

const KIND_WORD: Record<Target['kind'], string> = {
  tool: 'tool',
  prompt: 'prompt',
  resource: 'resource',
  resourceTemplate: 'resource',
};

/** Builds the scopes policy; throws ScopeRuleError (naming the rule index and key) for a rule it cannot use. */
export function scopes(options: ScopesOptions): Scopes {
  checkOptions(options);
  const rules = compileRules(options.rules);
  const index = new RuleIndex(rules, options.trustAnnotations ?? true);
  const implied = options.implies === undefined ? new Map() : compileImplied(options.implies);
  const cache = new DecisionCache(index, options.exempt, options.cache ?? {}, implied);
  const stepUpHeaders = options.stepUpHeaders ?? defaultStepUpHeaders;
  const decide = (caller: Caller, target: Target): Decision => cache.decide(caller, target);

  const visibility: VisibilityRule = (caller, target) => cache.decide(caller, target).visible;

  const middleware: Middleware = (request, next) => {
    const target = request.target;
    // No target: another method, or a name the caller cannot see (the handler answers it as unknown).
    if (target === undefined) return next();
    const decision = cache.decide(request.caller, target);
    if (decision.callable) return next();
    // Only when the visibility rule is not installed: the same answer as a name that does not exist.
    if (!decision.visible) throw unknownTarget(request, target);
    const missing = decision.missingScopes;
    throw new Denial(
      ErrorCode.InsufficientScope,
      `Forbidden: ${KIND_WORD[target.kind]} "${target.name}" needs the scope(s) ${missing.join(', ')}`,
      {
        httpStatus: 403,
        httpHeaders: stepUpHeaders(missing),
        data: { requiredScopes: decision.requiredScopes, missingScopes: missing },
      },
    );
  };

  return Object.freeze({ visibility, middleware, decide });
}
