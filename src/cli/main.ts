// The command line: parses arguments with commander and hands each command to its own module.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { serve } from './serve.js';

const packageVersion = (): string => {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version; // our own package.json
};

/** Runs the CLI with `argv` (without node and script) and returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const version = packageVersion();
  let exitCode = 0;
  const program = new Command('toolwire')
    .description('The Model Context Protocol tools system: serve, list and call MCP tools.')
    .version(version)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
    .command('serve')
    .description('Run the ready MCP server (stdio by default, or Streamable HTTP with --http)')
    .option('--stdio', 'serve over stdin/stdout (the default)')
    .option(
      '--http <[host:]port>',
      'serve Streamable HTTP at http://HOST:PORT/mcp (port 0 picks a free port)',
    )
    .action(async (options: { stdio?: boolean; http?: string }) => {
      exitCode = await serve(options, { stderr: process.stderr, version });
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`toolwire: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  return exitCode;
}
