// MCP results in OpenAI's shapes: a Chat Completions `tool` message (text only, so images and PDFs follow in one
// user message), or a Responses `function_call_output` (text, `input_image` data URLs, `input_file` PDFs).

import type { CallToolResult } from '../protocol/index.js';
import {
  ERROR_PREFIX,
  OPENAI_IMAGE_TYPES,
  OPENAI_MAX_BINARY_BYTES,
  resultParts,
  type ResultPart,
} from './result-parts.js';

export interface ChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

export type ChatAttachment =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** The user message that carries the images and files tool messages cannot. */
export interface ChatAttachmentsMessage {
  role: 'user';
  content: ChatAttachment[];
}

export interface ChatToolResult {
  message: ChatToolMessage;
  /** Images and PDFs of this result, for the user message after all tool messages of the turn. */
  attachments: ChatAttachment[];
}

export type ResponsesOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

export interface ResponsesToolOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | ResponsesOutputPart[];
}

const OPTIONS = { imageTypes: OPENAI_IMAGE_TYPES, api: 'OpenAI', maxBinaryBytes: OPENAI_MAX_BINARY_BYTES };
const dataUrl = (mimeType: string, data: string): string => `data:${mimeType};base64,${data}`;
const documentText = (part: { text: string; title: string }): string =>
  `Resource ${part.title}:\n${part.text}`;

function markError(parts: ResultPart[], isError: boolean | undefined): ResultPart[] {
  if (isError !== true) return parts;
  const first = parts[0];
  if (first?.kind === 'text')
    return [{ kind: 'text', text: `${ERROR_PREFIX}${first.text}` }, ...parts.slice(1)];
  return [{ kind: 'text', text: `${ERROR_PREFIX}the tool reported an error.` }, ...parts];
}

/** A Chat Completions tool message, plus the attachments to send in a user message after the turn's tool messages. */
export function toOpenAIChatResult(result: CallToolResult, toolCallId: string): ChatToolResult {
  const texts: string[] = [];
  const attachments: ChatAttachment[] = [];
  for (const part of markError(resultParts(result, OPTIONS), result.isError)) {
    switch (part.kind) {
      case 'text':
        texts.push(part.text);
        break;
      case 'document':
        texts.push(documentText(part));
        break;
      case 'image':
        attachments.push({ type: 'image_url', image_url: { url: dataUrl(part.mimeType, part.data) } });
        texts.push(`[image ${attachments.length} (${part.mimeType}) follows in the next user message]`);
        break;
      case 'pdf':
        attachments.push({
          type: 'file',
          file: { file_data: dataUrl('application/pdf', part.data), filename: part.name },
        });
        texts.push(`[PDF ${part.name} follows in the next user message]`);
        break;
    }
  }
  if (attachments.length > 0) {
    attachments.unshift({ type: 'text', text: `Attachments returned by tool call ${toolCallId}:` });
  }
  return { message: { role: 'tool', tool_call_id: toolCallId, content: texts.join('\n\n') }, attachments };
}

/** One user message for all attachments of a turn, or undefined when there are none. */
export function chatAttachmentsMessage(
  results: readonly ChatToolResult[],
): ChatAttachmentsMessage | undefined {
  const content = results.flatMap((result) => result.attachments);
  return content.length === 0 ? undefined : { role: 'user', content };
}

/** A Responses `function_call_output` item: a string when the result is all text, else a list of parts. */
export function toOpenAIResponsesResult(result: CallToolResult, callId: string): ResponsesToolOutput {
  const parts = markError(resultParts(result, OPTIONS), result.isError);
  if (parts.every((part) => part.kind === 'text' || part.kind === 'document')) {
    const output = parts
      .map((part) => (part.kind === 'document' ? documentText(part) : part.text))
      .join('\n\n');
    return { type: 'function_call_output', call_id: callId, output };
  }
  const output = parts.map((part): ResponsesOutputPart => {
    switch (part.kind) {
      case 'text':
        return { type: 'input_text', text: part.text };
      case 'document':
        return { type: 'input_text', text: documentText(part) };
      case 'image':
        return { type: 'input_image', image_url: dataUrl(part.mimeType, part.data), detail: 'auto' };
      case 'pdf':
        return { type: 'input_file', file_data: dataUrl('application/pdf', part.data), filename: part.name };
    }
  });
  return { type: 'function_call_output', call_id: callId, output };
}
