// What a tool call needs of the client (ToolCaller), and its last step: a tool result checked against the tool's
// outputSchema. Shared by plain calls (call.ts) and calls that ran as tasks (tasks.ts, tasks-legacy.ts).

import type { JsonObject } from '../jsonrpc/index.js';
import type { CallToolResult, ServerCapabilities } from '../protocol/index.js';
import { formatIssues } from '../schema/index.js';
import { OutputValidationError, ProtocolError } from './errors.js';
import type { ClientSession } from './session.js';
import type { KnownTool, ToolCache } from './tools.js';

/** The tool's result, plus how it was produced. */
export interface CallToolOutcome extends CallToolResult {
  /** Set when the call ran as a task (the tasks extension, or 2025-11-25 task-augmented calls). */
  taskId?: string;
}

/** What a call needs of the client: the session, the tool cache, what the server offers, and its notifications. */
export interface ToolCaller extends ClientSession {
  readonly tools: ToolCache;
  readonly serverCapabilities: ServerCapabilities;
  /** Calls `listener` with the params of every notification `method` the server sends, until the returned stop. */
  onNotification(method: string, listener: (params: JsonObject | undefined) => void): () => void;
}

export async function finish(
  client: ToolCaller,
  name: string,
  known: KnownTool | undefined,
  result: JsonObject,
): Promise<CallToolOutcome> {
  if (!Array.isArray(result.content))
    throw new ProtocolError(`tools/call of "${name}" answered without a content array`);
  const { resultType: _type, ...rest } = result;
  const outcome = rest as unknown as CallToolOutcome; // content checked above; the rest is the server's
  if (client.options.validateOutput === 'off' || known === undefined || outcome.isError === true)
    return outcome;
  const validator = client.tools.outputValidator(known);
  if (validator === null) return outcome;
  if (outcome.structuredContent === undefined) {
    throw new OutputValidationError(
      name,
      `tool "${name}" declares an outputSchema but returned no structuredContent`,
      outcome,
    );
  }
  const checked = await validator.validate(outcome.structuredContent);
  if (!checked.ok) {
    throw new OutputValidationError(
      name,
      formatIssues(checked.issues, `structuredContent of tool "${name}" does not match its outputSchema`),
      outcome,
    );
  }
  return outcome;
}
