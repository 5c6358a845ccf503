// The gateway's public API (the `toolwire/gateway` subpath): many upstream MCP servers behind one McpServer with the
// policy layer in front, the toolwire.json reader for it, its health view, and the pieces it is made of.

export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export { loadGatewayConfig, readGatewayConfig, type GatewayConfig } from './config.js';
export { readStatus, isRunning, type GatewayStatus } from './status-file.js';
export {
  SEPARATOR,
  MAX_NAME_LENGTH,
  NamingError,
  checkServerName,
  nameEntries,
  toGatewayUri,
  fromGatewayUri,
  toGatewayTemplate,
  type ToolOverride,
} from './naming/index.js';
export {
  PinBook,
  definitionDigest,
  memoryPinStore,
  openPinStore,
  pinStorePath,
  ServerPinBook,
  admitServer,
  admitUpstreams,
  launchDefinition,
  supplyChainFindings,
  type PinRecord,
  type PinStore,
  type PinVerdict,
  type ServerAdmission,
  type ServerPinRecord,
  type ServerPinStore,
  type LaunchDefinition,
} from './pins/index.js';
export {
  scanTool,
  stripTool,
  refuseDefinition,
  vetTool,
  type Finding,
  type ListingLimits,
  type PoisoningMode,
} from './scan/index.js';
export {
  Upstream,
  UpstreamUnavailable,
  type UpstreamConfig,
  type UpstreamCredentials,
  type UpstreamHealth,
} from './upstream/index.js';
