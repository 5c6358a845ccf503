// `toolwire call TARGET TOOL [JSON | key=value …]`: confirmation for tools that are not read-only, a progress bar,
// Ctrl-C cancels on the server, and exit codes 0 (success), 1 (isError), 2 (usage), 3 (connection/protocol).

import type { ApprovalRequest } from '../client/index.js';
import { parseToolArguments } from './arguments.js';
import { ExitCode, UsageError } from './errors.js';
import { renderResult } from './output.js';
import { createProgressBar } from './progress-bar.js';
import { askYesNo, connect, explain, type CliIo, type CommonOptions, type Connected } from './session.js';

export interface CallCommandOptions extends CommonOptions {
  yes?: boolean;
  save?: string;
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
    const approve = async (request: ApprovalRequest): Promise<boolean> => {
      if (options.yes === true) return true;
      const why = request.trusted
        ? 'it may change things'
        : 'the server is not trusted, so its annotations do not count';
      if (io.stdin.isTTY !== true) {
        throw new UsageError(
          `refusing to call "${request.tool}" without confirmation: it is not marked read-only (${why}) and there is no terminal to ask; pass --yes to allow it`,
        );
      }
      io.stderr.write(`Tool "${request.tool}" on ${request.server} is not marked read-only (${why}).\n`);
      io.stderr.write(`Arguments: ${JSON.stringify(request.arguments)}\n`);
      return askYesNo(io, 'Call it? [y/N] ');
    };
    connected = await connect(targetText, options, io, approve);
    const known = (await connected.client.listTools()).find((candidate) => candidate.name === tool);
    if (known === undefined) {
      throw new UsageError(
        `the server has no tool "${tool}"; run "toolwire list ${targetText}" to see its tools`,
      );
    }
    const args = parseToolArguments(words, known.inputSchema);
    const result = await connected.client.callTool(tool, args, {
      signal: interrupt,
      onProgress: ({ progress, total, message }) => bar.update(progress, total, message),
    });
    bar.done();
    if (options.json === true) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const text = renderResult(tool, result, options.save);
      if (text.length > 0) (result.isError === true ? io.stderr : io.stdout).write(`${text}\n`);
    }
    return result.isError === true ? ExitCode.ToolError : ExitCode.Success;
  } catch (error) {
    bar.done();
    const { message, code } = explain(error, connected?.target, targetText);
    io.stderr.write(`toolwire: ${message}\n`);
    return code;
  } finally {
    await connected?.client.close().catch(() => undefined);
  }
}
