// Where each MCP host keeps its servers, per operating system and scope, and the shape of one server entry there.
// Pure: the platform, home and config directories come in as arguments, so every layout is testable anywhere.
//
//   claude-desktop  user     macOS ~/Library/Application Support/Claude/claude_desktop_config.json,
//                            Windows %APPDATA%\Claude\…, Linux $XDG_CONFIG_HOME (~/.config)/Claude/…   "mcpServers"
//   claude-code     user     ~/.claude.json                      project  ./.mcp.json                   "mcpServers"
//   cursor          user     ~/.cursor/mcp.json                  project  ./.cursor/mcp.json            "mcpServers"
//   vscode          user     <VS Code user dir>/mcp.json         project  ./.vscode/mcp.json            "servers"
//   mcp-json        project  ./mcp.json (the plain shape many other clients read)                       "mcpServers"

import { join } from 'node:path';
import { UsageError } from './errors.js';

export const HOSTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'mcp-json'] as const;
export type HostId = (typeof HOSTS)[number];
export type Scope = 'user' | 'project';

/** Where files go: injected, never read from the process here. */
export interface HostEnvironment {
  platform: NodeJS.Platform;
  home: string;
  /** %APPDATA% on Windows (default: HOME\AppData\Roaming). */
  appData?: string;
  /** $XDG_CONFIG_HOME on Linux and other Unixes (default: ~/.config). */
  xdgConfigHome?: string;
  /** The project directory for project scope. */
  cwd: string;
}

/** A server that the host starts as a child process. */
export interface StdioServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** A server the host reaches over Streamable HTTP. */
export interface HttpServer {
  url: string;
  headers?: Record<string, string>;
}

export interface HostSpec {
  id: HostId;
  /** The product's name, for messages. */
  label: string;
  /** The top-level key that maps names to servers. */
  key: 'mcpServers' | 'servers';
  /** The host reads JSON with comments and trailing commas (so toolwire accepts them, and keeps them). */
  jsonc: boolean;
  /** The scopes the host has; the first is the default. */
  scopes: readonly Scope[];
  file(scope: Scope, env: HostEnvironment): string;
  stdioEntry(server: StdioServer): Record<string, unknown>;
  /** Undefined when the host's config file cannot hold a remote server. */
  httpEntry?: (server: HttpServer) => Record<string, unknown>;
  /** What the user does next for the host to see the change. */
  afterwards: string;
}

/** The per-user application data directory an Electron app (Claude Desktop, VS Code) uses on each platform. */
function appDataDir(env: HostEnvironment): string {
  if (env.platform === 'darwin') return join(env.home, 'Library', 'Application Support');
  if (env.platform === 'win32') return env.appData ?? join(env.home, 'AppData', 'Roaming');
  return env.xdgConfigHome ?? join(env.home, '.config');
}

const plainStdio = (server: StdioServer): Record<string, unknown> => ({
  command: server.command,
  args: server.args,
  ...(server.env !== undefined && { env: server.env }),
});
const typedStdio = (server: StdioServer): Record<string, unknown> => ({
  type: 'stdio',
  ...plainStdio(server),
});
const plainHttp = (server: HttpServer): Record<string, unknown> => ({
  url: server.url,
  ...(server.headers !== undefined && { headers: server.headers }),
});
const typedHttp = (server: HttpServer): Record<string, unknown> => ({ type: 'http', ...plainHttp(server) });

const SPECS: Record<HostId, HostSpec> = {
  'claude-desktop': {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    key: 'mcpServers',
    jsonc: false,
    scopes: ['user'],
    file: (_scope, env) => join(appDataDir(env), 'Claude', 'claude_desktop_config.json'),
    stdioEntry: plainStdio,
    afterwards: 'Quit and reopen Claude Desktop to load it.',
  },
  'claude-code': {
    id: 'claude-code',
    label: 'Claude Code',
    key: 'mcpServers',
    jsonc: false,
    scopes: ['user', 'project'],
    file: (scope, env) => (scope === 'user' ? join(env.home, '.claude.json') : join(env.cwd, '.mcp.json')),
    stdioEntry: typedStdio,
    httpEntry: typedHttp,
    afterwards: 'Start a new Claude Code session to load it ("claude mcp list" shows it).',
  },
  cursor: {
    id: 'cursor',
    label: 'Cursor',
    key: 'mcpServers',
    jsonc: false,
    scopes: ['user', 'project'],
    file: (scope, env) =>
      scope === 'user' ? join(env.home, '.cursor', 'mcp.json') : join(env.cwd, '.cursor', 'mcp.json'),
    stdioEntry: plainStdio,
    httpEntry: plainHttp,
    afterwards: "Cursor picks it up from its MCP settings (turn it on there if it isn't).",
  },
  vscode: {
    id: 'vscode',
    label: 'VS Code',
    key: 'servers',
    jsonc: true,
    scopes: ['user', 'project'],
    file: (scope, env) =>
      scope === 'user'
        ? join(appDataDir(env), 'Code', 'User', 'mcp.json')
        : join(env.cwd, '.vscode', 'mcp.json'),
    stdioEntry: typedStdio,
    httpEntry: typedHttp,
    afterwards: 'VS Code offers to start it from its MCP server list (or run "MCP: List Servers").',
  },
  'mcp-json': {
    id: 'mcp-json',
    label: 'mcp.json',
    key: 'mcpServers',
    jsonc: false,
    scopes: ['project'],
    file: (_scope, env) => join(env.cwd, 'mcp.json'),
    stdioEntry: plainStdio,
    httpEntry: plainHttp,
    afterwards: 'Point your MCP client at this file.',
  },
};

/** The spec of a host named on the command line; an unknown name is a usage error that lists the hosts. */
export function hostSpec(name: string): HostSpec {
  if (!(HOSTS as readonly string[]).includes(name)) {
    throw new UsageError(`unknown host ${JSON.stringify(name)}; hosts: ${HOSTS.join(', ')}`);
  }
  return SPECS[name as HostId]; // checked just above
}

/** The scope to use: the one asked for when the host has it, else the host's default. */
export function chooseScope(spec: HostSpec, asked: string | undefined): Scope {
  if (asked === undefined) return spec.scopes[0] as Scope; // every host has at least one scope
  if (!(spec.scopes as readonly string[]).includes(asked)) {
    throw new UsageError(
      `${spec.label} has no ${JSON.stringify(asked)} scope; use --scope ${spec.scopes.join(' or --scope ')}, or --file`,
    );
  }
  return asked as Scope;
}
