// JSON Schema `pattern`s a backtracking engine (V8, as Ajv uses it) runs in linear time: the static check
// (regex-safety.ts) and a walk over a schema for the patterns it holds. Used wherever a peer's schema is compiled:
// the gateway's vetting of upstream definitions, and the client's check of a server's outputSchema (threat C5).

import { isJsonObject, type JsonObject } from '../../jsonrpc/index.js';
import { patternProblem } from './regex-safety.js';

export { BudgetExceeded, Meter } from './meter.js';
export { MAX_PATTERN_LENGTH, patternProblem } from './regex-safety.js';

/** Subschemas one walk looks at, at most: past it the schema is called unsafe (a bound on the walk itself). */
const MAX_WALKED = 20_000;

/**
 * The first `pattern` (or patternProperties key) in `schema` not shown to run in linear time, with where it is and
 * why, or undefined when every one is shown safe.
 */
export function unsafePattern(schema: unknown): string | undefined {
  const stack: Array<{ node: unknown; at: string }> = [{ node: schema, at: '' }];
  for (let walked = 0; stack.length > 0; walked++) {
    if (walked >= MAX_WALKED)
      return `the schema has more than ${MAX_WALKED} parts to look through for patterns`;
    const { node, at } = stack.pop() as { node: unknown; at: string };
    if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ node: item, at: `${at}/${index}` }));
      continue;
    }
    if (!isJsonObject(node)) continue;
    const object: JsonObject = node;
    const patterns = [
      ...(typeof object['pattern'] === 'string'
        ? [{ pattern: object['pattern'], where: `${at}/pattern` }]
        : []),
      ...(isJsonObject(object['patternProperties'])
        ? Object.keys(object['patternProperties']).map((pattern) => ({
            pattern,
            where: `${at}/patternProperties`,
          }))
        : []),
    ];
    for (const { pattern, where } of patterns) {
      const problem = patternProblem(pattern);
      if (problem !== undefined)
        return `pattern ${JSON.stringify(pattern.slice(0, 80))} at ${where} ${problem}`;
    }
    for (const [key, value] of Object.entries(object)) {
      if (typeof value === 'object' && value !== null) stack.push({ node: value, at: `${at}/${key}` });
    }
  }
  return undefined;
}
