// The providers' documented rules for tool definitions, checked on what would be sent. Written from the docs
// (OpenAI "Structured Outputs: Supported schemas" and function-calling name rules; Anthropic "Define tools",
// "Strict tool use" and structured outputs "JSON Schema limitations"), independently of the compiler, which it
// checks: every compiled definition passes here before it is handed out.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import {
  ANTHROPIC_KEY_PATTERN,
  ANTHROPIC_STRICT_FORMATS,
  ANTHROPIC_STRICT_LIMITS,
  OPENAI_STRICT_FORMATS,
  OPENAI_STRICT_LIMITS,
  type Provider,
} from './profiles.js';

export interface RuleViolation {
  /** A short stable id, e.g. `openai-strict/required`. */
  rule: string;
  /** JSON Pointer inside the schema ("" for the root), or the tool name for request-level rules. */
  at: string;
  message: string;
}

/** A tool as a provider receives it, whatever the API's envelope. */
export interface ToolUnderTest {
  name: string;
  schema: JsonObject;
  strict: boolean;
}

const NAME_RULE: Record<Provider, RegExp> = {
  openai: /^[a-zA-Z0-9_-]{1,64}$/,
  anthropic: /^[a-zA-Z0-9_-]{1,128}$/,
};

// Keywords the docs list as supported in strict mode; `$ref`/`$defs`/`definitions` are supported by both (local).
const REFS = ['$ref', '$defs', 'definitions'];
const OPENAI_STRICT_KEYWORDS = new Set([
  ...REFS,
  ...['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf'],
  ...['description', 'title', 'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum'],
  ...['minimum', 'exclusiveMinimum', 'minItems', 'maxItems'],
]);
const ANTHROPIC_STRICT_KEYWORDS = new Set([
  ...REFS,
  ...['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'allOf'],
  ...['description', 'title', 'default', 'pattern', 'format', 'minItems'],
]);
const NAMED = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
const DATA = new Set(['enum', 'const', 'default', 'examples']);

interface Visit {
  node: JsonObject;
  pointer: string;
  /** Objects and arrays from the root (1) down to this node. */
  depth: number;
}

/** Every subschema with its pointer and nesting depth (properties, items and additionalProperties go one deeper). */
function visitAll(root: JsonObject, visit: (entry: Visit) => void): void {
  const stack: Visit[] = [{ node: root, pointer: '', depth: 1 }];
  let guard = 0;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if (++guard > 100_000) break; // a schema this large fails the size limits anyway
    visit(entry);
    const { node, pointer, depth } = entry;
    const children: Visit[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key)) continue;
      const deeper =
        key === 'properties' || key === 'items' || key === 'additionalProperties' ? depth + 1 : depth;
      if (NAMED.has(key) && isJsonObject(value)) {
        for (const [name, child] of Object.entries(value)) {
          if (isJsonObject(child))
            children.push({ node: child, pointer: `${pointer}/${key}/${name}`, depth: deeper });
        }
      } else if (Array.isArray(value)) {
        value.forEach((child, index) => {
          if (isJsonObject(child))
            children.push({ node: child, pointer: `${pointer}/${key}/${index}`, depth: deeper });
        });
      } else if (isJsonObject(value)) {
        children.push({ node: value, pointer: `${pointer}/${key}`, depth: deeper });
      }
    }
    // Reversed, so that popping visits them in document order (violations read top to bottom).
    stack.push(...children.reverse());
  }
}

const typeList = (node: JsonObject): string[] =>
  typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type.map(String) : [];
const isObjectNode = (node: JsonObject): boolean =>
  typeList(node).includes('object') || (node.type === undefined && isJsonObject(node.properties));

/** Optional properties and union-typed properties (anyOf, or a type list): Anthropic counts both per request. */
export function strictBudgetOf(schema: JsonObject): { optional: number; unions: number } {
  let optional = 0;
  let unions = 0;
  visitAll(schema, ({ node }) => {
    if (isJsonObject(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const [key, child] of Object.entries(node.properties)) {
        if (!required.has(key)) optional++;
        if (isJsonObject(child) && (Array.isArray(child.anyOf) || typeList(child).length > 1)) unions++;
      }
    }
  });
  return { optional, unions };
}

/** The rules one tool definition breaks, for a provider (strict rules when the tool is sent strict). */
export function checkTool(tool: ToolUnderTest, provider: Provider): RuleViolation[] {
  const out: RuleViolation[] = [];
  const add = (rule: string, at: string, message: string): void => void out.push({ rule, at, message });
  if (!NAME_RULE[provider].test(tool.name)) {
    add(`${provider}/name`, tool.name, `the name must match ${NAME_RULE[provider].source}`);
  }
  const root = tool.schema;
  if (root.type !== 'object') add('root/object', '', 'the root schema must have type "object"');
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    if (root[keyword] !== undefined) add('root/combinator', '', `${keyword} is not allowed at the root`);
  }
  const strictKeywords = provider === 'openai' ? OPENAI_STRICT_KEYWORDS : ANTHROPIC_STRICT_KEYWORDS;
  const formats = provider === 'openai' ? OPENAI_STRICT_FORMATS : ANTHROPIC_STRICT_FORMATS;
  const limits = OPENAI_STRICT_LIMITS;
  let properties = 0;
  let stringChars = 0;
  let enumValues = 0;
  let maxDepth = 0;
  visitAll(root, ({ node, pointer, depth }) => {
    const ref = node.$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#'))
        add('ref/external', pointer, `external $ref ${JSON.stringify(ref)} is not supported`);
      else if (tool.strict && (ref === '#' || pointer.startsWith(`${ref.slice(1)}/`))) {
        add('strict/recursion', pointer, 'recursive schemas are not supported in strict mode');
      }
    }
    if (provider === 'openai' && typeList(node).includes('array') && node.items === undefined) {
      add('openai/array-items', pointer, 'an array schema must have items');
    }
    if (provider === 'anthropic' && isJsonObject(node.properties)) {
      for (const key of Object.keys(node.properties)) {
        if (!ANTHROPIC_KEY_PATTERN.test(key)) {
          add(
            'anthropic/property-key',
            `${pointer}/properties/${key}`,
            `property keys must match ${ANTHROPIC_KEY_PATTERN.source}`,
          );
        }
      }
    }
    if (!tool.strict) return;
    maxDepth = Math.max(maxDepth, depth);
    for (const keyword of Object.keys(node)) {
      if (!strictKeywords.has(keyword))
        add(`${provider}-strict/keyword`, pointer, `${keyword} is not supported in strict mode`);
    }
    if (typeof node.format === 'string' && !formats.has(node.format)) {
      add(`${provider}-strict/format`, pointer, `format "${node.format}" is not supported in strict mode`);
    }
    if (isObjectNode(node)) {
      if (node.additionalProperties !== false) {
        add(
          `${provider}-strict/additional-properties`,
          pointer,
          'every object must set additionalProperties: false',
        );
      }
      if (provider === 'openai') {
        if (!isJsonObject(node.properties))
          add('openai-strict/properties', pointer, 'an object schema must list properties');
        const required = new Set(Array.isArray(node.required) ? node.required : []);
        for (const key of Object.keys(isJsonObject(node.properties) ? node.properties : {})) {
          if (!required.has(key))
            add('openai-strict/required', `${pointer}/properties/${key}`, 'every property must be required');
        }
      }
    }
    if (
      provider === 'openai' &&
      node.type === undefined &&
      node.anyOf === undefined &&
      node.enum === undefined &&
      node.const === undefined &&
      node.$ref === undefined
    ) {
      add('openai-strict/type', pointer, 'every schema must have a type (or anyOf, enum or const)');
    }
    if (provider === 'anthropic') {
      if (typeof node.minItems === 'number' && node.minItems > 1)
        add('anthropic-strict/min-items', pointer, 'minItems may only be 0 or 1');
      if (Array.isArray(node.enum) && node.enum.some((v) => typeof v === 'object' && v !== null)) {
        add('anthropic-strict/enum', pointer, 'enum values must be primitives');
      }
    }
    if (isJsonObject(node.properties)) {
      for (const key of Object.keys(node.properties)) {
        properties++;
        stringChars += key.length;
      }
    }
    for (const group of ['$defs', 'definitions']) {
      if (isJsonObject(node[group])) for (const name of Object.keys(node[group])) stringChars += name.length;
    }
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      const chars = node.enum.reduce<number>((sum, v) => sum + (typeof v === 'string' ? v.length : 0), 0);
      stringChars += chars;
      if (
        provider === 'openai' &&
        node.enum.length > limits.largeEnumThreshold &&
        chars > limits.maxLargeEnumChars
      ) {
        add(
          'openai-strict/large-enum',
          pointer,
          `an enum of more than ${limits.largeEnumThreshold} values may hold at most ${limits.maxLargeEnumChars} characters`,
        );
      }
    }
    if (typeof node.const === 'string') stringChars += node.const.length;
  });
  if (tool.strict && provider === 'openai') {
    if (maxDepth > limits.maxDepth)
      add(
        'openai-strict/depth',
        '',
        `at most ${limits.maxDepth} levels of nesting (this schema has ${maxDepth})`,
      );
    if (properties > limits.maxProperties)
      add(
        'openai-strict/properties-total',
        '',
        `at most ${limits.maxProperties} object properties in total (${properties})`,
      );
    if (stringChars > limits.maxStringChars)
      add(
        'openai-strict/string-total',
        '',
        `at most ${limits.maxStringChars} characters of names and enum/const values (${stringChars})`,
      );
    if (enumValues > limits.maxEnumValues)
      add(
        'openai-strict/enum-total',
        '',
        `at most ${limits.maxEnumValues} enum values in total (${enumValues})`,
      );
  }
  return out;
}

/** The request-level rules for a whole tool list: unique names, and Anthropic's strict-tool budget. */
export function checkToolSet(tools: readonly ToolUnderTest[], provider: Provider): RuleViolation[] {
  const out = tools.flatMap((tool) =>
    checkTool(tool, provider).map((v) => ({ ...v, at: `${tool.name}: ${v.at}` })),
  );
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name))
      out.push({ rule: 'names/unique', at: tool.name, message: 'tool names must be unique' });
    seen.add(tool.name);
  }
  if (provider === 'anthropic') {
    const strict = tools.filter((tool) => tool.strict);
    const budget = strict.map((tool) => strictBudgetOf(tool.schema));
    const optional = budget.reduce((sum, b) => sum + b.optional, 0);
    const unions = budget.reduce((sum, b) => sum + b.unions, 0);
    const limits = ANTHROPIC_STRICT_LIMITS;
    if (strict.length > limits.maxStrictTools)
      out.push({
        rule: 'anthropic-strict/tools',
        at: '',
        message: `at most ${limits.maxStrictTools} strict tools per request (${strict.length})`,
      });
    if (optional > limits.maxOptionalParameters)
      out.push({
        rule: 'anthropic-strict/optional',
        at: '',
        message: `at most ${limits.maxOptionalParameters} optional parameters across strict tools (${optional})`,
      });
    if (unions > limits.maxUnionParameters)
      out.push({
        rule: 'anthropic-strict/unions',
        at: '',
        message: `at most ${limits.maxUnionParameters} union-typed parameters across strict tools (${unions})`,
      });
  }
  return out;
}
