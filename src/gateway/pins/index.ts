// Tool pinning (threat C2, rug pulls): definitions pinned on first use by their canonical digest, a changed one
// quarantined with a readable diff until approved; stores in memory and in SQLite.

export { definitionDigest, pinnedDefinition, prettyDefinition } from './digest.js';
export { unifiedDiff, type DiffOptions } from './diff.js';
export { memoryPinStore } from './memory-store.js';
export { openPinStore, PIN_SCHEMA_VERSION, type PinStoreOptions } from './sqlite-store.js';
export { PinBook, pinName, recordDiff, type Admission, type PinBookOptions } from './pin-book.js';
export { DEFAULT_PIN_STORE, pinStorePath } from './config.js';
export {
  MAX_PIN_RECORDS,
  PinError,
  type PinRecord,
  type PinState,
  type PinStore,
  type PinVerdict,
} from './types.js';
