// The command line: parses arguments with commander and hands each command to its own module.

import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { audit, type AuditCommandOptions } from './audit.js';
import { call, type CallCommandOptions } from './call.js';
import { ExitCode } from './errors.js';
import { list, type ListOptions } from './list.js';
import { login, type LoginOptions } from './login.js';
import { logout } from './logout.js';
import { addHttpFlags, serve, type ServeOptions } from './serve.js';
import type { CliIo, CommonOptions } from './session.js';
import { dev, type DevOptions } from './dev.js';
import { install, splitServeArguments, type InstallOptions } from './install.js';
import { addKeysCommand } from './keys.js';
import { addApprovalsCommand } from './approvals.js';
import { addGatewayCommand } from './gateway.js';
import { addPinsCommand } from './pins.js';
import { prompt, prompts, type PromptCommandOptions } from './prompts.js';
import { read, resources, type ReadCommandOptions } from './resources.js';

const packageVersion = (): string => {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version; // our own package.json
};

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

const common = (command: Command): Command =>
  command
    .option('--header <name: value>', 'an HTTP header to send (repeatable)', collect)
    .option('--timeout <ms>', 'time limit per request in milliseconds', '60000')
    .option('--json', 'machine-readable output')
    .option('--config <file>', 'config file with "mcpServers" (default: ./toolwire.json)')
    .option('--trust', "trust the server's annotations (read-only tools then run without confirmation)");

/** Runs the CLI with `argv` (without node and script) and returns the process exit code. */
export async function main(argv: readonly string[], io?: Partial<CliIo>): Promise<number> {
  const version = packageVersion();
  const cli: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    version,
    ...io,
  };
  let exitCode: number = ExitCode.Success;
  const program = new Command('toolwire')
    .description('The Model Context Protocol tools system: serve, list and call MCP tools.')
    .version(version)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => cli.stdout.write(text),
      writeErr: (text) => cli.stderr.write(text),
    })
    .addHelpText(
      'after',
      "\nTARGET is an http(s):// URL, the name of a server in the config file's \"mcpServers\", or a stdio\ncommand line in one argument ('node server.js --flag'), split like a shell but run without one.\nExit codes: 0 success, 1 the tool answered isError, 2 usage error, 3 connection or protocol error.",
    );

  addHttpFlags(
    program
      .command('serve')
      .description('Run the ready MCP server (stdio by default, or Streamable HTTP with --http)')
      .option('--stdio', 'serve over stdin/stdout (the default)')
      .option(
        '--http <[host:]port>',
        'serve Streamable HTTP at http://HOST:PORT/mcp (port 0 picks a free port)',
      )
      .option(
        '--tools <packs>',
        'packs or modules: calc,files,search,csv,exec,http,github,./my-tools.js (repeatable)',
        collect,
      )
      .option(
        '--root <dir>',
        'a directory the file tools may use (repeatable; default: the current directory)',
        collect,
      )
      .option('--config <file>', 'a toolwire.json with tools, roots, timeouts, packs and http settings'),
  ).action(async (options: ServeOptions) => {
    exitCode = await serve(options, { stderr: cli.stderr, stdin: cli.stdin, version, cwd: cli.cwd });
  });

  common(
    program
      .command('list')
      .description("List a server's tools")
      .argument('<target>', 'URL, config name or command line'),
  )
    .option(
      '--format <api>',
      'print the tools as a model API takes them (JSON on stdout, what was changed or left out on stderr): ' +
        'openai, openai-responses, anthropic, or any of them with -strict',
    )
    .action(async (target: string, options: ListOptions) => {
      exitCode = await list(target, options, cli);
    });

  common(
    program
      .command('call')
      .description('Call a tool: arguments as one JSON object or key=value pairs')
      .argument('<target>', 'URL, config name or command line')
      .argument('<tool>', 'the tool name')
      .argument('[arguments...]', 'one JSON object, or key=value pairs coerced by the input schema'),
  )
    .option('--yes', 'do not ask before calling a tool that is not read-only')
    .option('--task', 'run a tool whose task support is optional as a task (2025-11-25 servers)')
    .addOption(new Option('--save <dir>', 'write image, audio and binary resource blocks to files in DIR'))
    .action(async (target: string, tool: string, words: string[], options: CallCommandOptions) => {
      const interrupt = new AbortController();
      const onSigint = (): void => interrupt.abort();
      process.once('SIGINT', onSigint);
      try {
        exitCode = await call(target, tool, words, options, cli, interrupt.signal);
      } finally {
        process.off('SIGINT', onSigint);
      }
    });

  common(
    program
      .command('resources')
      .description("List a server's resources and resource templates")
      .argument('<target>', 'URL, config name or command line'),
  ).action(async (target: string, options: CommonOptions) => {
    exitCode = await resources(target, options, cli);
  });

  common(
    program
      .command('read')
      .description('Read a resource: text is printed, binary contents noted (or saved with --save)')
      .argument('<target>', 'URL, config name or command line')
      .argument('<uri>', 'the resource URI (a listed one, or one matching a template)'),
  )
    .option('--save <dir>', 'write binary contents to files in DIR')
    .action(async (target: string, uri: string, options: ReadCommandOptions) => {
      exitCode = await read(target, uri, options, cli);
    });

  common(
    program
      .command('prompts')
      .description("List a server's prompts and their arguments")
      .argument('<target>', 'URL, config name or command line'),
  ).action(async (target: string, options: CommonOptions) => {
    exitCode = await prompts(target, options, cli);
  });

  common(
    program
      .command('prompt')
      .description("Get a prompt's messages: arguments as key=value pairs (all strings) or one JSON object")
      .argument('<target>', 'URL, config name or command line')
      .argument('<name>', 'the prompt name')
      .argument('[arguments...]', 'key=value pairs, or one JSON object of strings'),
  )
    .option('--save <dir>', 'write image, audio and binary resource blocks to files in DIR')
    .action(async (target: string, name: string, words: string[], options: PromptCommandOptions) => {
      exitCode = await prompt(target, name, words, options, cli);
    });

  program
    .command('login')
    .description(
      'Authorize toolwire at an OAuth-protected HTTP server (browser + loopback redirect); list and call then use the tokens',
    )
    .argument('<target>', 'URL or config name of an HTTP server')
    .option(
      '--scope <scopes>',
      'scopes to ask for besides the ones the server names (space- or comma-separated)',
    )
    .option(
      '--client-id <id>',
      'a pre-registered client id (its secret, if any, from $TOOLWIRE_OAUTH_CLIENT_SECRET)',
    )
    .option(
      '--client-metadata-url <url>',
      'the https URL of a Client ID Metadata Document to use as client id',
    )
    .option('--no-browser', 'only print the authorization URL')
    .option('--timeout <ms>', 'how long to wait for the browser, in milliseconds', '300000')
    .option('--config <file>', 'config file with "mcpServers" (default: ./toolwire.json)')
    .action(async (target: string, options: LoginOptions) => {
      const interrupt = new AbortController();
      const onSigint = (): void => interrupt.abort();
      process.once('SIGINT', onSigint);
      try {
        exitCode = await login(target, options, cli, interrupt.signal);
      } finally {
        process.off('SIGINT', onSigint);
      }
    });

  program
    .command('logout')
    .description('Revoke (where the authorization server allows) and delete the tokens stored by login')
    .argument('<target>', 'URL or config name of an HTTP server')
    .option('--config <file>', 'config file with "mcpServers" (default: ./toolwire.json)')
    .action(async (target: string, options: { config?: string }) => {
      exitCode = await logout(target, options, cli);
    });

  program
    .command('install')
    .description(
      'Add an MCP server entry to the config of Claude Desktop, Claude Code, Cursor, VS Code or mcp.json',
    )
    .argument('<host>', 'claude-desktop, claude-code, cursor, vscode or mcp-json')
    .argument(
      '[servers...]',
      'servers from the config\'s "mcpServers" (default: this toolwire, `serve` with the options after --)',
    )
    .option(
      '--scope <scope>',
      "user (the host's user config; the default) or project (a file in the current directory)",
    )
    .option('--file <path>', "write this file (in the host's format) instead of the host's own")
    .option('--name <name>', 'the entry name for toolwire itself (default: toolwire)')
    .option('--env <KEY=VALUE>', 'an environment variable for the server (repeatable)', collect)
    .option('--force', 'replace an entry of the same name (the file is backed up first)')
    .option('--dry-run', 'print the JSON that would be added and write nothing')
    .option('--config <file>', 'the toolwire config SERVER names come from (default: ./toolwire.json)')
    .addHelpText('after', '\nExample: toolwire install claude-desktop -- --tools calc,files --root ~/notes')
    .action((host: string, words: string[], options: InstallOptions) => {
      const { servers, serveArgs } = splitServeArguments(words, argv);
      exitCode = install(host, servers, serveArgs, options, cli);
    });

  program
    .command('dev')
    .description('Serve a tool module and reload it when it changes (stdio by default, or --http)')
    .argument('<module>', 'a tool module, like ./my-tools.mjs (the format `serve --tools` takes)')
    .option('--http <[host:]port>', 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio')
    .option(
      '--watch <path>',
      'another file or directory whose changes reload the module (repeatable)',
      collect,
    )
    .action(async (module: string, options: DevOptions) => {
      exitCode = await dev(module, options, { stderr: cli.stderr, cwd: cli.cwd, version });
    });

  addKeysCommand(program, cli, (code) => {
    exitCode = code;
  });
  addApprovalsCommand(program, cli, (code) => {
    exitCode = code;
  });
  addPinsCommand(program, cli, (code) => {
    exitCode = code;
  });
  addGatewayCommand(program, cli, (code) => {
    exitCode = code;
  });

  program
    .command('audit')
    .description('Show the audit trail (newest last), follow it, or check its hash chain with "audit verify"')
    .argument(
      '[action]',
      '"verify": check that no row was edited or deleted (exit 1 names the first bad row)',
    )
    .option('--db <path>', 'the SQLite audit file')
    .option('--postgres <url>', 'a postgres:// URL of the audit database')
    .option('--table <name>', 'the PostgreSQL table (default: toolwire_audit)')
    .option(
      '--config <file>',
      'a toolwire.json whose policy.audit says where the trail is (default: ./toolwire.json)',
    )
    .option('--since <when>', 'records from a time on: 30m, 1h, 7d, or an ISO date')
    .option('--subject <subject>', 'records of one caller')
    .option('--tool <name>', 'records of one tool')
    .option(
      '--outcome <outcome>',
      'result, tool_error, protocol_error, timeout, cancelled, denied, rate_limited…',
    )
    .option('--limit <n>', 'the newest N matching records (default 100)')
    .option('--json', 'one JSON object per line, exactly as stored')
    .option('--follow', 'keep printing new records until interrupted')
    .option('--interval <ms>', 'how often --follow looks for new records (default 1000)')
    .action(async (action: string | undefined, options: AuditCommandOptions) => {
      const interrupt = new AbortController();
      const onSigint = (): void => interrupt.abort();
      process.once('SIGINT', onSigint);
      try {
        exitCode = await audit(action, options, cli, interrupt.signal);
      } finally {
        process.off('SIGINT', onSigint);
      }
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.Success : ExitCode.Usage;
    cli.stderr.write(`toolwire: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.Usage;
  }
  return exitCode;
}
