// Fixtures that send notifications or change the server while running: progress, logging, list changes, SSE polling.

import { text, type McpServer } from '../../src/index.js';
import { sleep } from './shared.js';

export function registerNotificationTools(server: McpServer): void {
  server.tool({
    name: 'test_tool_with_progress',
    description:
      'Reports progress 0, 50 and 100 of 100, about 50 ms apart (conformance: tools-call-with-progress).',
    handler: async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        if (step > 0) await sleep(50, ctx.signal);
        ctx.progress(step, 100, `Completed step ${step} of 100`);
      }
      return text('Progress reported: 0, 50, 100 of 100');
    },
  });

  server.tool({
    name: 'test_tool_with_logging',
    description:
      'Sends three info log messages about 50 ms apart (conformance: tools-call-with-logging, 2025-11-25).',
    handler: async (_args, ctx) => {
      const messages = ['Tool execution started', 'Tool processing data', 'Tool execution completed'];
      for (const [index, message] of messages.entries()) {
        if (index > 0) await sleep(50, ctx.signal);
        ctx.log('info', message, 'conformance-fixture');
      }
      return text('Tool with logging executed successfully');
    },
  });

  server.tool({
    name: 'test_logging_tool',
    description:
      'Logs at every level; a request without _meta logLevel must receive none of it (conformance: server-stateless).',
    handler: (_args, ctx) => {
      for (const level of ['debug', 'info', 'warning', 'error'] as const) {
        ctx.log(level, `test_logging_tool: a ${level} message`, 'conformance-fixture');
      }
      return text('test_logging_tool finished');
    },
  });

  let temporaryTools = 0;
  server.tool({
    name: 'test_trigger_tool_change',
    description:
      'Adds and then removes a temporary tool, so the tool list changes and listeners are told (conformance: server-stateless).',
    handler: () => {
      // A fresh name per call: two overlapping calls must not collide on registration.
      const temporary = server.tool({
        name: `test_temporary_tool_${++temporaryTools}`,
        description: 'A short-lived tool registered by test_trigger_tool_change.',
        handler: () => text('temporary'),
      });
      temporary.remove();
      return text(`Tool list changed (added and removed ${temporary.name})`);
    },
  });

  server.tool({
    name: 'test_reconnection',
    description:
      'Closes its SSE stream mid-call and finishes shortly after, so the client must reconnect to get the result ' +
      '(conformance: server-sse-polling, 2025-11-25).',
    handler: async (_args, ctx) => {
      const closed = ctx.closeStream();
      await sleep(100, ctx.signal);
      return text(
        closed
          ? 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.'
          : 'Reconnection test completed (this transport has no stream to close).',
      );
    },
  });
}
