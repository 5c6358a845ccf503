// resource_link blocks for files inside the roots: a file:// URL of the real path, the path the model sees, a MIME guess.

import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ResourceLink } from '../../protocol/index.js';
import { resourceLink } from '../../server/index.js';

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.jsx': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.mts': 'text/x-typescript',
  '.cts': 'text/x-typescript',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.py': 'text/x-python',
  '.rb': 'text/x-ruby',
  '.rs': 'text/x-rust',
  '.go': 'text/x-go',
  '.java': 'text/x-java',
  '.c': 'text/x-c',
  '.h': 'text/x-c',
  '.cc': 'text/x-c++',
  '.cpp': 'text/x-c++',
  '.hpp': 'text/x-c++',
  '.sh': 'application/x-sh',
  '.sql': 'application/sql',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.wasm': 'application/wasm',
};

/** The MIME type for common extensions (case-insensitive), or undefined when we would only be guessing. */
export const guessMimeType = (name: string): string | undefined => MIME_TYPES[extname(name).toLowerCase()];

/** A resource_link to a file: `realPath` is absolute (inside a root), `shown` is the path as the model sees it. */
export function fileLink(realPath: string, shown: string, size: number | undefined): ResourceLink {
  const mimeType = guessMimeType(realPath);
  return resourceLink({
    uri: pathToFileURL(realPath).href,
    name: shown,
    ...(mimeType !== undefined && { mimeType }),
    ...(size !== undefined && { size }),
  });
}
