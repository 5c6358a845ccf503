// MCP results in Anthropic's shape: a `tool_result` block with text, base64 images (jpeg, png, gif, webp),
// documents (PDFs and text resources) and `is_error` for a tool error.

import type { CallToolResult } from '../protocol/index.js';
import { ANTHROPIC_IMAGE_TYPES, ANTHROPIC_MAX_BINARY_BYTES, resultParts } from './result-parts.js';

export type AnthropicResultBlock =
  | { type: 'text'; text: string }
  | {
      type: 'image';
      source: {
        type: 'base64';
        media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
        data: string;
      };
    }
  | {
      type: 'document';
      source: { type: 'base64'; media_type: 'application/pdf'; data: string };
      title?: string;
    }
  | { type: 'document'; source: { type: 'text'; media_type: 'text/plain'; data: string }; title?: string };

export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicResultBlock[];
  is_error?: boolean;
}

type ImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export function toAnthropicResult(result: CallToolResult, toolUseId: string): AnthropicToolResult {
  const content = resultParts(result, {
    imageTypes: ANTHROPIC_IMAGE_TYPES,
    api: 'Anthropic',
    maxBinaryBytes: ANTHROPIC_MAX_BINARY_BYTES,
  }).map((part): AnthropicResultBlock => {
    switch (part.kind) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        // resultParts keeps only ANTHROPIC_IMAGE_TYPES
        return {
          type: 'image',
          source: { type: 'base64', media_type: part.mimeType as ImageType, data: part.data },
        };
      case 'pdf':
        return {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: part.data },
          title: part.name,
        };
      case 'document':
        return {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: part.text },
          title: part.title,
        };
    }
  });
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content,
    ...(result.isError === true ? { is_error: true } : {}),
  };
}
