// Tool pinning (threat C2, rug pulls): definitions pinned on first use by their canonical digest, a changed one
// quarantined with a readable diff until approved; stores in memory and in SQLite. Server pinning (threat C8): each
// upstream's launch definition pinned the same way, a new or changed one held (not started) until approved, and
// supply-chain findings for commands that fetch code without pinning it.

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
export {
  launchDefinition,
  launchDigest,
  prettyLaunch,
  secretHash,
  type HttpLaunch,
  type LaunchDefinition,
  type LaunchOptions,
  type StdioLaunch,
} from './launch-definition.js';
export { describeLaunch, launchLine } from './launch-text.js';
export { shellLine, shellWord, visibleLine } from './visible.js';
export {
  MAX_SERVER_RECORDS,
  type ServerPinRecord,
  type ServerPinState,
  type ServerPinStore,
} from './server-types.js';
export {
  heldWhy,
  serverDiff,
  ServerPinBook,
  type ServerPinBookOptions,
  type ServerVerdict,
} from './server-pin-book.js';
export { supplyChainFindings, type SupplyChainOptions } from './supply-chain.js';
export { imageProblem } from './supply-docker.js';
export { npmSpecProblem } from './supply-npm.js';
export { pythonSpecProblem } from './supply-python.js';
export {
  admitServer,
  admitServers,
  findingLine,
  type AdmitOptions,
  type ServerAdmission,
} from './admit-server.js';
export { admitUpstreams, type HeldUpstream, type UpstreamAdmissionOptions } from './admit-upstreams.js';
