// One upstream prompt registered on the gateway's server: prompts/get forwarded with its arguments, cancellation and
// the upstream's input requests (asked of the inbound client), and the messages handed back as they came.

import type { JsonObject } from '../jsonrpc/index.js';
import type { GetPromptResult, Prompt } from '../protocol/index.js';
import type { PromptConfig } from '../server/prompts.js';
import { forwardInput } from './forward-input.js';
import type { UpstreamRunner } from './proxy-tool.js';
import { upstreamRequestFailure } from './upstream-errors.js';
import { ownMeta } from './upstream-result.js';

export interface ProxyPromptOptions {
  exposed: string;
  server: string;
  prompt: Prompt;
  run: UpstreamRunner;
  timeoutMs: number;
}

export function proxyPrompt(options: ProxyPromptOptions): PromptConfig {
  const { prompt } = options;
  const config: PromptConfig = {
    name: options.exposed,
    timeoutMs: options.timeoutMs,
    get: async (args, ctx) => {
      const input = forwardInput(ctx);
      try {
        const result = await options.run((client) =>
          client.getPrompt(prompt.name, args, { signal: input.signal, handlers: input.handlers }),
        );
        input.rethrow();
        const out: GetPromptResult = { messages: result.messages };
        if (result.description !== undefined) out.description = result.description;
        const meta = result._meta === undefined ? undefined : ownMeta(result._meta as JsonObject);
        if (meta !== undefined) out._meta = meta;
        return out;
      } catch (error) {
        input.rethrow();
        throw upstreamRequestFailure(options.server, error);
      }
    },
  };
  if (prompt.title !== undefined) config.title = prompt.title;
  if (prompt.description !== undefined) config.description = prompt.description;
  if (prompt.arguments !== undefined) config.arguments = prompt.arguments;
  if (prompt.icons !== undefined) config.icons = prompt.icons;
  return config;
}
