// The read_file tool: a text file, or a range of its lines, with encoding detection, binary refusal and size limits.

import type { ContentBlock } from '../../protocol/index.js';
import { ToolError, defineTool, text, type ToolConfig } from '../../server/index.js';
import type { PackEnvironment } from '../pack.js';
import { MAX_PATH_LENGTH, openRegularFile } from '../roots.js';
import { formatBytes } from './bytes.js';
import type { FilesConfig } from './config.js';
import { fileLink } from './file-link.js';
import { readTextRange, type ReadOutcome } from './read-text.js';
import { ENCODING_CHOICES, type EncodingChoice } from './text-encoding.js';

export const READ_FILE_TIMEOUT_MS = 30_000;

interface ReadFileArgs {
  path: string;
  startLine?: number;
  endLine?: number;
  encoding?: EncodingChoice;
}

interface ReadFileOutput {
  path: string;
  encoding: string;
  startLine: number;
  endLine: number;
  totalLines?: number;
  truncated: boolean;
  content: string;
}

/** The range to read; startLine defaults to 1, and an inverted range is the model's mistake to fix. */
function lineRange(args: ReadFileArgs): { startLine: number; endLine: number | undefined; whole: boolean } {
  const { startLine, endLine } = args;
  if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
    throw new ToolError(
      `endLine (${endLine}) must be greater than or equal to startLine (${startLine}); to read one line give the same number for both`,
    );
  }
  return { startLine: startLine ?? 1, endLine, whole: startLine === undefined && endLine === undefined };
}

/** A sentence after the content saying what part of the file this is and how to read on ('' for a whole file). */
function describeRange(outcome: ReadOutcome, endLine: number, whole: boolean, maxBytes: number): string {
  const { lines, reachedEnd } = outcome;
  const start = lines.startLine;
  const limit = formatBytes(maxBytes);
  if (lines.cut === 'long-line') {
    return `Line ${start} is longer than the ${limit} output limit and was cut; read on with startLine ${start + 1}.`;
  }
  if (lines.cut === 'byte-limit') {
    return `Lines ${start}–${endLine} shown: the output reached the ${limit} limit; read on with startLine ${endLine + 1}.`;
  }
  if (!reachedEnd) return `Lines ${start}–${endLine} shown; read on with startLine ${endLine + 1}.`;
  if (lines.totalLines === 0) return 'The file is empty.';
  if (whole) return '';
  return `Lines ${start}–${endLine} of ${lines.totalLines} shown.`;
}

export function readFileTool(config: FilesConfig, environment: PackEnvironment): ToolConfig {
  const { roots } = environment;
  const maxBytes = config.maxReadBytes;
  const limit = formatBytes(maxBytes);
  const tool = defineTool({
    name: 'read_file',
    title: 'Read a text file',
    description:
      `Reads a text file inside the allowed roots and returns its content, lines joined by "\\n". ` +
      `The encoding is detected (UTF-8 or UTF-16 byte order mark, else UTF-8, else latin1) unless given; binary files ` +
      `are refused. A whole file may be at most ${limit}; for bigger files read a range of lines with startLine and ` +
      `endLine (each call returns at most ${limit}). Example: {"path": "src/index.ts", "startLine": 1, "endLine": 40}.`,
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_PATH_LENGTH,
          description:
            'The file, relative to the first root (for example "docs/guide.md") or absolute inside a root',
        },
        startLine: {
          type: 'integer',
          minimum: 1,
          description: 'First line to return (1-based). Default 1. Give it to read part of a large file.',
        },
        endLine: {
          type: 'integer',
          minimum: 1,
          description: 'Last line to return (inclusive, ≥ startLine). Default: the end of the file.',
        },
        encoding: {
          type: 'string',
          enum: [...ENCODING_CHOICES],
          default: 'auto',
          description:
            'How to decode the bytes. "auto" (default) detects it; choose another only if auto got it wrong.',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The path as given back to the model' },
        encoding: { type: 'string', enum: ['utf-8', 'utf-16le', 'utf-16be', 'latin1'] },
        startLine: { type: 'integer', description: 'Number of the first line in content' },
        endLine: {
          type: 'integer',
          description: 'Number of the last line in content (startLine - 1 when none)',
        },
        totalLines: {
          type: 'integer',
          description: 'Lines in the file; present when the read reached its end',
        },
        truncated: { type: 'boolean', description: 'True when the output limit stopped the read early' },
        content: { type: 'string' },
      },
      required: ['path', 'encoding', 'startLine', 'endLine', 'truncated', 'content'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    timeoutMs: environment.timeouts['read_file'] ?? READ_FILE_TIMEOUT_MS,
    handler: async (raw, ctx) => {
      const args = raw as unknown as ReadFileArgs; // validated against the inputSchema above
      const { startLine, endLine, whole } = lineRange(args);
      const resolved = await roots.resolve(args.path, 'file');
      const shown = roots.display(resolved);
      const handle = await openRegularFile(resolved, shown);
      let outcome: ReadOutcome;
      let size: number;
      try {
        size = (await handle.stat()).size;
        if (whole && size > maxBytes) {
          throw new ToolError(
            `file "${shown}" is ${formatBytes(size)}, over the ${limit} limit for reading a whole file; ` +
              `read it in parts with startLine and endLine, for example {"path": ${JSON.stringify(shown)}, "startLine": 1, "endLine": 200}`,
          );
        }
        outcome = await readTextRange(handle, {
          shown,
          size,
          encoding: args.encoding ?? 'auto',
          startLine,
          endLine,
          maxBytes,
          signal: ctx.signal,
          onProgress: (bytesRead) =>
            ctx.progress(bytesRead, Math.max(size, bytesRead), `read ${formatBytes(bytesRead)}`),
        });
      } finally {
        await handle.close();
      }
      const { lines, reachedEnd } = outcome;
      if (lines.lines.length === 0 && reachedEnd && !whole) {
        throw new ToolError(
          `startLine ${startLine} is past the end of file "${shown}", which has ${lines.totalLines} ${lines.totalLines === 1 ? 'line' : 'lines'}`,
        );
      }
      const content = lines.lines.join('\n');
      const lastLine = startLine + lines.lines.length - 1;
      const note = describeRange(outcome, lastLine, whole, maxBytes);
      const structured: ReadFileOutput = {
        path: shown,
        encoding: outcome.encoding,
        startLine,
        endLine: lastLine,
        ...(reachedEnd && { totalLines: lines.totalLines }),
        truncated: lines.cut !== undefined,
        content,
      };
      const blocks: ContentBlock[] = [];
      if (content !== '') blocks.push(text(content));
      if (note !== '') blocks.push(text(note));
      blocks.push(fileLink(resolved.real, shown, size));
      return { content: blocks, structuredContent: structured };
    },
  });
  return tool as unknown as ToolConfig; // erase the argument types for the pack's list
}
