// A model's tool call, back to MCP: the tool found by its provider name, the arguments restored to the tool's own
// terms and checked against its ORIGINAL schema, then run through toolwire's client (approval, abort, progress).

import type { CallOptions, CallToolOutcome, McpClient } from '../client/index.js';
import { RequestAbortedError } from '../client/index.js';
import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { CallToolResult, Tool } from '../protocol/index.js';
import { compileSchema, formatIssues, type CompiledSchema } from '../schema/index.js';
import type { CompiledTool, CompiledTools } from './compile-tools.js';
import { restoreArguments } from './shape.js';

/** Chat Completions' `message.tool_calls[i]`, or a Responses `function_call` output item. */
export type OpenAIToolCall =
  | { id: string; type?: string; function: { name: string; arguments: string } }
  | { type: 'function_call'; call_id: string; name: string; arguments: string };

/** An Anthropic `tool_use` content block. */
export interface AnthropicToolUse {
  id: string;
  name: string;
  input: unknown;
}

/** A call ready to run, or what to tell the model instead (it can fix its call and try again). */
export type PreparedCall =
  | {
      ok: true;
      id: string;
      providerName: string;
      tool: string;
      arguments: JsonObject;
      compiled: CompiledTool;
    }
  | { ok: false; id: string; providerName: string; error: string };

/** What runTools and call() need of a client: McpClient has it; a narrow view keeps the bridge honest. */
export type ToolClient = Pick<McpClient, 'callTool' | 'listTools' | 'onToolsChanged'>;

/** Model output is untrusted: arguments larger than this are refused before parsing. */
export const MAX_ARGUMENT_CHARS = 1024 * 1024;

const validators = new WeakMap<Tool, CompiledSchema | null>();

/** The original inputSchema's validator, compiled once per tool object; null when it cannot be (the server checks). */
function validatorFor(tool: Tool): CompiledSchema | null {
  let validator = validators.get(tool);
  if (validator !== undefined) return validator;
  try {
    // A server's schema on a model's output: a pattern that backtracks would hang the bridge (C5); the server checks.
    validator = compileSchema(tool.inputSchema, {
      role: 'input',
      owner: `tool "${tool.name}"`,
      untrusted: true,
    });
  } catch {
    validator = null;
  }
  validators.set(tool, validator);
  return validator;
}

async function prepare(tools: CompiledTools, id: string, name: string, args: unknown): Promise<PreparedCall> {
  const compiled = tools.byProviderName.get(name);
  const fail = (error: string): PreparedCall => ({ ok: false, id, providerName: name, error });
  if (compiled === undefined) {
    const known = [...tools.byProviderName.keys()].slice(0, 20).join(', ');
    return fail(`There is no tool named "${name}". The tools are: ${known || '(none)'}.`);
  }
  if (!isJsonObject(args)) return fail(`The arguments for "${name}" must be a JSON object.`);
  const restored = restoreArguments(args, compiled.shape);
  if (!isJsonObject(restored)) return fail(`The arguments for "${name}" must be a JSON object.`);
  const validator = validatorFor(compiled.tool);
  if (validator !== null) {
    const checked = await validator.validate(restored);
    if (!checked.ok) return fail(formatIssues(checked.issues, `Invalid arguments for tool "${name}"`));
  }
  return { ok: true, id, providerName: name, tool: compiled.tool.name, arguments: restored, compiled };
}

function parseArguments(text: string): unknown {
  if (text.length > MAX_ARGUMENT_CHARS) return undefined;
  if (text.trim() === '') return {}; // some models send "" for a tool without parameters
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads an OpenAI tool call (Chat Completions or Responses) as an MCP call. */
export async function fromOpenAI(tools: CompiledTools, call: OpenAIToolCall): Promise<PreparedCall> {
  const [id, name, text] =
    'function' in call
      ? [call.id, call.function.name, call.function.arguments]
      : [call.call_id, call.name, call.arguments];
  const args = parseArguments(text);
  if (args === undefined) {
    return { ok: false, id, providerName: name, error: `The arguments for "${name}" are not valid JSON.` };
  }
  return prepare(tools, id, name, args);
}

/** Reads an Anthropic tool_use block as an MCP call. */
export function fromAnthropic(tools: CompiledTools, use: AnthropicToolUse): Promise<PreparedCall> {
  return prepare(tools, use.id, use.name, use.input);
}

const errorResult = (text: string): CallToolOutcome => ({ content: [{ type: 'text', text }], isError: true });

/**
 * Runs a prepared call. Whatever goes wrong short of an abort comes back as an `isError` result the model can read
 * (a refused approval, a protocol error, a time limit); an abort rejects, so the caller's loop stops.
 */
export async function callPrepared(
  client: ToolClient,
  prepared: PreparedCall,
  options: CallOptions = {},
): Promise<CallToolResult> {
  if (!prepared.ok) return errorResult(prepared.error);
  try {
    return await client.callTool(prepared.tool, prepared.arguments, options);
  } catch (error) {
    if (error instanceof RequestAbortedError || options.signal?.aborted === true) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return errorResult(`The call to "${prepared.providerName}" failed: ${message}`);
  }
}
