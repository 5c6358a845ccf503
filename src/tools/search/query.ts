// Turning the model's pattern and fileType into a checked regular expression and a list of extensions.

import { ToolError } from '../../server/index.js';

export const MAX_PATTERN_LENGTH = 1000;
const MAX_FILE_TYPES = 20;
const EXTENSION = /^[a-z0-9_+~-]+(?:\.[a-z0-9_+~-]+)*$/;

export interface Query {
  source: string;
  flags: string;
  regex: boolean;
  /** The pattern as messages quote it: "text" for a literal, /source/ for a regular expression. */
  shown: string;
}

/** Characters that mean something in a `u`-mode regular expression (escaping anything else is a syntax error there). */
const escapeLiteral = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * Literal text becomes an escaped expression, so one engine serves both. Regular expressions use JavaScript syntax
 * with the `u` flag; `i` unless caseSensitive. Compiling here (never matching) is safe, and reports syntax errors early.
 */
export function buildQuery(pattern: string, regex: boolean, caseSensitive: boolean): Query {
  const source = regex ? pattern : escapeLiteral(pattern);
  const flags = caseSensitive ? 'u' : 'iu';
  try {
    new RegExp(source, flags);
  } catch (error) {
    throw new ToolError(
      `pattern is not a valid regular expression (${(error as Error).message}); fix its syntax, or set regex to false to search for the text literally`,
    );
  }
  return { source, flags, regex, shown: regex ? `/${pattern}/` : JSON.stringify(pattern) };
}

/** "ts", ".ts", "*.ts", "ts, tsx" → ["ts", "tsx"]; undefined or blank means every file. */
export function parseFileTypes(fileType: string | undefined): string[] | undefined {
  if (fileType === undefined || fileType.trim() === '') return undefined;
  const extensions = fileType.split(',').map((part) =>
    part
      .trim()
      .replace(/^\*?\./, '')
      .toLowerCase(),
  );
  if (extensions.length > MAX_FILE_TYPES || !extensions.every((extension) => EXTENSION.test(extension))) {
    throw new ToolError(
      `fileType ${JSON.stringify(fileType)} is not a list of file extensions; give up to ${MAX_FILE_TYPES} extensions ` +
        'separated by commas, without wildcards, for example "ts" or "ts,tsx,md"',
    );
  }
  return [...new Set(extensions)];
}
