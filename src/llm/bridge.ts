// One MCP client's tools for one model API, kept current: definitions to send, the model's calls read back and
// run through the client. For applications that write their own loop (runTools is built on it).

import type { CallOptions } from '../client/index.js';
import type { CallToolResult } from '../protocol/index.js';
import {
  callPrepared,
  fromAnthropic,
  fromOpenAI,
  type AnthropicToolUse,
  type OpenAIToolCall,
  type PreparedCall,
  type ToolClient,
} from './calls.js';
import { compileTools, type CompiledTools } from './compile-tools.js';
import type { DefinitionFor } from './definitions.js';
import type { ProfileId } from './profiles.js';
import type { CompileReport } from './report.js';

export class ToolBridge<P extends ProfileId = ProfileId> {
  readonly client: ToolClient;
  readonly profile: P;
  #compiled: CompiledTools<P>;
  #stale = false;
  readonly #stopListening: () => void;

  private constructor(client: ToolClient, profile: P) {
    this.client = client;
    this.profile = profile;
    this.#compiled = compileTools([], profile);
    // Listening starts before the first listing, so a change between the two is not missed.
    this.#stopListening = client.onToolsChanged(() => {
      this.#stale = true;
    });
  }

  /** Lists the client's tools and compiles them for `profile`. */
  static async create<P extends ProfileId>(
    client: ToolClient,
    profile: P,
    options: { signal?: AbortSignal } = {},
  ): Promise<ToolBridge<P>> {
    const bridge = new ToolBridge(client, profile);
    try {
      await bridge.refresh(options);
    } catch (error) {
      bridge.close();
      throw error;
    }
    return bridge;
  }

  /** The tools for the request, as the API takes them. */
  get definitions(): DefinitionFor<P>[] {
    return this.#compiled.definitions;
  }
  get report(): CompileReport {
    return this.#compiled.report;
  }
  get compiled(): CompiledTools<P> {
    return this.#compiled;
  }
  /** The server said its tool list changed since the last compilation: refresh() before the next request. */
  get stale(): boolean {
    return this.#stale;
  }

  /** Lists and compiles again (clears `stale`). */
  async refresh(options: { signal?: AbortSignal } = {}): Promise<void> {
    this.#stale = false;
    const tools = await this.client.listTools({ ...options, refresh: true });
    this.#compiled = compileTools(tools, this.profile);
  }

  /** An OpenAI tool call (Chat Completions or Responses), as an MCP call ready to run, or the error for the model. */
  fromOpenAI(call: OpenAIToolCall): Promise<PreparedCall> {
    return fromOpenAI(this.#compiled, call);
  }

  /** An Anthropic tool_use block, as an MCP call ready to run, or the error for the model. */
  fromAnthropic(use: AnthropicToolUse): Promise<PreparedCall> {
    return fromAnthropic(this.#compiled, use);
  }

  /** Runs a prepared call through the client; failures other than an abort come back as isError results. */
  run(prepared: PreparedCall, options: CallOptions = {}): Promise<CallToolResult> {
    return callPrepared(this.client, prepared, options);
  }

  /** Stops listening for tool list changes. */
  close(): void {
    this.#stopListening();
  }
}
