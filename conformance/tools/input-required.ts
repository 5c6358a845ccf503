// Fixtures for the 2026-07-28 input scenarios: input-required-result-* (SEP-2322) and the capability and streaming
// probes of server-stateless. Each asks through ToolContext; the core turns a missing answer into input_required.

import { text, type ElicitRequestFormParams, type InputRequest, type McpServer } from '../../src/index.js';
import { sampledText } from './shared.js';

/** A form asking for one required string or boolean field. */
const form = (message: string, field: string, type: 'string' | 'boolean'): ElicitRequestFormParams => ({
  message,
  requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] },
});

const askFor = (message: string, field: string, type: 'string' | 'boolean'): InputRequest => ({
  method: 'elicitation/create',
  params: form(message, field, type),
});

const nameForm = form('What is your name?', 'name', 'string');
const askForName: InputRequest = { method: 'elicitation/create', params: nameForm };

const sampling = (prompt: string, maxTokens: number): InputRequest => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens },
});

const listRoots: InputRequest = { method: 'roots/list', params: {} };

/** The value of one field of an accepted elicitation, or a note that it was not accepted. */
function field(answer: unknown, name: string): string {
  const { action, content } = answer as { action: string; content?: Record<string, unknown> };
  return action === 'accept' ? String(content?.[name]) : `(${action})`;
}

const rootUris = (answer: unknown): string =>
  (answer as { roots: { uri: string }[] }).roots.map((root) => root.uri).join(', ') || '(none)';

export function registerInputRequiredTools(server: McpServer): void {
  server.tool({
    name: 'test_input_required_result_elicitation',
    description: 'Asks for the user\'s name (input key "user_name"), then greets them.',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit(nameForm, 'user_name');
      return text(`Hello, ${field(answer, 'name')}!`);
    },
  });

  server.tool({
    name: 'test_input_required_result_sampling',
    description: 'Asks the client\'s model a question (input key "capital_question") and returns the answer.',
    handler: async (_args, ctx) => {
      const answer = await ctx.sample(
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        },
        'capital_question',
      );
      return text(`Sampling response: ${sampledText(answer.content)}`);
    },
  });

  server.tool({
    name: 'test_input_required_result_list_roots',
    description: 'Asks for the client\'s roots (input key "client_roots") and lists them.',
    handler: async (_args, ctx) => {
      const answer = await ctx.listRoots('client_roots');
      return text(`Client roots: ${rootUris(answer)}`);
    },
  });

  server.tool({
    name: 'test_input_required_result_request_state',
    description:
      'Asks for a confirmation (input key "confirm") with a sealed requestState; says state-ok when done.',
    handler: async (_args, ctx) => {
      const answers = await ctx.requestInput({ confirm: askFor('Please confirm', 'ok', 'boolean') });
      // Reaching this line on a retry means the core verified the echoed requestState (a bad one is -32602).
      return text(`state-ok: confirmed=${field(answers.confirm, 'ok')}`);
    },
  });

  server.tool({
    name: 'test_input_required_result_multiple_inputs',
    description:
      'Asks for an elicitation, a sampling and the roots in one round, then completes with all three.',
    handler: async (_args, ctx) => {
      const answers = await ctx.requestInput({
        user_name: askForName,
        greeting: sampling('Generate a greeting', 50),
        client_roots: listRoots,
      });
      const greeting = sampledText((answers.greeting as { content: unknown }).content);
      return text(
        `name=${field(answers.user_name, 'name')}; greeting=${greeting}; roots=${rootUris(answers.client_roots)}`,
      );
    },
  });

  server.tool({
    name: 'test_input_required_result_multi_round',
    description:
      'Asks two questions in two rounds ("step1", then "step2"), so the requestState changes between them.',
    handler: async (_args, ctx) => {
      const first = await ctx.requestInput({ step1: askFor('Step 1: What is your name?', 'name', 'string') });
      const second = await ctx.requestInput({
        step2: askFor('Step 2: What is your favorite color?', 'color', 'string'),
      });
      return text(`name=${field(first.step1, 'name')}, color=${field(second.step2, 'color')}`);
    },
  });

  server.tool({
    name: 'test_input_required_result_tampered_state',
    description: 'Asks for a confirmation with an HMAC-sealed requestState; a tampered state is rejected.',
    handler: async (_args, ctx) => {
      const answers = await ctx.requestInput({ confirm: askFor('Please confirm', 'ok', 'boolean') });
      return text(`confirmed=${field(answers.confirm, 'ok')}`);
    },
  });

  server.tool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks only for what the client declared: sampling always, elicitation only when declared.',
    handler: async (_args, ctx) => {
      const requests: Record<string, InputRequest> = { summary: sampling('Summarise the request', 50) };
      if (ctx.clientCapabilities.elicitation !== undefined) requests.user_name = askForName;
      const answers = await ctx.requestInput(requests);
      return text(`Answered: ${Object.keys(answers).sort().join(', ')}`);
    },
  });

  server.tool({
    name: 'test_missing_capability',
    description:
      'Needs sampling; a client that did not declare it gets -32021 (conformance: server-stateless).',
    handler: async (_args, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
        maxTokens: 20,
      });
      return text(`Sampling response: ${sampledText(answer.content)}`);
    },
  });

  server.tool({
    name: 'test_streaming_elicitation',
    description:
      'Needs an elicitation; on 2026-07-28 it must come back as input_required, never as a request on the stream.',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit(nameForm, 'user_name');
      return text(`Hello, ${field(answer, 'name')}!`);
    },
  });
}
