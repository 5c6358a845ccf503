// An MCP tool result, read once into the parts a model API can carry: text, images of the types it takes, PDFs,
// and a readable note for everything else (audio, other binaries). structuredContent is kept as JSON text unless
// the content already says the same.

import { isDeepStrictEqual } from 'node:util';
import type { CallToolResult } from '../protocol/index.js';

export type ResultPart =
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; data: string }
  | { kind: 'pdf'; data: string; name: string }
  /** A text resource: Anthropic takes it as a document; OpenAI as text. */
  | { kind: 'document'; text: string; title: string };

export interface PartOptions {
  /** Image media types the API takes. */
  imageTypes: ReadonlySet<string>;
  /** How the API is named in notes ("OpenAI", "Anthropic"). */
  api: string;
  /** Decoded bytes one image or file may have; a larger one becomes a note instead of failing the request. */
  maxBinaryBytes: number;
}

/** OpenAI vision: PNG, JPEG, WEBP and non-animated GIF. */
export const OPENAI_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
]);
/** Anthropic base64 images: jpeg, png, gif, webp only. */
export const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

const bytesOf = (base64: string): number => Math.floor((base64.length * 3) / 4);
const showBytes = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;
const sizeOf = (base64: string): string => showBytes(bytesOf(base64));

/** Whether a text block is the structuredContent as JSON (the spec asks servers to mirror it so). */
function mirrors(text: string, structured: unknown): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(text), structured);
  } catch {
    return false;
  }
}

export function resultParts(result: CallToolResult, options: PartOptions): ResultPart[] {
  const parts: ResultPart[] = [];
  const note = (text: string): void => void parts.push({ kind: 'text', text });
  /** Notes (and says true for) binary data over the API's size: one huge image must not cost the whole request. */
  const tooLarge = (base64: string, what: string): boolean => {
    if (bytesOf(base64) <= options.maxBinaryBytes) return false;
    note(
      `[${what}, ${sizeOf(base64)}) not shown: larger than the ${showBytes(options.maxBinaryBytes)} ${options.api} takes]`,
    );
    return true;
  };
  const content: unknown[] = Array.isArray(result.content) ? result.content : [];
  for (const block of content as CallToolResult['content']) {
    switch (block.type) {
      case 'text':
        parts.push({ kind: 'text', text: block.text });
        break;
      case 'image':
        if (!options.imageTypes.has(block.mimeType)) {
          note(
            `[an image (${block.mimeType}, ${sizeOf(block.data)}) not shown: ${options.api} takes only ${[...options.imageTypes].join(', ')} images]`,
          );
        } else if (tooLarge(block.data, `an image (${block.mimeType}`)) break;
        else parts.push({ kind: 'image', mimeType: block.mimeType, data: block.data });
        break;
      case 'audio':
        note(
          `[audio (${block.mimeType}, ${sizeOf(block.data)}) not shown: ${options.api} does not take audio in tool results]`,
        );
        break;
      case 'resource_link': {
        const mime = block.mimeType === undefined ? '' : ` (${block.mimeType})`;
        const about = block.description === undefined ? '' : ` - ${block.description}`;
        note(`Resource link: ${block.title ?? block.name} <${block.uri}>${mime}${about}`);
        break;
      }
      case 'resource': {
        const resource = block.resource;
        const mime = resource.mimeType ?? '';
        if ('text' in resource) parts.push({ kind: 'document', text: resource.text, title: resource.uri });
        else if (
          (options.imageTypes.has(mime) || mime === 'application/pdf') &&
          tooLarge(resource.blob, `resource ${resource.uri} (${mime}`)
        )
          break;
        else if (options.imageTypes.has(mime))
          parts.push({ kind: 'image', mimeType: mime, data: resource.blob });
        else if (mime === 'application/pdf') {
          parts.push({
            kind: 'pdf',
            data: resource.blob,
            name: resource.uri.split('/').pop() || 'document.pdf',
          });
        } else {
          note(
            `[resource ${resource.uri} (${mime || 'binary'}, ${sizeOf(resource.blob)}) not shown: ${options.api} cannot take it in a tool result]`,
          );
        }
        break;
      }
      default: {
        const type = (block as { type?: unknown }).type;
        note(`[a content block of type ${JSON.stringify(type)} not shown: unknown to this bridge]`);
      }
    }
  }
  const structured = result.structuredContent;
  if (
    structured !== undefined &&
    !parts.some((part) => part.kind === 'text' && mirrors(part.text, structured))
  ) {
    parts.push({ kind: 'text', text: JSON.stringify(structured) });
  }
  if (parts.length === 0) note('(the tool returned no content)');
  return parts;
}

/** Anthropic refuses a base64 image over 5 MB ("image exceeds 5 MB maximum"); a request is 32 MB at most. */
export const ANTHROPIC_MAX_BINARY_BYTES = 5 * 1024 * 1024;
/** OpenAI: 20 MB per image or file, under the 50 MB a request's images may total. */
export const OPENAI_MAX_BINARY_BYTES = 20 * 1024 * 1024;

/** OpenAI has no error flag on tool output: the text says it, first. */
export const ERROR_PREFIX = 'Error: ';
