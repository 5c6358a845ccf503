// refuseDefinition (threats C5, C6): the tool definitions the gateway will not serve, with the reason. Every check
// is an iterative walk charged to one step budget, so any input, however hostile, costs bounded time; nothing is
// fetched, and no pattern is ever run.

import { isJsonObject, type JsonObject } from '../../jsonrpc/index.js';
import type { Tool } from '../../protocol/index.js';
import { SchemaError } from '../../schema/index.js';
import { assertLocalRefs } from '../../schema/refs.js';
import { forEachSubschema } from '../../schema/walk.js';
import { BudgetExceeded, Meter } from '../../schema/pattern/index.js';
import { patternProblem } from '../../schema/pattern/index.js';
import { resolveLocalRef, subschemas } from './schema-graph.js';
import { DEFAULT_DEFINITION_LIMITS, type DefinitionLimits } from './types.js';
import { excerpt } from './visible.js';

/** MCP's rule for tool names (1–128 characters of A–Z, a–z, 0–9, _, - and .). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The reason a definition is refused (undefined when it is fine), and the steps the checks took. */
export function checkDefinition(
  tool: Tool,
  limits: Partial<DefinitionLimits> = {},
): { reason: string | undefined; steps: number } {
  const bounds = { ...DEFAULT_DEFINITION_LIMITS, ...limits };
  const meter = new Meter(bounds.maxSteps);
  let reason: string | undefined;
  try {
    reason = refusal(tool, bounds, meter);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    reason = `the definition takes more than ${bounds.maxSteps} steps to check`;
  }
  return { reason, steps: meter.steps };
}

/**
 * C5/C6: the reason the gateway refuses a definition, or undefined when it is fine. Refused: a name that breaks MCP's
 * rule, a definition over the size, node or depth bounds, schemas that are not objects (or an inputSchema whose root
 * is not `type: "object"`), any $ref not starting with
 * '#' (never fetched), $dynamicRef / $recursiveRef, an embedded $id, a $ref that resolves to nothing, any recursive
 * $ref (a cycle, even through properties: it cannot be expanded, and validating along it has no bound), schemas
 * too large once $refs are expanded, nesting of subschemas or of combinators over the bounds, and any `pattern` or
 * patternProperties key not shown to run in linear time (see src/schema/pattern/regex-safety.ts).
 */
export function refuseDefinition(tool: Tool, limits: Partial<DefinitionLimits> = {}): string | undefined {
  return checkDefinition(tool, limits).reason;
}

function refusal(tool: Tool, limits: DefinitionLimits, meter: Meter): string | undefined {
  if (!isJsonObject(tool)) return 'the definition is not a JSON object';
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    const shown = typeof tool.name === 'string' ? excerpt(tool.name) : 'missing';
    return `the tool name ${shown} is not 1 to 128 characters of [A-Za-z0-9_.-] (MCP's rule for tool names)`;
  }
  const shape = shapeProblem(tool, limits, meter);
  if (shape !== undefined) return shape;
  const bytes = Buffer.byteLength(JSON.stringify(tool), 'utf8');
  if (bytes > limits.maxDefinitionBytes)
    return `the definition is ${bytes} bytes of JSON, over the limit of ${limits.maxDefinitionBytes}`;
  if (!isJsonObject(tool.inputSchema)) return 'inputSchema is not a JSON object';
  if (tool.inputSchema.type !== 'object')
    return 'inputSchema must have "type": "object" at the root (MCP requires it)';
  if (tool.outputSchema !== undefined && !isJsonObject(tool.outputSchema))
    return 'outputSchema is not a JSON object';
  for (const [subject, schema] of [
    ['inputSchema', tool.inputSchema],
    ['outputSchema', tool.outputSchema],
  ] as const) {
    if (schema === undefined) continue;
    const problem = schemaProblem(schema, subject, limits, meter);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Objects and arrays: how many, how deep; a value that contains itself (not JSON) is refused too. */
function shapeProblem(tool: object, limits: DefinitionLimits, meter: Meter): string | undefined {
  let nodes = 0;
  const stack: { value: unknown; depth: number; exit?: true }[] = [{ value: tool, depth: 1 }];
  const ancestors = new Set<object>();
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const { value, depth } = step;
    if (typeof value !== 'object' || value === null) continue;
    if (step.exit === true) {
      ancestors.delete(value);
      continue;
    }
    meter.spend();
    if (depth > limits.maxDepth) return `the definition is nested deeper than ${limits.maxDepth} levels`;
    if (++nodes > limits.maxNodes)
      return `the definition has more than ${limits.maxNodes} objects and arrays`;
    if (ancestors.has(value)) return 'the definition contains itself (it is not JSON)';
    ancestors.add(value);
    stack.push({ value, depth, exit: true });
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}

function schemaProblem(
  root: JsonObject,
  subject: string,
  limits: DefinitionLimits,
  meter: Meter,
): string | undefined {
  try {
    assertLocalRefs(root, subject);
  } catch (error) {
    if (error instanceof SchemaError) return error.message;
    throw error;
  }
  const anchors = new Map<string, JsonObject>();
  const patterns: { pattern: unknown; pointer: string }[] = [];
  let problem: string | undefined;
  forEachSubschema(root, ({ schema, pointer }) => {
    meter.spend();
    if (problem !== undefined) return;
    const at = pointer || '(root)';
    if (schema.$ref !== undefined && typeof schema.$ref !== 'string')
      problem = `${subject} has a $ref that is not a string at ${at}`;
    else if (schema.$dynamicRef !== undefined || schema.$recursiveRef !== undefined)
      problem = `${subject} uses $dynamicRef or $recursiveRef at ${at}, which the gateway does not follow`;
    else if (pointer !== '' && schema.$id !== undefined)
      problem = `${subject} embeds a schema with its own $id at ${at}; the gateway only follows references inside one schema`;
    for (const keyword of ['$anchor', '$dynamicAnchor']) {
      const name = schema[keyword];
      if (typeof name === 'string') anchors.set(name, schema);
    }
    if (schema.pattern !== undefined)
      patterns.push({ pattern: schema.pattern, pointer: `${pointer}/pattern` });
    if (isJsonObject(schema.patternProperties))
      for (const key of Object.keys(schema.patternProperties))
        patterns.push({ pattern: key, pointer: `${pointer}/patternProperties` });
  });
  problem ??= expansionProblem(root, subject, anchors, limits, meter);
  if (problem !== undefined) return problem;
  for (const { pattern, pointer } of patterns) {
    if (typeof pattern !== 'string') return `${subject} has a pattern that is not a string at ${pointer}`;
    const unsafe = patternProblem(pattern, meter);
    if (unsafe !== undefined) return `${subject} pattern ${excerpt(pattern)} at ${pointer} ${unsafe}`;
  }
  return undefined;
}

interface Stats {
  /** Subschemas once $refs are replaced by their targets. */
  expanded: number;
  /** Subschemas nested in one another, through $refs (1 for a leaf). */
  nesting: number;
  /** Combinators nested in one another, through $refs. */
  combinators: number;
}

/** Cycles, expanded size and nesting, in one post-order walk where each subschema is computed once. */
function expansionProblem(
  root: JsonObject,
  subject: string,
  anchors: ReadonlyMap<string, JsonObject>,
  limits: DefinitionLimits,
  meter: Meter,
): string | undefined {
  interface Edge {
    child: JsonObject;
    pointer: string;
    combinator: boolean;
    ref: boolean;
  }
  interface Frame {
    schema: JsonObject;
    pointer: string;
    edges: Edge[];
    next: number;
    stats: Stats;
  }
  const done = new Map<JsonObject, Stats>();
  const open = new Set<JsonObject>();
  const enter = (schema: JsonObject, pointer: string): Frame | string => {
    meter.spend();
    const edges: Edge[] = subschemas(schema, pointer).map((edge) => ({ ...edge, ref: false }));
    if (typeof schema.$ref === 'string') {
      const target = resolveLocalRef(root, schema.$ref, anchors);
      if (target === undefined)
        return `${subject} has a $ref ${excerpt(schema.$ref)} at ${pointer || '(root)'} that resolves to nothing`;
      // The target is known by where it is: its pointer, or the anchor's name.
      const at = schema.$ref.startsWith('#/') || schema.$ref === '#' ? schema.$ref.slice(1) : schema.$ref;
      if (typeof target !== 'boolean')
        edges.push({ child: target, pointer: at, combinator: false, ref: true });
    }
    open.add(schema);
    return { schema, pointer, edges, next: 0, stats: { expanded: 1, nesting: 1, combinators: 0 } };
  };
  const first = enter(root, '');
  if (typeof first === 'string') return first;
  const stack: Frame[] = [first];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame === undefined) break;
    const edge = frame.edges[frame.next++];
    if (edge === undefined) {
      stack.pop();
      open.delete(frame.schema);
      done.set(frame.schema, frame.stats);
      const { expanded, nesting, combinators } = frame.stats;
      if (expanded > limits.maxExpandedSchemas)
        return `${subject} has more than ${limits.maxExpandedSchemas} subschemas once its $refs are expanded`;
      if (nesting > limits.maxSchemaNesting)
        return `${subject} nests subschemas more than ${limits.maxSchemaNesting} deep (counting through $refs)`;
      if (combinators > limits.maxCombinatorNesting)
        return (
          `${subject} nests combinators (allOf, anyOf, oneOf, not, if, then, else) more than ` +
          `${limits.maxCombinatorNesting} deep (counting through $refs)`
        );
      continue;
    }
    meter.spend();
    if (open.has(edge.child)) {
      const ref = typeof frame.schema.$ref === 'string' ? excerpt(frame.schema.$ref) : '';
      return (
        `${subject} has a recursive $ref ${ref} at ${frame.pointer || '(root)'}: it leads back to a schema that ` +
        'contains it, which the gateway refuses (it cannot be expanded, and validating along it has no bound)'
      );
    }
    const stats = done.get(edge.child);
    if (stats === undefined) {
      const child = enter(edge.child, edge.pointer);
      if (typeof child === 'string') return child;
      frame.next--; // come back to this edge once the child is done
      stack.push(child);
      continue;
    }
    frame.stats.expanded += stats.expanded;
    frame.stats.nesting = Math.max(frame.stats.nesting, stats.nesting + (edge.ref ? 0 : 1));
    frame.stats.combinators = Math.max(
      frame.stats.combinators,
      stats.combinators + (edge.combinator ? 1 : 0),
    );
  }
  return undefined;
}
