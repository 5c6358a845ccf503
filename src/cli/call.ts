// `toolwire call TARGET TOOL [JSON | key=value …]`: confirmation for tools that are not read-only, a progress bar,
// Ctrl-C cancels on the server, and exit codes 0 (success), 1 (isError), 2 (usage), 3 (connection/protocol).

import { parseToolArguments } from './arguments.js';
import { approver } from './approval.js';
import { ExitCode, UsageError } from './errors.js';
import { renderResult } from './output.js';
import { createProgressBar } from './progress-bar.js';
import { connect, fail, say, type CliIo, type CommonOptions, type Connected } from './session.js';
import { shellCommand } from './shell-quote.js';
import { didYouMean } from './suggest.js';
import { inertJson, terminalLine } from './terminal-text.js';

export interface CallCommandOptions extends CommonOptions {
  yes?: boolean;
  save?: string;
  task?: boolean;
}

export async function call(
  targetText: string,
  tool: string,
  words: readonly string[],
  options: CallCommandOptions,
  io: CliIo,
  interrupt: AbortSignal,
): Promise<number> {
  let connected: Connected | undefined;
  const bar = createProgressBar(io.stderr);
  try {
    connected = await connect(targetText, options, io, approver(io, options.yes === true));
    const tools = await connected.client.listTools();
    const known = tools.find((candidate) => candidate.name === tool);
    if (known === undefined) {
      const names = tools.map((candidate) => terminalLine(candidate.name));
      const again = [
        'toolwire',
        'list',
        targetText,
        ...(options.config === undefined ? [] : ['--config', options.config]),
      ];
      throw new UsageError(
        `the server has no tool "${tool}"${didYouMean(tool, names)}; to see its tools, run: ${shellCommand(again)}`,
      );
    }
    const args = parseToolArguments(words, known.inputSchema, tool);
    const support = known.execution?.taskSupport;
    if (options.task === true && support !== 'optional' && support !== 'required') {
      throw new UsageError(
        `tool "${tool}" does not run as a task (${support === undefined ? 'it declares no task support' : `its task support is "${support}"`}); call it without --task`,
      );
    }
    const result = await connected.client.callTool(tool, args, {
      signal: interrupt,
      onProgress: ({ progress, total, message }) => bar.update(progress, total, message),
      task: options.task === true,
      onTaskStatus: ({ taskId, status, statusMessage }) =>
        say(io, `task ${taskId}: ${status}${statusMessage === undefined ? '' : ` (${statusMessage})`}`),
    });
    bar.done();
    if (options.json === true) io.stdout.write(`${inertJson(result, 2)}\n`);
    else {
      const text = renderResult(tool, result, options.save);
      if (text.length > 0) (result.isError === true ? io.stderr : io.stdout).write(`${text}\n`);
    }
    return result.isError === true ? ExitCode.ToolError : ExitCode.Success;
  } catch (error) {
    bar.done();
    return fail(io, error, connected, targetText);
  } finally {
    await connected?.client.close().catch(() => undefined);
    connected?.pins?.close();
  }
}
