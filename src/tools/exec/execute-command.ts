// The execute_command tool: one allowlisted program, no shell, confined working directory, reduced environment.

import { delimiter } from 'node:path';
import type { CallToolResult } from '../../protocol/index.js';
import { ToolError, defineTool, type ToolConfig } from '../../server/index.js';
import type { PackEnvironment } from '../pack.js';
import type { ResolvedPath } from '../roots.js';
import { DEFAULT_TIMEOUT_MS, MIN_TIMEOUT_MS, type ExecConfig } from './config.js';
import { runProcess, type RunOutcome } from './run-process.js';
import { openWorkingDirectory } from './working-directory.js';

export const EXECUTE_COMMAND = 'execute_command';
export const MAX_ARGS = 256;
export const MAX_ARG_BYTES = 32 * 1024;
const PROGRESS_EVERY_MS = 1_000;

/** The environment the program sees: only allowlisted variables, and PATH as the directories searched at startup. */
function childEnvironment(config: ExecConfig): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of config.envAllowlist) {
    const value = name === 'PATH' ? config.searchPath.join(delimiter) : process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function checkArgs(args: readonly string[]): void {
  args.forEach((arg, index) => {
    if (arg.includes('\0'))
      throw new ToolError(`args[${index}] contains a NUL byte, which no argument can carry`);
    const bytes = Buffer.byteLength(arg);
    if (bytes > MAX_ARG_BYTES) {
      throw new ToolError(
        `args[${index}] is ${bytes} bytes in UTF-8; each argument may be at most ${MAX_ARG_BYTES}`,
      );
    }
  });
}

/** What happened, in one sentence. */
function verdict(command: string, outcome: RunOutcome): string {
  if (outcome.timedOut) {
    const how = outcome.signal === null ? `exit code ${String(outcome.exitCode)}` : outcome.signal;
    return `${command} timed out and was stopped (${how}); its whole process group was killed.`;
  }
  if (outcome.signal !== null) return `${command} was killed by ${outcome.signal}.`;
  return `${command} exited with code ${String(outcome.exitCode)}.`;
}

function toResult(
  command: string,
  args: readonly string[],
  cwd: string,
  outcome: RunOutcome,
): CallToolResult {
  const stdout = outcome.stdout.text();
  const stderr = outcome.stderr.text();
  const sections = [verdict(command, outcome)];
  if (stdout !== '') sections.push(`stdout:\n${stdout}`);
  if (stderr !== '') sections.push(`stderr:\n${stderr}`);
  if (stdout === '' && stderr === '') sections.push('(no output)');
  return {
    content: [{ type: 'text', text: sections.join('\n\n') }],
    structuredContent: {
      command,
      args: [...args],
      cwd,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      timedOut: outcome.timedOut,
      durationMs: outcome.durationMs,
      stdout,
      stderr,
      stdoutTruncated: outcome.stdout.truncated,
      stderrTruncated: outcome.stderr.truncated,
    },
    isError: outcome.exitCode !== 0,
  };
}

export function createExecuteCommandTool(config: ExecConfig, environment: PackEnvironment): ToolConfig {
  const allowed = [...config.commands.keys()];
  const allowedText = allowed.join(', ');
  const defaultTimeoutMs = Math.min(DEFAULT_TIMEOUT_MS, config.maxTimeoutMs);
  const example = JSON.stringify({ command: allowed[0], args: ['--version'] });

  return defineTool({
    name: EXECUTE_COMMAND,
    title: 'Run an allowlisted command',
    description:
      `Runs one program from the allowlist (${allowedText}) directly, without a shell: pipes, redirections, globs, ` +
      '$VARIABLES, quotes and ";" have no special meaning, so give each argument as its own item of "args". ' +
      'Returns the exit code with stdout and stderr; a non-zero exit is reported as an error with the output. ' +
      `The working directory must be inside the allowed roots (default: the first root). Example: ${example}.`,
    inputSchema: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          minLength: 1,
          maxLength: 4096,
          description: `The program, written exactly as in the allowlist: one of ${allowedText}`,
        },
        args: {
          type: 'array',
          items: { type: 'string', maxLength: MAX_ARG_BYTES },
          maxItems: MAX_ARGS,
          default: [],
          description: `Arguments, each passed as is (at most ${MAX_ARGS}, each at most ${MAX_ARG_BYTES} bytes)`,
        },
        cwd: {
          type: 'string',
          minLength: 1,
          maxLength: 4096,
          description:
            'Working directory, relative to the first root or absolute inside a root (default: the first root)',
        },
        timeoutMs: {
          type: 'integer',
          minimum: MIN_TIMEOUT_MS,
          maximum: config.maxTimeoutMs,
          default: defaultTimeoutMs,
          description: 'Time limit in milliseconds; the whole process group is killed when it runs out',
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        args: { type: 'array', items: { type: 'string' } },
        cwd: { type: 'string', description: 'The real path of the working directory' },
        exitCode: { type: ['integer', 'null'], description: 'null when the program was ended by a signal' },
        signal: {
          type: ['string', 'null'],
          description: 'The signal that ended the program, e.g. "SIGKILL"',
        },
        timedOut: { type: 'boolean' },
        durationMs: { type: 'integer', minimum: 0 },
        stdout: { type: 'string' },
        stderr: { type: 'string' },
        stdoutTruncated: { type: 'boolean' },
        stderrTruncated: { type: 'boolean' },
      },
      required: [
        'command',
        'args',
        'cwd',
        'exitCode',
        'signal',
        'timedOut',
        'durationMs',
        'stdout',
        'stderr',
        'stdoutTruncated',
        'stderrTruncated',
      ],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    // Above the longest timeoutMs plus the kill grace, so the tool's own timeout answers first (with the output).
    timeoutMs: environment.timeouts[EXECUTE_COMMAND] ?? config.maxTimeoutMs + config.killGraceMs + 5_000,
    handler: async (input, ctx) => {
      // Types and ranges were checked against the inputSchema above.
      const command = input.command as string;
      const args = (input.args as string[] | undefined) ?? [];
      const timeoutMs = (input.timeoutMs as number | undefined) ?? defaultTimeoutMs;
      const file = config.commands.get(command);
      if (file === undefined) {
        throw new ToolError(
          `command ${JSON.stringify(command)} is not allowed; allowed commands: ${allowedText}. ` +
            'Give the program exactly as listed, and its arguments in "args"',
        );
      }
      checkArgs(args);
      const shown = (input.cwd as string | undefined) ?? '.';
      let resolved: ResolvedPath;
      try {
        resolved = await environment.roots.resolve(shown, 'directory');
      } catch (error) {
        if (error instanceof ToolError) throw new ToolError(`cwd: ${error.message}`);
        throw error;
      }
      // The checked path is only where to look: the program starts in the directory opened and verified here (a
      // directory on the way swapped for a link since the check would otherwise start it outside the roots).
      const cwd = await openWorkingDirectory(resolved, shown);
      let ticker: NodeJS.Timeout | undefined;
      try {
        ctx.progress(0, timeoutMs, `started ${command}`);
        const started = Date.now();
        ticker = setInterval(() => {
          const elapsed = Date.now() - started;
          ctx.progress(elapsed, timeoutMs, `${command} running for ${Math.round(elapsed / 1000)} s`);
        }, PROGRESS_EVERY_MS);
        const outcome = await runProcess({
          file,
          args,
          cwd,
          env: childEnvironment(config),
          timeoutMs,
          killGraceMs: config.killGraceMs,
          maxOutputBytes: config.maxOutputBytes,
          signal: ctx.signal,
        });
        return toResult(command, args, cwd.real, outcome);
      } finally {
        clearInterval(ticker);
        // runProcess closes it as soon as the program has started (or could not); this covers a failure before.
        await cwd.close();
      }
    },
  }) as unknown as ToolConfig; // erase the argument types for the pack's list
}
