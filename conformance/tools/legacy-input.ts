// Fixtures that ask the client for input on the 2025-11-25 wire (server→client requests inside a session):
// tools-call-sampling, tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums.

import { z } from 'zod';
import { text, type ElicitResult, type McpServer } from '../../src/index.js';
import { sampledText } from './shared.js';

const describeAnswer = (answer: ElicitResult): string =>
  `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;

export function registerLegacyInputTools(server: McpServer): void {
  server.tool({
    name: 'test_sampling',
    description:
      'Asks the client to sample a completion for the given prompt (conformance: tools-call-sampling).',
    inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    handler: async ({ prompt }, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      return text(`LLM response: ${sampledText(answer.content)}`);
    },
  });

  server.tool({
    name: 'test_elicitation',
    description: 'Asks the user for a username and an email (conformance: tools-call-elicitation).',
    inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
    handler: async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return text(`User response: ${describeAnswer(answer)}`);
    },
  });

  server.tool({
    name: 'test_elicitation_sep1034_defaults',
    description:
      'Elicits a form whose every primitive field has a default (conformance: elicitation-sep1034-defaults).',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      });
      return text(`Elicitation completed: ${describeAnswer(answer)}`);
    },
  });

  server.tool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicits the five enum shapes of SEP-1330 (conformance: elicitation-sep1330-enums).',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        },
      });
      return text(`Elicitation completed: ${describeAnswer(answer)}`);
    },
  });
}
