// schema/toolwire.schema.json against the config readers: the committed file is what the readers describe, and for
// every key at every level the schema (through Ajv) and `toolwire serve`'s reader give the same verdict on good
// values, values at and past each bound, wrong types and unknown keys; the flags cover the whole "http" section.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { unknownKeys } from '../src/cli/config-file.js';
import { configSchema } from '../src/tools/config-schema.js';
import { readServeConfig } from '../src/tools/serve-config.js';
import { flagOf } from '../src/tools/http-config.js';
import { runCli } from './fixtures/serve/harness.js';

type Schema = { [keyword: string]: unknown };

const SCHEMA_FILE = new URL('../schema/toolwire.schema.json', import.meta.url);
const committed = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Schema;
const validate = new Ajv({ strict: true, strictRequired: false, allErrors: true }).compile(committed);

/**
 * Keys whose cases are not generated here: the client commands read mcpServers, "policy" (lists of objects,
 * keys required together) has its own agreement test in policy-config.test.ts, and "gateway" in gateway-config.test.ts.
 */
const NOT_READ_BY_SERVE = new Set(['mcpServers', 'policy', 'gateway']);

/** The reader's verdict: undefined when it accepts the config, else its message. */
function readerSays(config: unknown): string | undefined {
  try {
    readServeConfig(config, '/srv/toolwire/toolwire.json');
    return undefined;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ConfigError') throw error;
    return error.message;
  }
}

/** `{a: {b: value}}` for the path ["a", "b"]. */
const nest = (path: readonly string[], value: unknown): unknown =>
  path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);

interface Verdict {
  config: unknown;
  valid: boolean;
}

const typeOf = (schema: Schema): string | undefined =>
  typeof schema.type === 'string' ? schema.type : undefined;

/** Good and bad values of one leaf, judged from its schema. */
function valuesFor(schema: Schema): { good: unknown[]; bad: unknown[] } {
  const good: unknown[] = [];
  const bad: unknown[] = [];
  if (schema.default !== undefined) good.push(schema.default);
  switch (typeOf(schema)) {
    case 'integer': {
      const min = schema.minimum as number;
      const max = schema.maximum as number;
      good.push(min, max);
      bad.push(min - 1, max + 1, min + 0.5, String(min), null);
      break;
    }
    case 'boolean':
      good.push(true, false);
      bad.push('true', 0, null);
      break;
    case 'array': {
      if (schema.default === undefined) good.push([]);
      const items = schema.items as Schema;
      bad.push('x', [5], {});
      if (Array.isArray(items.enum)) bad.push(['NOT-A-CHOICE']);
      if (typeof schema.maxItems === 'number') {
        const sample = (schema.default as unknown[] | undefined)?.[0] ?? 'x';
        bad.push(Array.from({ length: schema.maxItems + 1 }, () => sample));
      }
      if (schema.minItems === 1) bad.push([]);
      break;
    }
    case 'string':
      bad.push(5, null, ['x']);
      break;
    case 'object':
      // A map (timeouts) or an object that takes no keys (the calc pack).
      good.push({});
      bad.push([], 'x', { '': 1 }, { a_key: 'x' });
      break;
    default:
      assert.fail(`a leaf of unknown type: ${JSON.stringify(schema)}`);
  }
  return { good, bad };
}

/** Every case: each leaf's values, and an unknown key in every object of the schema. */
function cases(schema: Schema, path: string[] = []): Array<Verdict & { name: string }> {
  const out: Array<Verdict & { name: string }> = [];
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties === undefined) {
    const { good, bad } = valuesFor(schema);
    const name = path.join('.');
    for (const value of good) out.push({ name, config: nest(path, value), valid: true });
    for (const value of bad) out.push({ name, config: nest(path, value), valid: false });
    return out;
  }
  out.push({
    name: `${path.join('.') || 'the file'}: an unknown key`,
    config: nest(path, { zzz: 1 }),
    valid: false,
  });
  out.push({ name: `${path.join('.') || 'the file'}: empty`, config: nest(path, {}), valid: true });
  if (path.length > 0) out.push({ name: path.join('.'), config: nest(path, 'x'), valid: false });
  for (const [key, child] of Object.entries(properties)) {
    if (path.length === 0 && NOT_READ_BY_SERVE.has(key)) continue;
    out.push(...cases(child, [...path, key]));
  }
  return out;
}

/** True when `message` refuses the key at `path` because of its relation to a sibling key, or the reverse. */
function relative(path: string, message: string): boolean {
  const match = /^(\S+) \(-?\d+\) must be at least (\S+) \(-?\d+(?:, its default)?\)/.exec(message);
  if (match === null) return false;
  const [a, b] = [match[1] as string, match[2] as string];
  const parent = (key: string): string => key.slice(0, key.lastIndexOf('.'));
  return (a === path || b === path) && parent(a) === parent(b) && a !== b;
}

describe('schema/toolwire.schema.json', () => {
  it('is what the config readers describe (run `npm run schema` after changing a reader)', () => {
    assert.deepEqual(committed, configSchema());
  });

  it('and the reader of `toolwire serve` agree on every key, bound, type and unknown key', () => {
    const all = cases(committed);
    assert.ok(all.length > 250, `only ${all.length} cases`);
    const disagreements = all.flatMap(({ name, config, valid }) => {
      const reader = readerSays(config);
      // A bound relative to another key ("A (n) must be at least B (m)") is beyond JSON Schema draft-07: the schema
      // accepts each value alone, and the reader refuses it against the other key's default. That is the one
      // disagreement allowed, and only between two keys of the same object.
      if (valid && reader !== undefined && relative(name, reader)) return [];
      const schema = validate(config);
      const expected = valid ? 'accepts' : 'refuses';
      const problems: string[] = [];
      if ((reader === undefined) !== valid) {
        problems.push(
          `${name}: the reader ${reader === undefined ? 'accepts' : `refuses (${reader})`} ${JSON.stringify(config)}, expected it ${expected}`,
        );
      }
      if (schema !== valid)
        problems.push(`${name}: the schema ${schema ? 'accepts' : 'refuses'} ${JSON.stringify(config)}`);
      return problems;
    });
    assert.deepEqual(disagreements, []);
  });

  it('lists, in every object, the keys the reader names when it refuses an unknown one', () => {
    const walk = (schema: Schema, path: string[]): string[] => {
      const properties = schema.properties as Record<string, Schema> | undefined;
      if (properties === undefined || (path.length === 1 && NOT_READ_BY_SERVE.has(path[0] as string)))
        return [];
      const message = readerSays(nest(path, { zzz: 1 })) ?? '';
      const listed = /; allowed keys: (.+)$/.exec(message)?.[1];
      const keys = Object.keys(properties).join(', ');
      return [
        ...(listed === keys
          ? []
          : [`${path.join('.') || 'the file'}: the reader allows ${listed}, the schema ${keys}`]),
        ...Object.entries(properties).flatMap(([key, child]) => walk(child, [...path, key])),
      ];
    };
    assert.deepEqual(walk(committed, []), []);
  });

  it('describes each "mcpServers" entry with exactly the keys the client commands read', () => {
    const entry = (committed.properties as Record<string, Schema>).mcpServers?.additionalProperties as Schema;
    const keys = Object.keys(entry.properties as object);
    assert.deepEqual(unknownKeys('s', 'toolwire.json', Object.fromEntries(keys.map((key) => [key, 1]))), []);
    // The reader names the keys it reads when it meets one it does not.
    const [warning] = unknownKeys('s', 'toolwire.json', { zzz: 1 });
    const read = / an entry has (.+)$/.exec(warning ?? '')?.[1]?.split(', ') ?? [];
    assert.ok(read.length > 0, warning);
    assert.deepEqual(
      read.filter((key) => !keys.includes(key)),
      [],
    );
    assert.equal(validate({ mcpServers: { a: { command: 'node', args: ['x.js'], trusted: true } } }), true);
    assert.equal(
      validate({ mcpServers: { a: { url: 'https://example.com/mcp', headers: { A: 'b' } } } }),
      true,
    );
    assert.equal(validate({ mcpServers: { a: { args: ['x.js'] } } }), false, 'neither command nor url');
    assert.equal(validate({ mcpServers: { a: { comand: 'node' } } }), false, 'a typo');
  });

  it('has a `toolwire serve` flag for every setting of "http"', async () => {
    const http = (committed.properties as Record<string, Schema>).http as Schema;
    const paths = Object.entries(http.properties as Record<string, Schema>).flatMap(([key, child]) =>
      child.properties === undefined
        ? [key]
        : Object.keys(child.properties as Schema).map((inner) => `${key}.${inner}`),
    );
    const help = await runCli(['serve', '--help']);
    assert.equal(help.code, 0, help.stderr);
    const flags = [...help.stdout.matchAll(/^ {2}(--[a-z-]+) </gm)].map((match) => match[1]);
    assert.deepEqual(
      paths.map(flagOf).filter((flag) => !flags.includes(flag)),
      [],
    );
    assert.ok(paths.includes('allowedHosts') && paths.includes('legacy.maxSessions'), paths.join(', '));
  });
});
