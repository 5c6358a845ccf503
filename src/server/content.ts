// Helpers that build content blocks for tool results, checking base64 and MIME types as they go.

import type {
  Annotations,
  AudioContent,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
} from '../protocol/index.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;.*)?$/;

/** Binary data as base64: bytes are encoded, strings must already be valid base64. */
function toBase64(data: string | Uint8Array, what: string): string {
  if (typeof data !== 'string')
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  if (!BASE64.test(data)) throw new TypeError(`${what}: data is not valid base64`);
  return data;
}

function checkMime(mimeType: string, kind: string | undefined, what: string): void {
  if (!MIME.test(mimeType)) throw new TypeError(`${what}: "${mimeType}" is not a MIME type`);
  if (kind !== undefined && !mimeType.toLowerCase().startsWith(`${kind}/`)) {
    throw new TypeError(`${what}: MIME type must be ${kind}/*, got "${mimeType}"`);
  }
}

export interface BlockOptions {
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

const withOptions = <T extends object>(block: T, options: BlockOptions | undefined): T =>
  options === undefined ? block : { ...block, ...options };

export const text = (value: string, options?: BlockOptions): TextContent =>
  withOptions({ type: 'text' as const, text: value }, options);

export function image(data: string | Uint8Array, mimeType: string, options?: BlockOptions): ImageContent {
  checkMime(mimeType, 'image', 'image()');
  return withOptions({ type: 'image' as const, data: toBase64(data, 'image()'), mimeType }, options);
}

export function audio(data: string | Uint8Array, mimeType: string, options?: BlockOptions): AudioContent {
  checkMime(mimeType, 'audio', 'audio()');
  return withOptions({ type: 'audio' as const, data: toBase64(data, 'audio()'), mimeType }, options);
}

export function resourceLink(link: Omit<ResourceLink, 'type'>): ResourceLink {
  if (typeof link.uri !== 'string' || !URL.canParse(link.uri)) {
    throw new TypeError(`resourceLink(): "${String(link.uri)}" is not an absolute URI`);
  }
  if (link.mimeType !== undefined) checkMime(link.mimeType, undefined, 'resourceLink()');
  return { type: 'resource_link', ...link };
}

export interface EmbeddedResourceInput extends BlockOptions {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string | Uint8Array;
}

/** An embedded resource: exactly one of text or blob (binary, sent as base64). */
export function embeddedResource(input: EmbeddedResourceInput): EmbeddedResource {
  const { uri, mimeType, text: body, blob, annotations, _meta } = input;
  if (typeof uri !== 'string' || !URL.canParse(uri)) {
    throw new TypeError(`embeddedResource(): "${String(uri)}" is not an absolute URI`);
  }
  if (mimeType !== undefined) checkMime(mimeType, undefined, 'embeddedResource()');
  if ((body === undefined) === (blob === undefined)) {
    throw new TypeError('embeddedResource(): give exactly one of text or blob');
  }
  const base = mimeType === undefined ? { uri } : { uri, mimeType };
  const resource =
    body !== undefined
      ? { ...base, text: body }
      : { ...base, blob: toBase64(blob ?? '', 'embeddedResource()') };
  return withOptions(
    { type: 'resource' as const, resource },
    { ...(annotations && { annotations }), ...(_meta && { _meta }) },
  );
}

/** A complete tool result, for handlers that want to set every field themselves. */
export const toolResult = (result: CallToolResult): CallToolResult => result;

export type { ContentBlock };
