// Compiles one MCP inputSchema for one profile: $refs inlined, the root made a plain object (combinators moved to
// the description, or the root wrapped), then every node converted. Throws SchemaRefusal with the reason.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { Profile } from './profiles.js';
import { inlineRefs } from './refs.js';
import { SchemaRefusal } from './refusal.js';
import { COMBINATORS, typesOf } from './schema-keywords.js';
import { convertNode, mergeAllOf, type ConvertContext } from './schema-node.js';
import type { Shape } from './shape.js';

/** The key a wrapped root's arguments travel under. */
export const WRAP_KEY = 'input';

export interface CompiledInputSchema {
  schema: JsonObject;
  /** How to read the model's arguments back; undefined when they need no change. */
  shape: Shape | undefined;
  /** What was changed, in words, for the report. */
  changes: string[];
}

/** One alternative of a root anyOf/oneOf, said briefly: "path + content" for a required-keys branch, else JSON. */
function describeBranch(branch: unknown): string {
  if (
    isJsonObject(branch) &&
    Array.isArray(branch.required) &&
    Object.keys(branch).every((k) => k === 'required')
  ) {
    return branch.required.map(String).join(' + ');
  }
  const text = JSON.stringify(branch) ?? 'true';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function fixRoot(input: JsonObject, changes: string[]): { schema: JsonObject; unwrap?: string } {
  const s: JsonObject = { ...input };
  const types = typesOf(s);
  if (types.length > 1) {
    if (!types.includes('object'))
      throw new SchemaRefusal(`its root type is ${JSON.stringify(s.type)}, not an object`);
    s.type = 'object';
    changes.push(`narrowed the root type ${JSON.stringify(input.type)} to "object"`);
  } else if (types.length === 1 && types[0] !== 'object') {
    throw new SchemaRefusal(
      `its root type is ${JSON.stringify(s.type)}; MCP and every model API need an object`,
    );
  }
  if (Array.isArray(s.allOf) && mergeAllOf(s)) changes.push('merged the root allOf into one object');
  const present = COMBINATORS.filter((keyword) => s[keyword] !== undefined);
  const hasProperties = isJsonObject(s.properties) && Object.keys(s.properties).length > 0;
  if (present.length > 0 && !hasProperties) {
    // Nothing to keep at the root but the alternatives themselves: they become one argument the model fills in.
    const inner: JsonObject = { ...s };
    delete inner.description;
    delete inner.title;
    if (inner.type === 'object' && present.some((k) => k === 'anyOf' || k === 'oneOf')) delete inner.type;
    const wrapped: JsonObject = {
      type: 'object',
      properties: { [WRAP_KEY]: inner },
      required: [WRAP_KEY],
      additionalProperties: false,
    };
    if (typeof s.description === 'string') wrapped.description = s.description;
    changes.push(
      `wrapped the root (${present.join(', ')} at the root, which model APIs refuse) as one argument "${WRAP_KEY}"`,
    );
    return { schema: wrapped, unwrap: WRAP_KEY };
  }
  if (present.length > 0) {
    const notes: string[] = [];
    for (const keyword of present) {
      const value = s[keyword];
      notes.push(
        (keyword === 'anyOf' || keyword === 'oneOf') && Array.isArray(value)
          ? `give ${keyword === 'oneOf' ? 'exactly one' : 'at least one'} of: ${value.map(describeBranch).join(' | ')}`
          : `${keyword}: ${(JSON.stringify(value) ?? '').slice(0, 160)}`,
      );
      delete s[keyword];
    }
    const own = typeof s.description === 'string' && s.description !== '' ? `${s.description} ` : '';
    s.description = `${own}(${notes.join('; ')})`;
    changes.push(`moved ${present.join(', ')} at the root into the description (the server still checks it)`);
  }
  if (s.type === undefined) {
    s.type = 'object';
    changes.push('gave the root "type": "object" (it had no type)');
  }
  return { schema: s };
}

export function compileInputSchema(original: JsonObject, profile: Profile): CompiledInputSchema {
  const changes: string[] = [];
  const counted = { refs: 0 };
  const inlined = inlineRefs(original, counted);
  if (counted.refs > 0) changes.push(`inlined ${counted.refs} $ref${counted.refs === 1 ? '' : 's'}`);
  const root = fixRoot(inlined, changes);
  const ctx: ConvertContext = { profile, changes, closed: 0, nulled: 0 };
  const converted = convertNode(root.schema, '', ctx);
  const schema = converted.schema as JsonObject; // an object in, an object out
  if (ctx.nulled > 0) {
    const n = ctx.nulled;
    changes.push(
      `made ${n} optional propert${n === 1 ? 'y' : 'ies'} required and nullable (null means "not given")`,
    );
  }
  if (ctx.closed > 0) {
    changes.push(`closed ${ctx.closed} object${ctx.closed === 1 ? '' : 's'} (additionalProperties: false)`);
  }
  let shape = converted.shape;
  if (root.unwrap !== undefined) shape = { ...(shape ?? {}), unwrap: root.unwrap };
  return { schema, shape, changes };
}
