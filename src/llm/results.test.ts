// MCP results in each provider's shape: nothing a provider can carry is lost, and what it cannot carry is said.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '../protocol/index.js';
import { toAnthropicResult } from './results-anthropic.js';
import { chatAttachmentsMessage, toOpenAIChatResult, toOpenAIResponsesResult } from './results-openai.js';

const PNG = 'iVBORw0KGgo=';
const MIXED: CallToolResult = {
  content: [
    { type: 'text', text: 'Report ready.' },
    { type: 'image', mimeType: 'image/png', data: PNG },
    { type: 'image', mimeType: 'image/bmp', data: 'Qk0=' },
    { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
    {
      type: 'resource_link',
      uri: 'file:///r/summary.md',
      name: 'summary',
      mimeType: 'text/markdown',
      description: 'The summary',
    },
    { type: 'resource', resource: { uri: 'file:///r/notes.txt', mimeType: 'text/plain', text: 'line one' } },
    {
      type: 'resource',
      resource: { uri: 'file:///r/report.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
    },
    {
      type: 'resource',
      resource: { uri: 'file:///r/data.bin', mimeType: 'application/octet-stream', blob: 'AAAA' },
    },
  ],
  structuredContent: { pages: 3 },
};

describe('Anthropic tool_result', () => {
  it('text, images of the four types, documents for text and PDF, notes for the rest, structuredContent as JSON', () => {
    assert.deepEqual(toAnthropicResult(MIXED, 'toolu_1'), {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'text', text: 'Report ready.' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        {
          type: 'text',
          text: '[an image (image/bmp, 3 bytes) not shown: Anthropic takes only image/jpeg, image/png, image/gif, image/webp images]',
        },
        {
          type: 'text',
          text: '[audio (audio/wav, 6 bytes) not shown: Anthropic does not take audio in tool results]',
        },
        { type: 'text', text: 'Resource link: summary <file:///r/summary.md> (text/markdown) - The summary' },
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: 'line one' },
          title: 'file:///r/notes.txt',
        },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
          title: 'report.pdf',
        },
        {
          type: 'text',
          text: '[resource file:///r/data.bin (application/octet-stream, 3 bytes) not shown: Anthropic cannot take it in a tool result]',
        },
        { type: 'text', text: '{"pages":3}' },
      ],
    });
  });

  it('isError becomes is_error; structuredContent the text already mirrors is not repeated', () => {
    assert.deepEqual(
      toAnthropicResult(
        { content: [{ type: 'text', text: '{ "sum": 5 }' }], structuredContent: { sum: 5 } },
        't',
      ),
      { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: '{ "sum": 5 }' }] },
    );
    assert.deepEqual(toAnthropicResult({ content: [], isError: true }, 't'), {
      type: 'tool_result',
      tool_use_id: 't',
      content: [{ type: 'text', text: '(the tool returned no content)' }],
      is_error: true,
    });
  });

  it('a result with only structuredContent still reaches the model', () => {
    assert.deepEqual(toAnthropicResult({ content: [], structuredContent: [1, 2] }, 't').content, [
      { type: 'text', text: '[1,2]' },
    ]);
  });
});

it('E4 an image or PDF larger than the API takes becomes a note, not a failed request', () => {
  const big = 'A'.repeat((6 * 1024 * 1024 * 4) / 3); // 6 MB once decoded
  assert.deepEqual(
    toAnthropicResult({ content: [{ type: 'image', mimeType: 'image/png', data: big }] }, 't').content,
    [
      {
        type: 'text',
        text: '[an image (image/png, 6.0 MB) not shown: larger than the 5.0 MB Anthropic takes]',
      },
    ],
  );
  const pdf = { uri: 'file:///r/big.pdf', mimeType: 'application/pdf', blob: big.repeat(4) };
  assert.equal(
    toOpenAIChatResult({ content: [{ type: 'resource', resource: pdf }] }, 'c').message.content,
    '[resource file:///r/big.pdf (application/pdf, 24.0 MB) not shown: larger than the 20.0 MB OpenAI takes]',
  );
});

describe('OpenAI Chat Completions tool message', () => {
  it('text in the tool message; images and PDFs as attachments for one user message after the turn', () => {
    const result = toOpenAIChatResult(MIXED, 'call_1');
    assert.equal(
      result.message.content,
      [
        'Report ready.',
        '[image 1 (image/png) follows in the next user message]',
        '[an image (image/bmp, 3 bytes) not shown: OpenAI takes only image/png, image/jpeg, image/webp, image/gif images]',
        '[audio (audio/wav, 6 bytes) not shown: OpenAI does not take audio in tool results]',
        'Resource link: summary <file:///r/summary.md> (text/markdown) - The summary',
        'Resource file:///r/notes.txt:\nline one',
        '[PDF report.pdf follows in the next user message]',
        '[resource file:///r/data.bin (application/octet-stream, 3 bytes) not shown: OpenAI cannot take it in a tool result]',
        '{"pages":3}',
      ].join('\n\n'),
    );
    assert.deepEqual(chatAttachmentsMessage([result, toOpenAIChatResult({ content: [] }, 'call_2')]), {
      role: 'user',
      content: [
        { type: 'text', text: 'Attachments returned by tool call call_1:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'report.pdf' } },
      ],
    });
    assert.equal(chatAttachmentsMessage([toOpenAIChatResult({ content: [] }, 'c')]), undefined);
  });

  it('isError: the text starts with "Error: "', () => {
    assert.equal(
      toOpenAIChatResult({ content: [{ type: 'text', text: 'no such file' }], isError: true }, 'c').message
        .content,
      'Error: no such file',
    );
    assert.equal(
      toOpenAIChatResult(
        { content: [{ type: 'image', mimeType: 'image/png', data: PNG }], isError: true },
        'c',
      ).message.content,
      'Error: the tool reported an error.\n\n[image 1 (image/png) follows in the next user message]',
    );
  });
});

describe('OpenAI Responses function_call_output', () => {
  it('a string when all text; else input_text, input_image data URLs and input_file PDFs', () => {
    assert.deepEqual(
      toOpenAIResponsesResult(
        {
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        'c',
      ),
      {
        type: 'function_call_output',
        call_id: 'c',
        output: 'a\n\nb',
      },
    );
    const output = toOpenAIResponsesResult(MIXED, 'c').output;
    assert.ok(Array.isArray(output));
    assert.deepEqual(output[1], {
      type: 'input_image',
      image_url: `data:image/png;base64,${PNG}`,
      detail: 'auto',
    });
    assert.deepEqual(output[6], {
      type: 'input_file',
      file_data: 'data:application/pdf;base64,JVBERi0=',
      filename: 'report.pdf',
    });
    assert.deepEqual(output[5], { type: 'input_text', text: 'Resource file:///r/notes.txt:\nline one' });
  });
});
