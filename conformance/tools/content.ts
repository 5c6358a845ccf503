// Fixtures for the content scenarios: tools-call-{simple-text, image, audio, embedded-resource, mixed-content, error}.

import { ToolError, audio, embeddedResource, image, text, type McpServer } from '../../src/index.js';
import { PNG_BASE64, WAV_BASE64 } from './shared.js';

export function registerContentTools(server: McpServer): void {
  server.tool({
    name: 'test_simple_text',
    description: 'Returns one text block (conformance: tools-call-simple-text).',
    handler: () => text('This is a simple text response for testing.'),
  });

  server.tool({
    name: 'test_image_content',
    description: 'Returns one PNG image block (conformance: tools-call-image).',
    handler: () => image(PNG_BASE64, 'image/png'),
  });

  server.tool({
    name: 'test_audio_content',
    description: 'Returns one WAV audio block with mimeType audio/wav (conformance: tools-call-audio).',
    handler: () => audio(WAV_BASE64, 'audio/wav'),
  });

  server.tool({
    name: 'test_embedded_resource',
    description: 'Returns one embedded text resource (conformance: tools-call-embedded-resource).',
    handler: () =>
      embeddedResource({
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      }),
  });

  server.tool({
    name: 'test_multiple_content_types',
    description:
      'Returns text, an image and an embedded resource together (conformance: tools-call-mixed-content).',
    handler: () => [
      text('Multiple content types test:'),
      image(PNG_BASE64, 'image/png'),
      embeddedResource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    ],
  });

  server.tool({
    name: 'test_error_handling',
    description: 'Always fails with an isError result, not a protocol error (conformance: tools-call-error).',
    handler: () => {
      throw new ToolError('This tool intentionally returns an error for testing');
    },
  });
}
