// Fixtures for the tasks extension scenarios (tasks-*, SEP-2663): sync and task-supporting tools.

import { RpcError, ToolError, type McpServer } from '../../src/index.js';
import { sleep } from './shared.js';

const CONFIRM_SCHEMA = {
  type: 'object',
  properties: { confirm: { type: 'boolean', description: 'Confirm the action' } },
  required: ['confirm'],
};

export function registerTaskTools(server: McpServer): void {
  server.tool({
    name: 'greet',
    description: 'Greets synchronously; never a task (tasks-lifecycle).',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    handler: (args) => `Hello, ${typeof args.name === 'string' ? args.name : 'World'}!`,
  });

  server.tool({
    name: 'slow_compute',
    description: 'Sleeps `seconds` then answers; runs as a task for clients that declare the extension.',
    inputSchema: {
      type: 'object',
      properties: { seconds: { type: 'number', minimum: 0, maximum: 600 }, label: { type: 'string' } },
    },
    task: 'optional',
    handler: async (args, ctx) => {
      const seconds = typeof args.seconds === 'number' ? args.seconds : 1;
      await sleep(seconds * 1000, ctx.signal);
      return `Computed ${typeof args.label === 'string' ? args.label : 'result'} after ${seconds} s`;
    },
  });

  server.tool({
    name: 'failing_job',
    description: 'A task-only job that reports a tool error after about a second.',
    task: 'required',
    handler: async (_args, ctx) => {
      await sleep(1000, ctx.signal);
      throw new ToolError('The job failed: this tool always fails (tool execution error)');
    },
  });

  server.tool({
    name: 'protocol_error_job',
    description: 'A task job that ends in a protocol-level (JSON-RPC) error.',
    task: 'optional',
    handler: async (_args, ctx) => {
      await sleep(100, ctx.signal);
      throw new RpcError(-32603, 'Internal error: the job crashed');
    },
  });

  server.tool({
    name: 'confirm_delete',
    description: 'A task that asks for confirmation (one elicitation) before "deleting" a file.',
    inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
    task: 'optional',
    handler: async (args, ctx) => {
      const answer = await ctx.elicit({
        message: `Delete ${String(args.filename)}?`,
        requestedSchema: CONFIRM_SCHEMA,
      });
      return answer.action === 'accept' && answer.content?.confirm === true
        ? `Deleted ${String(args.filename)}`
        : `Kept ${String(args.filename)}`;
    },
  });

  server.tool({
    name: 'multi_input',
    description: 'A task that asks two questions at once (two elicitations pending together).',
    task: 'optional',
    handler: async (_args, ctx) => {
      const schema = {
        type: 'object',
        properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
      };
      const [first, second] = await Promise.all([
        ctx.elicit({ message: 'First input?', requestedSchema: schema }),
        ctx.elicit({ message: 'Second input?', requestedSchema: schema }),
      ]);
      return `Got ${JSON.stringify(first.content ?? {})} and ${JSON.stringify(second.content ?? {})}`;
    },
  });

  server.tool({
    name: 'test_tool_with_task',
    description: 'Asks for user_name first (MRTR), then continues as a task (tasks-mrtr-composition).',
    task: { support: 'required', start: 'when-asked' },
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        'user_name',
      );
      await ctx.runAsTask();
      await sleep(100, ctx.signal);
      return `Hello, ${typeof answer.content?.name === 'string' ? answer.content.name : 'stranger'}!`;
    },
  });
}
