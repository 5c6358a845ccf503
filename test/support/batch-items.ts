// fast-check generators of JSON-RPC batch items (threat A7), each with the entry the batch answer must hold for it.

import fc from 'fast-check';

/** One batch answer entry as it should arrive: `id` is null when the item's own id could not be read. */
export interface Entry {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** An item of a batch, and the entry it gets (undefined: notifications and responses get none). */
export interface Item {
  value: unknown;
  entry: Entry | undefined;
}

/** A batch whose request ids are unique, and the entries of its answer (in no particular order). */
export interface GeneratedBatch {
  items: unknown[];
  entries: Entry[];
}

const invalid = (message: string): Entry => ({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });
export const NOT_AN_OBJECT = invalid('Invalid Request: a JSON-RPC message must be a JSON object');
const NESTED = invalid('Invalid Request: batches cannot be nested');
const BAD_ERROR_ID = invalid(
  'Invalid Request: the "id" of an error response must be a string, an integer or null',
);
const BAD_RESULT_ID = invalid('Invalid Request: a response needs a string or integer "id"');
const NULL_ID = invalid('Invalid Request: "id" must be a string or an integer (null is not allowed)');
const NOT_2_0 = invalid('Invalid Request: "jsonrpc" must be exactly "2.0"');

/** The handler of tool "later" (answers after a microtask, so that batches collect out of order). */
export const LATER_TEXT = 'done';

/** A request given its (unique) id, and the entry answering it. */
type RequestTemplate = (id: string | number) => Item;

const requestTemplates: fc.Arbitrary<RequestTemplate> = fc.constantFrom<RequestTemplate>(
  (id) => ({ value: { jsonrpc: '2.0', id, method: 'ping' }, entry: { jsonrpc: '2.0', id, result: {} } }),
  (id) => ({
    value: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'later' } },
    entry: { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: LATER_TEXT }] } },
  }),
  (id) => ({
    value: { jsonrpc: '2.0', id, method: 'no/such/method' },
    entry: { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found: no/such/method' } },
  }),
  (id) => ({
    value: { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-03-26' } },
    entry: {
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: 'Invalid Request: initialize must not be part of a batch' },
    },
  }),
  (id) => ({
    value: { jsonrpc: '1.0', id, method: 'ping' },
    entry: {
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be exactly "2.0"' },
    },
  }),
);

/** Items that are not answered: notifications, and responses to nothing the server asked. */
const silent: fc.Arbitrary<Item> = fc
  .oneof(
    fc.constant({ jsonrpc: '2.0', method: 'notifications/whatever' }),
    fc.constant({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nobody' } }),
    fc.constant({ jsonrpc: '2.0', method: 'notifications/progress', params: [1] }),
    fc.oneof(fc.string(), fc.integer()).map((id) => ({ jsonrpc: '2.0', id, result: {} })),
    fc.constant({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }),
    fc.constant({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }),
  )
  .map((value) => ({ value, entry: undefined }));

/** JSON text a client might hope to smuggle: it must stay a string. */
const messageText: fc.Arbitrary<string> = fc.oneof(
  fc.constant('{"jsonrpc":"2.0","method":"notifications/initialized"}'),
  fc.constant('{"jsonrpc":"2.0","id":"smuggled","method":"tools/call","params":{"name":"later"}}'),
  fc.constant('[{"jsonrpc":"2.0","id":"inner","method":"ping"}]'),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
);

/** An id that is not a request id (a string or a safe integer) and not null. */
const unusableId: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant([1]),
  fc.constant({}),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isSafeInteger(n)),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
);

/** Items answered by -32600 with id null: every JSON type but an object, and objects whose id is unusable. */
const invalidItems: fc.Arbitrary<Item> = fc.oneof(
  fc
    .oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.string(),
      messageText,
    )
    .map((value) => ({ value, entry: NOT_AN_OBJECT })),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }).map((value) => ({ value, entry: NESTED })),
  unusableId.map((id) => ({
    value: { jsonrpc: '2.0', id, error: { code: -1, message: 'x' } },
    entry: BAD_ERROR_ID,
  })),
  fc
    .oneof(unusableId, fc.constant(null))
    .map((id) => ({ value: { jsonrpc: '2.0', id, result: {} }, entry: BAD_RESULT_ID })),
  fc.constant({ value: { jsonrpc: '2.0', id: null, method: 'ping' }, entry: NULL_ID }),
  fc.constant({ value: { method: 'ping' }, entry: NOT_2_0 }),
);

type Slot = { kind: 'request'; template: RequestTemplate } | { kind: 'item'; item: Item };

/** Non-empty batches mixing requests (unique ids, numbers and strings), notifications, responses and invalid items. */
export const batches: fc.Arbitrary<GeneratedBatch> = fc
  .array(
    fc.oneof(
      requestTemplates.map((template): Slot => ({ kind: 'request', template })),
      silent.map((item): Slot => ({ kind: 'item', item })),
      invalidItems.map((item): Slot => ({ kind: 'item', item })),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((slots) => {
    const items: unknown[] = [];
    const entries: Entry[] = [];
    slots.forEach((slot, index) => {
      const item = slot.kind === 'request' ? slot.template(index % 2 === 0 ? index : `r${index}`) : slot.item;
      items.push(item.value);
      if (item.entry !== undefined) entries.push(item.entry);
    });
    return { items, entries };
  });

/** JSON text with object keys sorted, so that entries compare and sort whatever order their keys came in. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>; // a parsed JSON object
    return (
      '{' +
      Object.keys(record)
        .sort()
        .map((key) => JSON.stringify(key) + ':' + canonical(record[key]))
        .join(',') +
      '}'
    );
  }
  return JSON.stringify(value);
}

/** The entries of a batch answer in a fixed order (entries are matched by content, ids included). */
export const sortEntries = (entries: readonly unknown[]): unknown[] =>
  [...entries].sort((a, b) => canonical(a).localeCompare(canonical(b)));

/** True when every message in a server's output text (single or batch) has no id, or a string, number or null. */
export function idsAreUsable(wireText: string): boolean {
  const parsed: unknown = JSON.parse(wireText);
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return messages.every((message) => {
    if (typeof message !== 'object' || message === null || !('id' in message)) return true;
    const id = message.id;
    return id === null || typeof id === 'string' || typeof id === 'number';
  });
}

/** A single message of any shape (request, notification, result, error, junk) whose id may be any JSON value. */
export const anyMessage: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0'),
    id: fc.option(fc.oneof(unusableId, fc.jsonValue({ maxDepth: 2 }), fc.integer(), fc.string()), {
      nil: undefined,
    }),
    body: fc.constantFrom<object>(
      { method: 'ping' },
      { method: 'tools/list' },
      { method: 'no/such/method' },
      { method: '' },
      { result: {} },
      { result: 5 },
      { error: { code: -1, message: 'x' } },
      { error: { code: -1, message: 'x' } }, // twice: an error response is where ids used to be echoed
      { error: 'x' },
      {},
    ),
  })
  .map(({ jsonrpc, id, body }) => (id === undefined ? { jsonrpc, ...body } : { jsonrpc, id, ...body }));

/** The cases that broke, tried first by every id property before the generated ones. */
export const ECHOED_BEFORE: Array<[Record<string, unknown>]> = [
  [{ jsonrpc: '2.0', id: [1], error: { code: -1, message: 'x' } }],
  [{ jsonrpc: '2.0', id: {}, error: { code: -1, message: 'x' } }],
  // Not a server defect but one of the property's own: JSON writes -0 as 0, so that is the id answered.
  [{ jsonrpc: '2.0', id: -0, method: 'ping' }],
];

/** The batches that broke (each string was decoded again), tried first by every batch property. */
export const BATCHES_THAT_BROKE: Array<[GeneratedBatch]> = [
  ['{"jsonrpc":"2.0","method":"notifications/initialized"}'],
  ['{"jsonrpc":"2.0","id":"smuggled","method":"tools/call","params":{"name":"later"}}'],
  ['[{"jsonrpc":"2.0","id":"inner","method":"ping"}]'],
].map((items) => [{ items, entries: [NOT_AN_OBJECT] }]);
