// The command line: parses arguments with commander and hands each command to its own module.

import { readFileSync } from 'node:fs';
import { Command, CommanderError, Help, Option } from 'commander';
import type { AuditCommandOptions } from './audit.js';
import type { CallCommandOptions } from './call.js';
import { ExitCode } from './errors.js';
import type { ListOptions } from './list.js';
import type { LoginOptions } from './login.js';
import type { ServeOptions } from './serve.js';
import type { CliIo, CommonOptions } from './session.js';
import type { DevOptions } from './dev.js';
import type { InstallOptions } from './install.js';
import type { PromptCommandOptions } from './prompts.js';
import type { ReadCommandOptions } from './resources.js';
import { packageFile } from '../own-files.js';

// Startup: every command's module is imported when that command runs (`await import('./list.js')` in its action),
// never at the top of this file: loading them all cost `toolwire --version` ~200 ms and 400 modules.

/** A command that registers itself with its subcommands (`addXCommand(program, io, done)`). */
interface CommandGroup {
  name: string;
  /** Shown in `toolwire --help` without loading the module; main.test.ts checks it is the module's own. */
  description: string;
  /** How `toolwire --help` lists it when it takes options or arguments, such as "gateway [options] [action]". */
  term?: string;
  load: () => Promise<(program: Command, io: CliIo, done: (code: number) => void) => void>;
}

/** The groups: only the one named on the command line is loaded; the others are listed in help by description. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    name: 'keys',
    description: 'Create, list and revoke API keys (for servers without an authorization server)',
    load: async () => (await import('./keys.js')).addKeysCommand,
  },
  {
    name: 'approvals',
    description: 'List, approve and deny tool calls waiting for a human (needs the approvals:decide scope)',
    load: async () => (await import('./approvals.js')).addApprovalsCommand,
  },
  {
    name: 'pins',
    description:
      'Tool definitions and upstream servers pinned on first use: list them, show what changed, approve a change',
    load: async () => (await import('./pins.js')).addPinsCommand,
  },
  {
    name: 'gateway',
    description:
      'Serve the servers of "mcpServers" behind one endpoint (stdio by default, or --http); "gateway status" shows their health',
    term: 'gateway [options] [action]',
    load: async () => (await import('./gateway.js')).addGatewayCommand,
  },
];

/** The command the arguments run (`toolwire help pins` runs pins' help). */
const commandWord = (argv: readonly string[]): string | undefined => (argv[0] === 'help' ? argv[1] : argv[0]);

const packageVersion = (): string => {
  const text = readFileSync(packageFile('package.json'), 'utf8');
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
  const named = commandWord(argv);
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

  const serveCommand = program
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
    .option('--config <file>', 'a toolwire.json with tools, roots, timeouts, packs and http settings');
  // Its HTTP flags are read from the server side's table: added only when serve runs or shows its help.
  if (named === 'serve') (await import('./serve.js')).addHttpFlags(serveCommand);
  serveCommand.action(async (options: ServeOptions) => {
    const { serve } = await import('./serve.js');
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
      const { list } = await import('./list.js');
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
        const { call } = await import('./call.js');
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
    const { resources } = await import('./resources.js');
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
      const { read } = await import('./resources.js');
      exitCode = await read(target, uri, options, cli);
    });

  common(
    program
      .command('prompts')
      .description("List a server's prompts and their arguments")
      .argument('<target>', 'URL, config name or command line'),
  ).action(async (target: string, options: CommonOptions) => {
    const { prompts } = await import('./prompts.js');
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
      const { prompt } = await import('./prompts.js');
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
        const { login } = await import('./login.js');
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
      const { logout } = await import('./logout.js');
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
    .action(async (host: string, words: string[], options: InstallOptions) => {
      const { install, splitServeArguments } = await import('./install.js');
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
      const { dev } = await import('./dev.js');
      exitCode = await dev(module, options, { stderr: cli.stderr, cwd: cli.cwd, version });
    });

  for (const group of COMMAND_GROUPS) {
    if (group.name !== named) {
      program.command(group.name).description(group.description);
      continue;
    }
    (await group.load())(program, cli, (code) => {
      exitCode = code;
    });
  }
  const terms = new Map(COMMAND_GROUPS.map((group) => [group.name, group.term]));
  const help = new Help();
  program.configureHelp({
    subcommandTerm: (command) => terms.get(command.name()) ?? help.subcommandTerm(command),
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
        const { audit } = await import('./audit.js');
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
