// A JSON-RPC batch split into its items, each a decoded value judged on its own (never text to decode again).

import { ErrorCode } from './codes.js';
import { classifyMessage, type SingleMessage } from './message.js';
import { RpcError } from './rpc-error.js';

export interface Batch {
  /** The items in the order they came, each already judged: arrays inside a batch are invalid items. */
  readonly items: readonly SingleMessage[];
  /** How many items get an entry in the answer: requests and invalid items (notifications and responses get none). */
  readonly answers: number;
}

const nested = (): SingleMessage => ({
  kind: 'invalid',
  id: undefined,
  error: new RpcError(ErrorCode.InvalidRequest, 'Invalid Request: batches cannot be nested'),
});

/** Judges every item of a batch once; the transport and the connection both read this one verdict. */
export function splitBatch(values: readonly unknown[]): Batch {
  const items: SingleMessage[] = [];
  let answers = 0;
  for (const value of values) {
    const item = Array.isArray(value) ? nested() : classifyMessage(value);
    if (item.kind === 'request' || item.kind === 'invalid') answers++;
    items.push(item);
  }
  return { items, answers };
}
