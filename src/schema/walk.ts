// Visits every subschema of a JSON Schema, knowing which keys are keywords and which are names or data.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { appendPointer } from './pointer.js';

export interface SubschemaVisit {
  readonly schema: JsonObject;
  /** JSON Pointer of this subschema inside the root schema. */
  readonly pointer: string;
  /**
   * The property names leading here when the path from the root is made only of `properties` steps
   * (`[]` for the root itself); undefined once any other keyword was crossed.
   */
  readonly propertyPath: readonly string[] | undefined;
}

// Keywords whose value is a map from names to subschemas: their keys are names, never keywords.
const NAMED_SUBSCHEMAS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
// Keywords whose value is data: a `$ref` or `x-mcp-header` key inside them is just a value.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * Calls `visit` for the root and every subschema, in document order. Unknown keywords holding objects are
 * walked too: treating them as schemas is the conservative reading (a hidden `$ref` or annotation is found).
 * Iterative, so hostile depth cannot blow the stack. An object shared by two paths is visited on each (its
 * location matters); an object that contains itself is not entered again.
 */
export function forEachSubschema(root: JsonObject, visit: (entry: SubschemaVisit) => void): void {
  // An `exit` step marks the end of an object's subtree, so `ancestors` holds exactly the current path.
  type Step = SubschemaVisit | { exit: object };
  const stack: Step[] = [{ schema: root, pointer: '', propertyPath: [] }];
  const ancestors = new Set<object>();
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ('exit' in step) {
      ancestors.delete(step.exit);
      continue;
    }
    if (ancestors.has(step.schema)) continue;
    visit(step);
    ancestors.add(step.schema);
    stack.push({ exit: step.schema });
    // Pushed in reverse so that popping yields the children in document order.
    for (const child of childrenOf(step).reverse()) stack.push(child);
  }
}

function childrenOf({ schema, pointer: parent, propertyPath: parentPath }: SubschemaVisit): SubschemaVisit[] {
  const children: SubschemaVisit[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(keyword)) continue;
    const pointer = appendPointer(parent, keyword);
    if (NAMED_SUBSCHEMAS.has(keyword) && isJsonObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        if (!isJsonObject(child)) continue;
        const propertyPath =
          keyword === 'properties' && parentPath !== undefined ? [...parentPath, name] : undefined;
        children.push({ schema: child, pointer: appendPointer(pointer, name), propertyPath });
      }
    } else if (Array.isArray(value)) {
      value.forEach((child: unknown, index) => {
        if (isJsonObject(child))
          children.push({ schema: child, pointer: appendPointer(pointer, index), propertyPath: undefined });
      });
    } else if (isJsonObject(value)) {
      children.push({ schema: value, pointer, propertyPath: undefined });
    }
  }
  return children;
}
