// The built-in tool packs, by name, and how `toolwire serve` turns a configuration into tools.

export { DEFAULT_PACKS, PACKS } from './packs.js';
export { ConfigError, type PackEnvironment, type ToolPack } from './pack.js';
export { Roots, openRegularFile, type ResolvedPath } from './roots.js';
export { loadServeConfig, type ServeConfig, type ServeSettings } from './serve-config.js';
export { calcPack } from './calc/index.js';
export { csvPack } from './csv/index.js';
export { execPack } from './exec/index.js';
export { filesPack } from './files/index.js';
export { githubPack } from './github/index.js';
export { httpPack } from './http/index.js';
export { searchPack } from './search/index.js';
