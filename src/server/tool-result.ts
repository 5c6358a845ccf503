// Turning whatever a handler returned into a CallToolResult, and fitting it to the client's revision.

import { isJsonObject } from '../jsonrpc/index.js';
import {
  CONTENT_TYPES,
  revisionHasStructuredContent,
  type CallToolResult,
  type ContentBlock,
} from '../protocol/index.js';

const RESULT_KEYS: ReadonlySet<string> = new Set(['content', 'structuredContent', 'isError', '_meta']);

const isContentBlock = (value: unknown): value is ContentBlock =>
  isJsonObject(value) && typeof value.type === 'string' && CONTENT_TYPES.has(value.type);

const isContentArray = (value: unknown): value is ContentBlock[] =>
  Array.isArray(value) && value.length > 0 && value.every(isContentBlock);

/** A value shaped like a full CallToolResult: a content array and nothing but result keys. */
const isCallToolResult = (value: unknown): value is CallToolResult =>
  isJsonObject(value) &&
  Array.isArray(value.content) &&
  (value.content as unknown[]).every(isContentBlock) &&
  Object.keys(value).every((key) => RESULT_KEYS.has(key));

/**
 * The rules, in order: a string is one text block; a full result is kept; with no outputSchema, a content block
 * or an array of them is the content; undefined is an empty result; anything else is structuredContent, with its
 * JSON as a text block for clients that do not read structured content.
 */
export function normaliseReturn(value: unknown, hasOutputSchema: boolean): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (isCallToolResult(value)) return value;
  if (!hasOutputSchema) {
    if (isContentBlock(value)) return { content: [value] };
    if (isContentArray(value)) return { content: value };
  }
  if (value === undefined) return { content: [] };
  const text = JSON.stringify(value) ?? 'null';
  return { content: [{ type: 'text', text }], structuredContent: value };
}

/** Content block types each legacy revision knows (2024-11-05: no audio; resource links arrived in 2025-06-18). */
const KNOWN_BLOCKS: Readonly<Record<string, ReadonlySet<string>>> = {
  '2024-11-05': new Set(['text', 'image', 'resource']),
  '2025-03-26': new Set(['text', 'image', 'audio', 'resource']),
};

/** A block the client's revision cannot show becomes a text block that says what it was, so nothing is lost silently. */
function describeBlock(block: ContentBlock): ContentBlock {
  if (block.type === 'resource_link') {
    return {
      type: 'text',
      text: `Resource: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}`,
    };
  }
  if (block.type === 'audio') {
    return {
      type: 'text',
      text: `[audio ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes, not shown: this client's protocol revision has no audio content]`,
    };
  }
  return block;
}

/**
 * Fits a result to a legacy revision: structuredContent must be an object and does not exist before 2025-06-18;
 * content types newer than the revision are described in text instead.
 */
export function fitToRevision(result: CallToolResult, revision: string): CallToolResult {
  const known = KNOWN_BLOCKS[revision];
  let fitted = result;
  if (known !== undefined && result.content.some((block) => !known.has(block.type))) {
    fitted = {
      ...result,
      content: result.content.map((block) => (known.has(block.type) ? block : describeBlock(block))),
    };
  }
  if (fitted.structuredContent === undefined) return fitted;
  if (revisionHasStructuredContent(revision) && isJsonObject(fitted.structuredContent)) return fitted;
  const { structuredContent: _dropped, ...rest } = fitted;
  return rest;
}

export const errorResult = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});
