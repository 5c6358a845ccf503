// API keys for deployments without an authorization server: the authenticator, key creation and the keys file.

export {
  apiKeys,
  createApiKey,
  loadApiKeys,
  type ApiKeys,
  type ApiKeysOptions,
  type NewApiKey,
} from './api-keys.js';
export { KEY_ID, KEY_PREFIX, hashKey } from './key-format.js';
export {
  KeysFileChangedError,
  MAX_KEYS_FILE_BYTES,
  keysDirectoryProblem,
  keysFileProblem,
  keysFileText,
  parseKeysFile,
  readKeysFile,
  writeKeysFile,
  type WriteKeysFileOptions,
} from './keys-file.js';
export {
  ApiKeysError,
  checkRecords,
  isoInstant,
  labelProblem,
  scopesProblem,
  subjectProblem,
  type ApiKeyRecord,
} from './records.js';
