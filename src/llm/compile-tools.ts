// Compiles an MCP tool list for one profile, once: names mapped, schemas converted and checked against the
// provider's rules. A tool that cannot be strict is sent without strict mode; one that cannot be sent at all is
// left out with its reason. One bad tool never costs the request.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { Tool } from '../protocol/index.js';
import { definitionFor, type DefinitionFor, type ToolDefinition } from './definitions.js';
import { mapNames } from './names.js';
import {
  ANTHROPIC_STRICT_LIMITS,
  looseVariant,
  profile as profileFor,
  type Profile,
  type ProfileId,
} from './profiles.js';
import { SchemaRefusal } from './refusal.js';
import type { CompileReport, ToolReport } from './report.js';
import { checkTool, strictBudgetOf } from './rules.js';
import { compileInputSchema } from './schema-compile.js';
import type { Shape } from './shape.js';

/** One tool as sent: the MCP original, and how the model's calls are read back. */
export interface CompiledTool {
  readonly tool: Tool;
  readonly providerName: string;
  readonly strict: boolean;
  /** The schema the model API received. */
  readonly schema: JsonObject;
  readonly shape: Shape | undefined;
}

export interface CompiledTools<P extends ProfileId = ProfileId> {
  readonly profile: Profile;
  /** Ready for the request's `tools`. */
  readonly definitions: DefinitionFor<P>[];
  readonly report: CompileReport;
  /** By the name the model uses. */
  readonly byProviderName: ReadonlyMap<string, CompiledTool>;
}

interface Attempt {
  compiled: CompiledTool;
  definition: ToolDefinition;
  changes: string[];
}

const descriptionOf = (tool: Tool): string | undefined =>
  tool.description ?? tool.title ?? tool.annotations?.title;

function attempt(tool: Tool, providerName: string, p: Profile): Attempt {
  const { schema, shape, changes } = compileInputSchema(tool.inputSchema, p);
  const definition = definitionFor(p.api, providerName, descriptionOf(tool), schema, p.strict);
  const violations = checkTool({ name: providerName, schema, strict: p.strict }, p.provider);
  const first = violations[0];
  if (first !== undefined) {
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
    throw new SchemaRefusal(`${first.message} at ${first.at || 'the root'}${more}`, p.strict);
  }
  return { compiled: { tool, providerName, strict: p.strict, schema, shape }, definition, changes };
}

export function compileTools<P extends ProfileId>(
  tools: readonly Tool[],
  profileId: P | Profile,
): CompiledTools<P> {
  const p = profileFor(profileId);
  const names = mapNames(
    tools.map((tool) => tool.name),
    p.maxNameLength,
  );
  const refusedNames = new Map(names.refused.map((entry) => [entry.name, entry.reason]));
  const definitions: ToolDefinition[] = [];
  const byProviderName = new Map<string, CompiledTool>();
  const reports: ToolReport[] = [];
  const seen = new Set<string>();
  const budget = { tools: 0, optional: 0, unions: 0 };

  for (const tool of tools) {
    if (seen.has(tool.name)) {
      reports.push({ tool: tool.name, status: 'left-out', changes: [], reason: 'the list names it twice' });
      continue;
    }
    seen.add(tool.name);
    const providerName = names.toProvider.get(tool.name);
    if (providerName === undefined) {
      reports.push({
        tool: tool.name,
        status: 'left-out',
        changes: [],
        reason: refusedNames.get(tool.name) ?? 'no name',
      });
      continue;
    }
    const entry: ToolReport = { tool: tool.name, providerName, status: 'unchanged', changes: [] };
    reports.push(entry);
    if (providerName !== tool.name)
      entry.changes.push(`renamed to "${providerName}" for ${p.provider}'s name rules`);
    if (!isJsonObject(tool.inputSchema)) {
      Object.assign(entry, { status: 'left-out', reason: 'its inputSchema is not a JSON object' });
      continue;
    }
    let result: Attempt | undefined;
    try {
      result = attempt(tool, providerName, p);
      if (p.strict && p.provider === 'anthropic') {
        const cost = strictBudgetOf(result.compiled.schema);
        const limits = ANTHROPIC_STRICT_LIMITS;
        const over =
          budget.tools + 1 > limits.maxStrictTools
            ? `Anthropic takes at most ${limits.maxStrictTools} strict tools per request`
            : budget.optional + cost.optional > limits.maxOptionalParameters
              ? `Anthropic takes at most ${limits.maxOptionalParameters} optional parameters across strict tools`
              : budget.unions + cost.unions > limits.maxUnionParameters
                ? `Anthropic takes at most ${limits.maxUnionParameters} union-typed parameters across strict tools`
                : undefined;
        if (over !== undefined) throw new SchemaRefusal(over, true);
        budget.tools++;
        budget.optional += cost.optional;
        budget.unions += cost.unions;
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof SchemaRefusal && error.strictOnly && p.strict) {
        try {
          result = attempt(tool, providerName, looseVariant(p));
          Object.assign(entry, { status: 'not-strict', reason });
        } catch (loose) {
          Object.assign(entry, {
            status: 'left-out',
            reason: loose instanceof Error ? loose.message : String(loose),
          });
        }
      } else {
        Object.assign(entry, { status: 'left-out', reason });
      }
    }
    if (result === undefined) continue;
    entry.changes.push(...result.changes);
    if (entry.status === 'unchanged' && entry.changes.length > 0) entry.status = 'changed';
    definitions.push(result.definition);
    byProviderName.set(providerName, result.compiled);
  }
  const leftOut = reports.filter((entry) => entry.status === 'left-out').length;
  return {
    profile: p,
    definitions: definitions as DefinitionFor<P>[], // built by definitionFor for p.api, which P names
    report: { profile: p.id, tools: reports, sent: definitions.length, leftOut },
    byProviderName,
  };
}
