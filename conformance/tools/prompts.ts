// Fixtures for the prompt scenarios: prompts-{list, get-simple, get-with-args, get-embedded-resource,
// get-with-image}, completion-complete, input-required-result-non-tool-request and the prompt list change hook.

import { text, type McpServer } from '../../src/index.js';
import { PNG_BASE64 } from './shared.js';

export function registerPrompts(server: McpServer): void {
  server.prompt({
    name: 'test_simple_prompt',
    title: 'Simple prompt',
    description: 'A prompt without arguments (conformance: prompts-get-simple).',
    get: () => 'This is a simple prompt for testing.',
  });

  server.prompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt with arguments',
    description:
      'A prompt with two required arguments (conformance: prompts-get-with-args, completion-complete).',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    complete: {
      arg1: (value) =>
        ['testValue1', 'testValue2', 'paris', 'park'].filter((option) => option.startsWith(value)),
    },
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  });

  server.prompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt with an embedded resource',
    description: 'A prompt whose message embeds a resource (conformance: prompts-get-embedded-resource).',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: resourceUri ?? 'test://example-resource',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: text('Please process the embedded resource above.') },
    ],
  });

  server.prompt({
    name: 'test_prompt_with_image',
    title: 'Prompt with an image',
    description: 'A prompt whose message carries an image (conformance: prompts-get-with-image).',
    get: () => [
      { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: text('Please analyze the image above.') },
    ],
  });

  server.prompt({
    name: 'test_input_required_result_prompt',
    description:
      'Asks for context through an input request before answering (conformance: input-required-result-non-tool-request).',
    get: async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'What context should the prompt use?',
          requestedSchema: {
            type: 'object',
            properties: { context: { type: 'string' } },
            required: ['context'],
          },
        },
        'user_context',
      );
      const context = typeof answer.content?.context === 'string' ? answer.content.context : '(none)';
      return `Use this context: ${context}`;
    },
  });

  let toggled: ReturnType<McpServer['prompt']> | undefined;
  server.tool({
    name: 'test_trigger_prompt_change',
    description:
      'Adds or removes a temporary prompt, so prompts/list_changed fires (conformance: server-stateless).',
    handler: () => {
      if (toggled === undefined) {
        toggled = server.prompt({
          name: 'test_temporary_prompt',
          description: 'Temporary.',
          get: () => 'temporary',
        });
        return 'added test_temporary_prompt';
      }
      toggled.remove();
      toggled = undefined;
      return 'removed test_temporary_prompt';
    },
  });
}
