// The JSON Schema of toolwire.json, built from what the config readers read (recordReaders), never written by hand:
// `npm run schema` writes it to schema/toolwire.schema.json, and a test fails when that file is out of date.

import { recordReaders, type JsonSchema, type RecordedReader } from './config-reader.js';
import { readServeConfig } from './serve-config.js';

const DRAFT = 'http://json-schema.org/draft-07/schema#';

/** The schema of the object a reader read, with each key's field, section or delegated parser's reader. */
function objectSchema(path: string, readers: readonly RecordedReader[]): JsonSchema {
  const reader = readers.find((candidate) => candidate.path === path);
  // A delegated value whose parser uses no reader (the calc pack) is an object that takes no keys; the test that
  // holds schema and readers to the same answers checks that the parser does refuse every key.
  if (reader === undefined)
    return { type: 'object', additionalProperties: false, description: 'Takes no settings.' };
  const properties: Record<string, JsonSchema> = {};
  for (const key of reader.allowedKeys) {
    const childPath = path === '' ? key : `${path}.${key}`;
    let schema: JsonSchema;
    const field = reader.fields.get(key);
    if (field !== undefined) schema = { ...field };
    else if (reader.delegated.has(key)) schema = objectSchema(childPath, readers);
    else
      throw new Error(
        `config-schema: "${childPath}" is allowed but nothing reads it, so it cannot be described`,
      );
    if (reader.derived.has(key)) delete schema.default;
    const text = reader.descriptions.get(key);
    const auto = typeof schema.description === 'string' ? schema.description : undefined;
    if (text !== undefined) schema.description = auto === undefined ? text : `${text} ${auto}`;
    properties[key] = schema;
  }
  return { type: 'object', additionalProperties: false, properties };
}

/** The whole schema, as it is written to schema/toolwire.schema.json. */
export function configSchema(): JsonSchema {
  const readers = recordReaders(() => readServeConfig(undefined, '/'));
  return {
    $schema: DRAFT,
    title: 'toolwire.json',
    description:
      'Configuration of toolwire: the ready server (`toolwire serve --config`) and the servers the client commands reach by name (mcpServers).',
    ...objectSchema('', readers),
  };
}
