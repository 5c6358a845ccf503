// Every string of a tool definition that a model reads, with its place and its part (prose, parameter name, other
// key, data), found by one iterative walk with a budget. Shared by scanTool (reads) and stripTool (rewrites prose).

import { isJsonObject } from '../../jsonrpc/index.js';
import type { Meter } from '../../schema/pattern/index.js';
import { pathStep } from './visible.js';

/**
 * prose: a description, title or $comment (annotations a tool author writes for readers: safe to rewrite);
 * parameter: a key of `properties` (the upstream expects it exactly); key: any other object key;
 * data: every other string (enum, const, default, examples, pattern, type…: values the schema means exactly).
 */
export type TextPart = 'name' | 'prose' | 'parameter' | 'key' | 'data';

export interface TextVisit {
  text: string;
  part: TextPart;
  /** `description`, `inputSchema.properties.path.description`, `inputSchema.properties.path` (a parameter name). */
  where: string;
  /** Writes a new value in place of this string (prose only; the walk's object is then changed). */
  replace(text: string): void;
}

const PROSE = new Set(['title', 'description', '$comment']);
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

type Context = 'schema' | 'names' | 'properties' | 'data';
interface Step {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  where: string;
  context: Context;
}

/** Visits the name, title, description and annotations.title, then every string and key of both schemas. */
export function forEachText(
  tool: Record<string, unknown>,
  meter: Meter,
  visit: (entry: TextVisit) => void,
): void {
  const stack: Step[] = [];
  for (const key of ['outputSchema', 'inputSchema'])
    if (isJsonObject(tool[key])) stack.push({ holder: tool, key, where: key, context: 'schema' });
  const top = (holder: Record<string, unknown>, key: string, where: string, part: TextPart): void => {
    const text = holder[key];
    if (typeof text === 'string') visit({ text, part, where, replace: (value) => (holder[key] = value) });
  };
  top(tool, 'name', 'name', 'name');
  top(tool, 'title', 'title', 'prose');
  top(tool, 'description', 'description', 'prose');
  if (isJsonObject(tool.annotations)) top(tool.annotations, 'title', 'annotations.title', 'prose');

  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    meter.spend();
    const { holder, key, where, context } = step;
    const value: unknown = Array.isArray(holder) ? holder[key as number] : holder[key as string];
    if (typeof value === 'string') {
      const part: TextPart =
        context === 'schema' && typeof key === 'string' && PROSE.has(key) ? 'prose' : 'data';
      visit({ text: value, part, where, replace: (text) => setIn(holder, key, text) });
    } else if (Array.isArray(value)) {
      const inner: Context = context === 'data' ? 'data' : 'schema';
      for (let index = value.length - 1; index >= 0; index--)
        stack.push({ holder: value, key: index, where: where + pathStep(index), context: inner });
    } else if (isJsonObject(value)) {
      const names = Object.keys(value);
      const part: TextPart = context === 'properties' ? 'parameter' : context === 'data' ? 'data' : 'key';
      for (const name of names) {
        meter.spend();
        visit({ text: name, part, where: where + pathStep(name), replace: () => undefined });
      }
      // Pushed in reverse so that popping yields document order.
      for (let index = names.length - 1; index >= 0; index--) {
        const name = names[index] ?? '';
        stack.push({
          holder: value,
          key: name,
          where: where + pathStep(name),
          context: childContext(context, name),
        });
      }
    }
  }
}

/** How the value under `name` is read, given how its object is read. */
function childContext(context: Context, name: string): Context {
  if (context === 'data') return 'data';
  if (context === 'names' || context === 'properties') return 'schema'; // a named subschema
  if (name === 'properties') return 'properties';
  if (NAME_MAPS.has(name)) return 'names';
  return DATA_KEYWORDS.has(name) ? 'data' : 'schema';
}

function setIn(holder: Record<string, unknown> | unknown[], key: string | number, value: string): void {
  if (Array.isArray(holder)) holder[key as number] = value;
  else holder[key as string] = value;
}
