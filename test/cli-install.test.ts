// `toolwire install` against temporary home directories: the right file for every host, OS layout and scope; a
// config that already holds other servers (kept byte for byte, backed up); malformed configs refused and left
// untouched; VS Code's comments kept; --force, --dry-run, --env, serve options after --, SERVER names from
// toolwire.json; a symlinked config; and the written command really starting. (Races: cli-install-files.test.ts.)

import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { McpClient } from '../src/client/index.js';
import { HOSTS, type HostId } from '../src/cli/host-configs.js';
import { install, type InstallOptions } from '../src/cli/install.js';
import { StdioClientTransport } from '../src/transports/stdio/index.js';
import { CLIENT_INFO, REPO_ROOT, runCli, within } from './fixtures/client/harness.js';

const BIN = join(REPO_ROOT, 'bin', 'toolwire.js');
const HINT = 'run "toolwire install --help" for usage\n';
const NOW = () => new Date('2026-05-01T12:30:45.678Z');
const BACKUP_SUFFIX = '.20260501T123045Z.bak';

const scratch = mkdtempSync(join(tmpdir(), 'toolwire-install-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

/** A fresh home and project directory; `env` is what the CLI would see. */
function sandbox(platform: NodeJS.Platform = 'linux', extraEnv: NodeJS.ProcessEnv = {}) {
  const base = join(scratch, `case-${++counter}`);
  const home = join(base, 'home');
  const project = join(base, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: NodeJS.ProcessEnv = platform === 'win32' ? { USERPROFILE: home } : { HOME: home };
  return { base, home, project, env: { ...env, ...extraEnv }, platform };
}

type Sandbox = ReturnType<typeof sandbox>;

function run(
  box: Sandbox,
  host: string,
  options: InstallOptions = {},
  serveArgs: string[] = [],
  servers: string[] = [],
) {
  let stdout = '';
  let stderr = '';
  const code = install(host, servers, serveArgs, options, {
    stdout: { write: (text: string) => ((stdout += text), true) } as NodeJS.WritableStream,
    stderr: { write: (text: string) => ((stderr += text), true) } as NodeJS.WritableStream,
    env: box.env,
    cwd: box.project,
    platform: box.platform,
    now: NOW,
  });
  return { code, stdout, stderr };
}

/** The entry `toolwire install` writes for the ready server rooted at `root`, in a host's shape. */
const toolwireEntry = (host: HostId, root: string, extra: string[] = []) => ({
  ...(host === 'claude-code' || host === 'vscode' ? { type: 'stdio' } : {}),
  command: process.execPath,
  args: [BIN, 'serve', ...extra, '--root', root],
});

const keyOf = (host: HostId): string => (host === 'vscode' ? 'servers' : 'mcpServers');

/** Where each host keeps its file, spelled out by hand (not by the code under test). */
const LAYOUTS: Array<{
  host: HostId;
  platform: NodeJS.Platform;
  scope?: 'user' | 'project';
  env?: (box: { base: string; home: string }) => NodeJS.ProcessEnv;
  file: (box: { base: string; home: string; project: string }) => string;
}> = [
  {
    host: 'claude-desktop',
    platform: 'linux',
    file: (b) => join(b.home, '.config/Claude/claude_desktop_config.json'),
  },
  {
    host: 'claude-desktop',
    platform: 'linux',
    env: (b) => ({ XDG_CONFIG_HOME: join(b.base, 'xdg') }),
    file: (b) => join(b.base, 'xdg/Claude/claude_desktop_config.json'),
  },
  {
    host: 'claude-desktop',
    platform: 'darwin',
    file: (b) => join(b.home, 'Library/Application Support/Claude/claude_desktop_config.json'),
  },
  {
    host: 'claude-desktop',
    platform: 'win32',
    env: (b) => ({ APPDATA: join(b.base, 'Roaming') }),
    file: (b) => join(b.base, 'Roaming/Claude/claude_desktop_config.json'),
  },
  {
    host: 'claude-desktop',
    platform: 'win32',
    file: (b) => join(b.home, 'AppData/Roaming/Claude/claude_desktop_config.json'),
  },
  { host: 'claude-code', platform: 'linux', file: (b) => join(b.home, '.claude.json') },
  { host: 'claude-code', platform: 'darwin', scope: 'user', file: (b) => join(b.home, '.claude.json') },
  { host: 'claude-code', platform: 'win32', file: (b) => join(b.home, '.claude.json') },
  { host: 'claude-code', platform: 'linux', scope: 'project', file: (b) => join(b.project, '.mcp.json') },
  { host: 'cursor', platform: 'linux', file: (b) => join(b.home, '.cursor/mcp.json') },
  { host: 'cursor', platform: 'win32', file: (b) => join(b.home, '.cursor/mcp.json') },
  { host: 'cursor', platform: 'darwin', scope: 'project', file: (b) => join(b.project, '.cursor/mcp.json') },
  { host: 'vscode', platform: 'linux', file: (b) => join(b.home, '.config/Code/User/mcp.json') },
  {
    host: 'vscode',
    platform: 'darwin',
    file: (b) => join(b.home, 'Library/Application Support/Code/User/mcp.json'),
  },
  {
    host: 'vscode',
    platform: 'win32',
    env: (b) => ({ APPDATA: join(b.base, 'Roaming') }),
    file: (b) => join(b.base, 'Roaming/Code/User/mcp.json'),
  },
  { host: 'vscode', platform: 'linux', scope: 'project', file: (b) => join(b.project, '.vscode/mcp.json') },
  { host: 'mcp-json', platform: 'linux', file: (b) => join(b.project, 'mcp.json') },
];

/** Every file under `dir`, relative, sorted: proves nothing else (backup, temp file) was left behind. */
function listing(dir: string): string[] {
  const files: string[] = [];
  const walk = (at: string, prefix: string): void => {
    for (const name of readdirSync(at, { withFileTypes: true })) {
      if (name.isDirectory()) walk(join(at, name.name), `${prefix}${name.name}/`);
      else files.push(`${prefix}${name.name}`);
    }
  };
  walk(dir, '');
  return files.sort();
}

describe('toolwire install: where each host keeps its servers', () => {
  for (const layout of LAYOUTS) {
    const label = `${layout.host} on ${layout.platform}${layout.scope ? ` (${layout.scope})` : ''}${layout.env ? ' with its env variable' : ''}`;
    it(`${label}: a new file with the entry in the host's shape`, () => {
      const probe = sandbox(layout.platform);
      const box = { ...probe, env: { ...probe.env, ...layout.env?.(probe) } };
      const run1 = run(box, layout.host, layout.scope === undefined ? {} : { scope: layout.scope });
      const file = layout.file(box);
      assert.equal(run1.stderr, '');
      assert.equal(run1.code, 0);
      assert.equal(run1.stdout.split('\n')[0], `added "toolwire" to ${file}`);
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
        [keyOf(layout.host)]: { toolwire: toolwireEntry(layout.host, box.project) },
      });
      assert.equal(statSync(file).mode & 0o777, 0o644);
    });
  }

  it('the report names the file, the command line and what to do next', () => {
    const box = sandbox();
    const result = run(box, 'claude-desktop', {}, ['--tools', 'calc']);
    const file = join(box.home, '.config/Claude/claude_desktop_config.json');
    assert.deepEqual(result, {
      code: 0,
      stdout:
        `added "toolwire" to ${file}\n` +
        `  runs: ${process.execPath} ${BIN} serve --tools calc --root ${box.project}\n` +
        'Quit and reopen Claude Desktop to load it.\n',
      stderr: '',
    });
  });
});

describe('toolwire install: a config that already holds other servers', () => {
  it('keeps every other entry, key and byte of layout, and backs the old file up with its mode', () => {
    const box = sandbox('darwin');
    const file = join(box.home, 'Library/Application Support/Claude/claude_desktop_config.json');
    const original =
      '{\n    "mcpServers": {\n        "zeta": { "command": "z", "args": ["1"] },\n        "alpha": {\n            "command": "a"\n        }\n    },\n    "globalShortcut": "Ctrl+Space"\n}\n';
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, original);
    chmodSync(file, 0o600);
    const result = run(box, 'claude-desktop', {}, ['--tools', 'calc']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      readFileSync(file, 'utf8'),
      '{\n    "mcpServers": {\n        "zeta": { "command": "z", "args": ["1"] },\n        "alpha": {\n            "command": "a"\n        },\n' +
        `        "toolwire": {\n            "command": ${JSON.stringify(process.execPath)},\n            "args": [\n` +
        `                ${JSON.stringify(BIN)},\n                "serve",\n                "--tools",\n                "calc",\n` +
        `                "--root",\n                ${JSON.stringify(box.project)}\n            ]\n        }\n` +
        '    },\n    "globalShortcut": "Ctrl+Space"\n}\n',
    );
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(readFileSync(file + BACKUP_SUFFIX, 'utf8'), original);
    assert.equal(statSync(file + BACKUP_SUFFIX).mode & 0o777, 0o600);
    assert.match(result.stdout, new RegExp(`  backup of the previous file: ${file}${BACKUP_SUFFIX}\\n`));
    assert.deepEqual(listing(dirname(file)), [
      'claude_desktop_config.json',
      `claude_desktop_config.json${BACKUP_SUFFIX}`,
    ]);
  });

  for (const host of HOSTS) {
    it(`${host}: other servers and other keys survive, in their order`, () => {
      const box = sandbox();
      const key = keyOf(host);
      const file =
        host === 'mcp-json'
          ? join(box.project, 'mcp.json')
          : (LAYOUTS.find((l) => l.host === host) as (typeof LAYOUTS)[0]).file(box);
      const before = { first: true, [key]: { other: { command: 'other', args: ['--x'] } }, last: [1, 2] };
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(before, null, 2) + '\n');
      assert.equal(run(box, host).code, 0);
      const text = readFileSync(file, 'utf8');
      const after = JSON.parse(text) as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(after), ['first', key, 'last']);
      assert.deepEqual(Object.keys(after[key] as object), ['other', 'toolwire']);
      assert.deepEqual(after[key]?.other, { command: 'other', args: ['--x'] });
      assert.deepEqual(after[key]?.toolwire, toolwireEntry(host, box.project));
      assert.equal(readFileSync(file + BACKUP_SUFFIX, 'utf8'), JSON.stringify(before, null, 2) + '\n');
    });
  }

  it('CRLF line endings and tab indentation are kept', () => {
    const box = sandbox();
    const file = join(box.home, '.cursor/mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{\r\n\t"mcpServers": {\r\n\t\t"a": {"command": "a"}\r\n\t}\r\n}\r\n');
    assert.equal(run(box, 'cursor', { name: 'tw' }).code, 0);
    const text = readFileSync(file, 'utf8');
    assert.equal(text.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF');
    assert.ok(
      text.startsWith(
        '{\r\n\t"mcpServers": {\r\n\t\t"a": {"command": "a"},\r\n\t\t"tw": {\r\n\t\t\t"command": ',
      ),
    );
    assert.ok(text.endsWith('\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n'));
  });

  it('VS Code: comments and trailing commas (JSONC) are kept where they were', () => {
    const box = sandbox();
    const file = join(box.project, '.vscode/mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    const original =
      '// team servers\n{\n  "servers": {\n    "a": { "type": "stdio", "command": "a" }, // the a server\n    /* more later */\n  },\n  "inputs": [],\n}\n';
    writeFileSync(file, original);
    assert.equal(run(box, 'vscode', { scope: 'project' }).code, 0);
    const entry = JSON.stringify(toolwireEntry('vscode', box.project), null, 2).split('\n').join('\n    ');
    assert.equal(
      readFileSync(file, 'utf8'),
      '// team servers\n{\n  "servers": {\n    "a": { "type": "stdio", "command": "a" }, // the a server\n    /* more later */\n' +
        `    "toolwire": ${entry}\n  },\n  "inputs": [],\n}\n`,
    );
  });

  it('an empty file and a file without the servers key get the key', () => {
    const box = sandbox();
    const file = join(box.home, '.claude.json');
    writeFileSync(file, '');
    assert.equal(run(box, 'claude-code').code, 0);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
      mcpServers: { toolwire: toolwireEntry('claude-code', box.project) },
    });
    writeFileSync(file, '{"numStartups": 3, "projects": {}}');
    assert.equal(run(box, 'claude-code', { force: true }).code, 0);
    assert.equal(
      readFileSync(file, 'utf8'),
      `{"numStartups": 3, "projects": {}, "mcpServers": ${JSON.stringify({ toolwire: toolwireEntry('claude-code', box.project) })}}`,
    );
  });
});

describe('toolwire install: malformed configs are refused and left untouched', () => {
  const refuse = (box: Sandbox, host: string, file: string, content: string, message: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    const files = listing(box.base);
    assert.deepEqual(run(box, host), { code: 2, stdout: '', stderr: `toolwire: ${message}\n` });
    assert.equal(readFileSync(file, 'utf8'), content, 'the file is unchanged');
    assert.deepEqual(listing(box.base), files, 'no backup and no temporary file');
  };
  const TAIL = 'nothing was changed (fix the file, or move it away to start a new one)';

  for (const host of HOSTS) {
    it(`${host}: an unterminated object`, () => {
      const box = sandbox();
      const layout = LAYOUTS.find((l) => l.host === host && l.platform === 'linux') as (typeof LAYOUTS)[0];
      const file = layout.file(box);
      refuse(
        box,
        host,
        file,
        `{\n  "${keyOf(host)}": { "other": { "command": "x" } }\n`,
        `${file} is not valid ${host === 'vscode' ? 'JSON with comments' : 'JSON'}: an object that is never closed, starting at line 1, column 1; ${TAIL}`,
      );
    });
  }

  it('plain-JSON hosts refuse comments and trailing commas (their own parser would fail on them)', () => {
    const box = sandbox();
    const file = join(box.home, '.config/Claude/claude_desktop_config.json');
    refuse(
      box,
      'claude-desktop',
      file,
      '{\n  // mine\n  "mcpServers": {}\n}\n',
      `${file} is not valid JSON: a comment, which plain JSON does not allow, at line 2, column 3; ${TAIL}`,
    );
    refuse(
      box,
      'claude-desktop',
      file,
      '{"mcpServers": {"a": {"command": "a"},}}',
      `${file} is not valid JSON: a trailing comma, which plain JSON does not allow, at line 1, column 38; ${TAIL}`,
    );
  });

  it('a top level that is not an object, servers that are not an object, and a doubled key', () => {
    const box = sandbox();
    const file = join(box.home, '.cursor/mcp.json');
    refuse(
      box,
      'cursor',
      file,
      '[]',
      `${file} holds an array at the top, not an object with "mcpServers"; nothing was changed`,
    );
    refuse(
      box,
      'cursor',
      file,
      '{"mcpServers": "none"}',
      `"mcpServers" in ${file} is "none", not an object of named servers; nothing was changed`,
    );
    refuse(
      box,
      'cursor',
      file,
      '{"mcpServers": {}, "mcpServers": {}}',
      `${file} has the key "mcpServers" twice; nothing was changed`,
    );
    refuse(
      box,
      'cursor',
      file,
      '{"mcpServers": {"toolwire": {"command": "a"}, "toolwire": {"command": "b"}}}',
      `${file} has a server named "toolwire" twice; nothing was changed`,
    );
  });

  it('a directory where the file should be is refused', () => {
    const box = sandbox();
    const file = join(box.home, '.claude.json');
    mkdirSync(file);
    assert.deepEqual(run(box, 'claude-code'), {
      code: 2,
      stdout: '',
      stderr: `toolwire: ${file} is a directory, not a config file\n`,
    });
  });
});

describe('toolwire install: same name, --force, --dry-run, --env', () => {
  it('a different entry of the same name needs --force; an identical one is left alone', () => {
    const box = sandbox();
    const file = join(box.home, '.cursor/mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    const original = '{"mcpServers": {"toolwire": {"command": "old"}}}';
    writeFileSync(file, original);
    assert.deepEqual(run(box, 'cursor'), {
      code: 2,
      stdout: '',
      stderr: `toolwire: ${file} already has a different server named "toolwire"; pass --force to replace it (the file is backed up first) or --name to add this one under another name; nothing was changed\n`,
    });
    assert.equal(readFileSync(file, 'utf8'), original);
    const forced = run(box, 'cursor', { force: true });
    assert.equal(forced.code, 0);
    assert.match(forced.stdout, /^replaced "toolwire" in /);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
      mcpServers: { toolwire: toolwireEntry('cursor', box.project) },
    });
    assert.equal(readFileSync(file + BACKUP_SUFFIX, 'utf8'), original);
    const written = readFileSync(file, 'utf8');
    assert.deepEqual(run(box, 'cursor'), {
      code: 0,
      stdout: `"toolwire" in ${file} is already up to date\nNothing was changed.\n`,
      stderr: '',
    });
    assert.equal(readFileSync(file, 'utf8'), written);
    assert.deepEqual(listing(dirname(file)), ['mcp.json', `mcp.json${BACKUP_SUFFIX}`]);
  });

  it('--dry-run prints the JSON it would write and writes nothing', () => {
    const box = sandbox();
    const files = listing(box.base);
    const result = run(box, 'vscode', { dryRun: true, env: ['TOKEN=abc'] });
    const file = join(box.home, '.config/Code/User/mcp.json');
    assert.deepEqual(result, {
      code: 0,
      stdout:
        JSON.stringify(
          { servers: { toolwire: { ...toolwireEntry('vscode', box.project), env: { TOKEN: 'abc' } } } },
          null,
          2,
        ) + '\n',
      stderr: `toolwire: dry run: would add "toolwire" to ${file} (a new file); nothing was written\n`,
    });
    assert.deepEqual(listing(box.base), files);
  });

  it('--dry-run still refuses a malformed file', () => {
    const box = sandbox();
    const file = join(box.project, 'mcp.json');
    writeFileSync(file, '{');
    assert.equal(run(box, 'mcp-json', { dryRun: true }).code, 2);
  });

  it('--env goes into the entry; a new file holding it is private (0600); project scope warns', () => {
    const box = sandbox();
    const result = run(box, 'claude-code', { scope: 'project', env: ['API_KEY=s3cret', 'MODE=a=b'] });
    const file = join(box.project, '.mcp.json');
    assert.equal(result.code, 0);
    assert.equal(
      result.stderr,
      `toolwire: warning: the --env values go into ${file}, a project file that is often committed to version control\n`,
    );
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).mcpServers.toolwire.env, {
      API_KEY: 's3cret',
      MODE: 'a=b',
    });
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });
});

describe('toolwire install: what the entry runs', () => {
  it('serve options after -- are checked, and their paths made absolute', () => {
    const box = sandbox();
    mkdirSync(join(box.project, 'notes'));
    writeFileSync(join(box.project, 'my-tools.mjs'), 'export default [];\n');
    writeFileSync(join(box.project, 'toolwire.json'), '{}');
    const file = join(box.project, 'mcp.json');
    assert.equal(
      run(box, 'mcp-json', {}, [
        '--stdio',
        '--tools=calc, ./my-tools.mjs',
        '--root',
        'notes',
        '--config',
        'toolwire.json',
      ]).code,
      0,
    );
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).mcpServers.toolwire.args, [
      BIN,
      'serve',
      '--tools',
      `calc,${join(box.project, 'my-tools.mjs')}`,
      '--root',
      join(box.project, 'notes'),
      '--config',
      join(box.project, 'toolwire.json'),
    ]);
  });

  it('bad serve options and bad names are usage errors that change nothing', () => {
    const box = sandbox();
    const usage = (args: string[], options: InstallOptions, message: string, host = 'mcp-json') =>
      assert.deepEqual(run(box, host, options, args), {
        code: 2,
        stdout: '',
        stderr: `toolwire: ${message}\n${HINT}`,
      });
    usage(['--http', '127.0.0.1:0'], {}, 'the host starts an installed server over stdio: leave out --http');
    usage(
      ['--tools', 'calcc'],
      {},
      'unknown tool pack "calcc"; packs: calc, files, search, csv, exec, http, github',
    );
    usage(
      ['--tools', './missing.mjs'],
      {},
      `tool module ./missing.mjs does not exist (${join(box.project, 'missing.mjs')})`,
    );
    usage(
      ['--root', 'nowhere'],
      {},
      `serve option --root: ${join(box.project, 'nowhere')} is not a directory`,
    );
    usage(['--root'], {}, 'serve option --root needs a value');
    usage(
      ['--verbose'],
      {},
      '"--verbose" is not a serve option install can write; after -- give --tools, --root or --config',
    );
    usage(
      [],
      { name: 'my server' },
      '--name "my server" cannot name a server: use up to 64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
    usage([], { env: ['NOEQUALS'] }, '--env expects KEY=VALUE, got "NOEQUALS"');
    usage([], { env: ['A=1', 'A=2'] }, '--env A is given twice');
    usage([], { scope: 'user' }, 'mcp.json has no "user" scope; use --scope project, or --file');
    usage(
      [],
      { scope: 'project' },
      'Claude Desktop has no "project" scope; use --scope user, or --file',
      'claude-desktop',
    );
    usage([], { scope: 'user', file: 'x.json' }, '--file and --scope both choose the file: give one of them');
    usage(
      [],
      {},
      'unknown host "claude"; hosts: claude-desktop, claude-code, cursor, vscode, mcp-json',
      'claude',
    );
    assert.deepEqual(listing(box.project), []);
  });

  it("--file writes any file in the host's shape", () => {
    const box = sandbox();
    const file = join(box.base, 'elsewhere', 'servers.json');
    assert.equal(run(box, 'vscode', { file }).code, 0);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, 'utf8'))), ['servers']);
  });

  it("SERVER names are copied from toolwire.json in the host's shape", () => {
    const box = sandbox();
    writeFileSync(
      join(box.project, 'toolwire.json'),
      JSON.stringify({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', 'server-filesystem', '/data'], env: { A: '1' }, trusted: true },
          remote: { url: 'https://mcp.example.test/mcp', headers: { 'X-Team': 'blue' } },
          here: { command: 'node', cwd: 'sub' },
        },
      }),
    );
    assert.equal(run(box, 'claude-code', { scope: 'project', env: ['B=2'] }, [], ['fs', 'remote']).code, 0);
    assert.deepEqual(JSON.parse(readFileSync(join(box.project, '.mcp.json'), 'utf8')), {
      mcpServers: {
        fs: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'server-filesystem', '/data'],
          env: { A: '1', B: '2' },
        },
        remote: { type: 'http', url: 'https://mcp.example.test/mcp', headers: { 'X-Team': 'blue' } },
      },
    });
    const usage = (
      host: string,
      servers: string[],
      message: string,
      options: InstallOptions = {},
      args: string[] = [],
    ) =>
      assert.deepEqual(run(box, host, options, args, servers), {
        code: 2,
        stdout: '',
        stderr: `toolwire: ${message}\n${HINT}`,
      });
    const config = join(box.project, 'toolwire.json');
    usage(
      'claude-desktop',
      ['remote'],
      'server "remote" is remote (a "url"), and Claude Desktop\'s config file starts local servers only; add it in Claude Desktop\'s settings instead',
    );
    usage(
      'cursor',
      ['here'],
      `server "here" in ${config} has "cwd", which Cursor cannot express: use absolute paths in its command and args instead`,
    );
    usage(
      'cursor',
      ['fss'],
      `there is no server "fss" in the "mcpServers" of ${config} (did you mean "fs"?); it has: fs, remote, here`,
    );
    const empty = sandbox();
    assert.deepEqual(run(empty, 'cursor', {}, [], ['fs']), {
      code: 2,
      stdout: '',
      stderr: `toolwire: SERVER names come from the "mcpServers" of a toolwire config, and there is no ${join(empty.project, 'toolwire.json')} (--config FILE reads another)\n${HINT}`,
    });
    usage(
      'cursor',
      ['fs'],
      '--name names the toolwire entry; SERVER names keep their names from the config',
      { name: 'x' },
    );
    usage('cursor', ['fs'], 'serve options after -- apply to the toolwire entry, not to SERVER names', {}, [
      '--tools',
      'calc',
    ]);
  });

  it(
    "the written entry starts this installation's server (absolute paths, any working directory)",
    { timeout: 60_000 },
    async () => {
      const box = sandbox();
      assert.equal(run(box, 'mcp-json', {}, ['--tools', 'calc']).code, 0);
      const entry = JSON.parse(readFileSync(join(box.project, 'mcp.json'), 'utf8')).mcpServers.toolwire as {
        command: string;
        args: string[];
      };
      const client = new McpClient(CLIENT_INFO);
      try {
        // Started from / as a host might: nothing in the entry may depend on the directory it runs in.
        await within(
          client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, cwd: '/' })),
          30_000,
          'connect',
        );
        const tools = await within(client.listTools(), 30_000, 'tools/list');
        assert.ok(
          tools.some((tool) => tool.name === 'calculate'),
          tools.map((tool) => tool.name).join(', '),
        );
      } finally {
        await client.close();
      }
    },
  );
});

describe('toolwire install: files that are links or change under us', () => {
  it('a symlinked config (a dotfiles repository) is written through the link, which survives', () => {
    const box = sandbox();
    const real = join(box.base, 'dotfiles', 'cursor-mcp.json');
    mkdirSync(dirname(real), { recursive: true });
    writeFileSync(real, '{"mcpServers": {}}');
    mkdirSync(join(box.home, '.cursor'));
    const link = join(box.home, '.cursor/mcp.json');
    symlinkSync(real, link);
    assert.equal(run(box, 'cursor').code, 0);
    assert.ok(statSync(link).isFile());
    assert.equal(readdirSync(join(box.home, '.cursor')).length, 1);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(real, 'utf8')).mcpServers), ['toolwire']);
    assert.equal(readFileSync(real + BACKUP_SUFFIX, 'utf8'), '{"mcpServers": {}}');
  });
});

describe('toolwire install: the command line', () => {
  it(
    'serve options after -- reach the entry; SERVER names and -- split as typed',
    { timeout: 30_000 },
    async () => {
      const box = sandbox();
      const run1 = await runCli(['install', 'cursor', '--dry-run', '--', '--tools', 'calc'], {
        cwd: box.project,
        env: { ...process.env, HOME: box.home },
      });
      assert.equal(run1.code, 0, run1.stderr);
      assert.deepEqual(JSON.parse(run1.stdout).mcpServers.toolwire.args.slice(1), [
        'serve',
        '--tools',
        'calc',
        '--root',
        box.project,
      ]);
      assert.equal(
        run1.stderr,
        `toolwire: dry run: would add "toolwire" to ${join(box.home, '.cursor/mcp.json')} (a new file); nothing was written\n`,
      );
    },
  );
});
