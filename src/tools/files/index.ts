// The files pack: read_file and list_directory, confined to the configured roots.

import type { ToolPack } from '../pack.js';
import { parseFilesConfig, type FilesConfig } from './config.js';
import { listDirectoryTool } from './list-directory.js';
import { readFileTool } from './read-file.js';

export const filesPack: ToolPack<FilesConfig> = {
  name: 'files',
  description: 'Read text files and list directories inside the allowed roots (read-only).',
  parseConfig: parseFilesConfig,
  create: (config, environment) => [readFileTool(config, environment), listDirectoryTool(environment)],
};

export { DEFAULT_MAX_READ_BYTES, type FilesConfig } from './config.js';
export { formatBytes } from './bytes.js';
export { fileLink, guessMimeType } from './file-link.js';
export {
  ChunkDecoder,
  NotUtf8Error,
  SNIFF_BYTES,
  binaryReason,
  decodeWhole,
  detectEncoding,
  type DetectedEncoding,
  type EncodingChoice,
  type TextEncodingName,
} from './text-encoding.js';
