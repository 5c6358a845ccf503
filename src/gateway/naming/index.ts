// Gateway naming: exposed names (`server___tool`), aliases, overrides, collisions, and resource URI rewriting.

export { NamingError, showName, type NamingErrorCode } from './errors.js';
export {
  SEPARATOR,
  MAX_SERVER_NAME_LENGTH,
  checkServerName,
  isServerName,
  serverNameProblem,
} from './server-name.js';
export {
  MAX_NAME_LENGTH,
  MAX_SPEC_NAME_LENGTH,
  isSpecToolName,
  nameBudget,
  type NamingOptions,
} from './tool-name.js';
export { checkOverrides, type ToolOverride, type Overrides } from './overrides.js';
export { nameEntries, type NameInput, type NamedEntry, type NameReport } from './entries.js';
export { createNameTable, type NameTable } from './name-table.js';
export { unusedOverrides } from './unused-overrides.js';
export { GATEWAY_URI_SCHEME, toGatewayUri, fromGatewayUri, toGatewayTemplate } from './uri.js';
