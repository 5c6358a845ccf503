// The exec pack: allowlist, no shell, confined cwd, reduced environment, output caps, and process-group killing.

import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult } from '../src/protocol/index.js';
import { ConfigError } from '../src/tools/pack.js';
import { Roots } from '../src/tools/roots.js';
import { execPack } from '../src/tools/exec/index.js';
import { capturingLogger, connect, modern, testServer, type RawClient } from './support/harness.js';

const CALL_WAIT_MS = 10_000;
const HAS_PROC = existsSync('/proc/self/stat');
let root: string;
let roots: Roots;

before(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolwire-exec-')));
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'file.txt'), 'not a directory');
  roots = await Roots.create([root]);
});

after(() => rmSync(root, { recursive: true, force: true }));

/** A client connected to a server with the exec pack created from `raw` config. */
async function execClient(
  raw: JsonObject,
  timeouts: Record<string, number> = {},
  confinedTo: Roots = roots,
): Promise<RawClient> {
  const config = execPack.parseConfig(raw, 'packs.exec');
  const server = testServer();
  for (const tool of execPack.create(config, { roots: confinedTo, logger: capturingLogger(), timeouts }))
    server.tool(tool);
  return connect(server);
}

/** A tool result whose structuredContent (an object here) can be read field by field. */
type Result = CallToolResult & { structuredContent?: JsonObject };

async function run(client: RawClient, args: JsonObject, meta: JsonObject = {}): Promise<Result> {
  const response = await client.request(
    'tools/call',
    modern({ name: 'execute_command', arguments: args }, meta),
    {
      timeoutMs: CALL_WAIT_MS,
    },
  );
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result as unknown as Result;
}

const textOf = (result: CallToolResult): string => {
  const first = result.content[0];
  assert.ok(first !== undefined && first.type === 'text', 'the first block is text');
  return first.text;
};

/** Live (not zombie) processes whose process group is `pgid`, read from /proc. */
function liveMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(name));
  }
  return members;
}

const isAlive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
};

/** Polls `check` every 20 ms, at most `limitMs`; resolves with its last answer. */
async function pollUntil(check: () => boolean, limitMs = 3_000): Promise<boolean> {
  for (let waited = 0; waited < limitMs; waited += 20) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe('exec pack: configuration', () => {
  it('creates no tools without an allowlist (the default) or with an empty one', () => {
    const environment = { roots, logger: capturingLogger(), timeouts: {} };
    assert.deepEqual(execPack.create(execPack.parseConfig(undefined, 'packs.exec'), environment), []);
    assert.deepEqual(execPack.create(execPack.parseConfig({ allowlist: [] }, 'packs.exec'), environment), []);
  });

  it('resolves names to absolute paths once, at startup, and logs what may run', () => {
    const logger = capturingLogger();
    const config = execPack.parseConfig({ allowlist: ['sh', '/bin/sh'], searchPath: ['/bin'] }, 'packs.exec');
    assert.deepEqual(
      [...config.commands],
      [
        ['sh', '/bin/sh'],
        ['/bin/sh', '/bin/sh'],
      ],
    );
    assert.equal(execPack.create(config, { roots, logger, timeouts: {} }).length, 1);
    assert.equal(logger.text(), 'warn: exec pack: execute_command may run sh (/bin/sh), /bin/sh ');
  });

  const refusals: [string, unknown, string][] = [
    [
      'an unknown key',
      { allowlist: ['echo'], shell: true },
      'packs.exec has an unknown key "shell"; allowed keys: allowlist, searchPath, envAllowlist, maxOutputBytes, maxTimeoutMs, killGraceMs',
    ],
    [
      'a config that is not an object',
      ['echo'],
      'packs.exec must be an object with the optional keys allowlist, searchPath, envAllowlist, maxOutputBytes, maxTimeoutMs, killGraceMs; got ["echo"]',
    ],
    [
      'a relative path in the allowlist',
      { allowlist: ['./run.sh'] },
      'packs.exec.allowlist[0] must be a program name (like "git") or a normalised absolute path (like "/usr/bin/git"); got "./run.sh"',
    ],
    [
      'a path with ".." in the allowlist',
      { allowlist: ['/usr/bin/../bin/sh'] },
      'packs.exec.allowlist[0] must be a program name (like "git") or a normalised absolute path (like "/usr/bin/git"); got "/usr/bin/../bin/sh"',
    ],
    [
      'a shell command line in the allowlist',
      { allowlist: ['rm -rf'] },
      'packs.exec.allowlist[0] must be a program name (like "git") or a normalised absolute path (like "/usr/bin/git"); got "rm -rf"',
    ],
    [
      'a program that is not on the search path',
      { allowlist: ['no-such-program-xyz'], searchPath: ['/bin', '/usr/bin'] },
      'packs.exec.allowlist: "no-such-program-xyz" was not found in /bin:/usr/bin',
    ],
    [
      'an absolute path that is not executable',
      { allowlist: ['/etc/hostname-does-not-exist'] },
      'packs.exec.allowlist: "/etc/hostname-does-not-exist" is not an executable file',
    ],
    [
      'a relative search path',
      { allowlist: ['sh'], searchPath: ['bin'] },
      'packs.exec.searchPath[0] must be a normalised absolute directory path; got "bin"',
    ],
    [
      'a bad environment variable name',
      { allowlist: ['sh'], envAllowlist: ['PATH', 'A=B'] },
      'packs.exec.envAllowlist[1] must be an environment variable name like "LANG"; got "A=B"',
    ],
    [
      'an allowlist that is not a list',
      { allowlist: 'echo' },
      'packs.exec.allowlist must be a list of at most 256 strings; got "echo"',
    ],
    [
      'a time limit out of range',
      { allowlist: ['sh'], maxTimeoutMs: 50 },
      'packs.exec.maxTimeoutMs must be a whole number of ms from 100 to 3600000; got 50',
    ],
    [
      'an output limit that is not a number',
      { allowlist: ['sh'], maxOutputBytes: '1MB' },
      'packs.exec.maxOutputBytes must be a whole number of bytes from 1024 to 67108864; got "1MB"',
    ],
  ];
  for (const [what, raw, message] of refusals) {
    it(`refuses ${what}`, () => {
      assert.throws(() => execPack.parseConfig(raw, 'packs.exec'), { name: ConfigError.name, message });
    });
  }
});

describe('exec pack: execute_command', () => {
  it('lists the tool with honest annotations, the allowlist and the configured time limit', async () => {
    const client = await execClient({ allowlist: ['echo'], maxTimeoutMs: 5_000 });
    const response = await client.request('tools/list', modern());
    const tools = response.result?.tools as JsonObject[];
    assert.equal(tools.length, 1);
    const tool = tools[0] as JsonObject & { inputSchema: { properties: Record<string, JsonObject> } };
    assert.equal(tool.name, 'execute_command');
    assert.deepEqual(tool.annotations, {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    assert.deepEqual(tool.inputSchema.properties.timeoutMs, {
      type: 'integer',
      minimum: 100,
      maximum: 5000,
      default: 5000,
      description: 'Time limit in milliseconds; the whole process group is killed when it runs out',
    });
    assert.match(String(tool.description), /allowlist \(echo\)/);
    assert.match(String(tool.description), /Example: \{"command":"echo","args":\["--version"\]\}/);
  });

  it('passes shell metacharacters through as plain text: there is no shell', async () => {
    const client = await execClient({ allowlist: ['echo'] });
    const hostile = [
      '; rm -rf /',
      '$(id)',
      '`id`',
      '&& touch pwned',
      '| cat /etc/passwd',
      'a\nb',
      '*',
      '> out',
      '$HOME',
    ];
    const result = await run(client, { command: 'echo', args: hostile });
    const stdout = `${hostile.join(' ')}\n`;
    assert.equal(result.isError, false);
    assert.equal(textOf(result), `echo exited with code 0.\n\nstdout:\n${stdout}`);
    const structured = result.structuredContent as JsonObject;
    assert.ok(typeof structured.durationMs === 'number' && structured.durationMs >= 0);
    assert.deepEqual(structured, {
      command: 'echo',
      args: hostile,
      cwd: root,
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: structured.durationMs,
      stdout,
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
    });
    assert.equal(existsSync(join(root, 'pwned')), false);
    assert.equal(existsSync(join(root, 'out')), false);
  });

  const notAllowed = (command: string) =>
    `command ${JSON.stringify(command)} is not allowed; allowed commands: echo, pwd. ` +
    'Give the program exactly as listed, and its arguments in "args"';
  for (const command of ['/bin/sh', '../../bin/sh', 'sh', 'ECHO', 'echo ', 'echo; sh', '/bin/echo']) {
    it(`refuses ${JSON.stringify(command)}, naming the allowed commands`, async () => {
      const client = await execClient({ allowlist: ['echo', 'pwd'] });
      const result = await run(client, { command, args: ['-c', 'id'] });
      assert.deepEqual(result.content, [{ type: 'text', text: notAllowed(command) }]);
      assert.equal(result.isError, true);
    });
  }

  it('runs in the first root by default and in a directory inside it on request', async () => {
    const client = await execClient({ allowlist: ['pwd'] });
    assert.equal((await run(client, { command: 'pwd' })).structuredContent?.stdout, `${root}\n`);
    const inSub = await run(client, { command: 'pwd', cwd: 'sub' });
    assert.equal(inSub.structuredContent?.stdout, `${join(root, 'sub')}\n`);
    assert.equal(inSub.structuredContent?.cwd, join(root, 'sub'));
  });

  it('runs in the working directory also where opened directories are verified by re-resolving (no /proc)', async () => {
    const recheck = await Roots.create([root], { verification: 'inode-recheck' });
    const client = await execClient({ allowlist: ['pwd'] }, {}, recheck);
    const inSub = await run(client, { command: 'pwd', cwd: 'sub' });
    assert.equal(inSub.structuredContent?.stdout, `${join(root, 'sub')}\n`);
    assert.equal(inSub.structuredContent?.cwd, join(root, 'sub'));
  });

  it(
    'D1 the program does not inherit the verified handle of its working directory',
    { skip: !HAS_PROC && 'needs /proc' },
    async () => {
      // The handle (O_CLOEXEC) is what the program starts in, through /proc/self/fd/N; after execve it must be gone.
      const client = await execClient({ allowlist: ['sh'] });
      const result = await run(client, {
        command: 'sh',
        args: ['-c', 'for fd in /proc/$$/fd/*; do readlink "$fd"; done; pwd'],
        cwd: 'sub',
      });
      const lines = String(result.structuredContent?.stdout).trim().split('\n');
      assert.equal(lines.at(-1), join(root, 'sub'));
      assert.ok(
        // libuv gives the program its standard streams as pipes or as socket pairs, depending on its version.
        lines.some((target) => /^(?:pipe|socket):\[\d+\]$/.test(target)),
        `the listing shows the program's descriptors: ${lines.join(', ')}`,
      );
      assert.deepEqual(
        lines.slice(0, -1).filter((target) => target.startsWith(root)),
        [],
      );
    },
  );

  const badCwd: [string, (root: string) => string][] = [
    ['/etc', (r) => `cwd: path "/etc" is outside the allowed roots (${r}); use a path inside them`],
    ['../..', (r) => `cwd: path "../.." is outside the allowed roots (${r}); use a path inside them`],
    ['file.txt', () => 'cwd: path "file.txt" is a file, not a directory'],
    ['missing', () => 'cwd: path "missing" does not exist; list the directory to see what is there'],
  ];
  for (const [cwd, message] of badCwd) {
    it(`refuses the working directory ${JSON.stringify(cwd)}`, async () => {
      const client = await execClient({ allowlist: ['pwd'] });
      const result = await run(client, { command: 'pwd', cwd });
      assert.deepEqual(result.content, [{ type: 'text', text: message(root) }]);
      assert.equal(result.isError, true);
    });
  }

  it('reports a non-zero exit as an error result that carries the output', async () => {
    const client = await execClient({ allowlist: ['sh'] });
    const result = await run(client, { command: 'sh', args: ['-c', 'echo partial; echo oops >&2; exit 3'] });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'sh exited with code 3.\n\nstdout:\npartial\n\n\nstderr:\noops\n');
    assert.equal(result.structuredContent?.exitCode, 3);
  });

  it('says when there was no output', async () => {
    const client = await execClient({ allowlist: ['sh'] });
    assert.equal(
      textOf(await run(client, { command: 'sh', args: ['-c', 'exit 0'] })),
      'sh exited with code 0.\n\n(no output)',
    );
  });

  it('caps each stream and marks what was dropped', async () => {
    const client = await execClient({ allowlist: ['sh'], maxOutputBytes: 1024 });
    // 100 lines of 50 bytes on each stream: 5,000 bytes, of which 1,024 are kept.
    const script =
      'i=0; while [ $i -lt 100 ]; do echo 0123456789012345678901234567890123456789012345678; echo 0123456789012345678901234567890123456789012345678 >&2; i=$((i+1)); done';
    const result = await run(client, { command: 'sh', args: ['-c', script] });
    const kept = '0123456789012345678901234567890123456789012345678\n'.repeat(100).slice(0, 1024);
    const structured = result.structuredContent as JsonObject;
    assert.equal(structured.stdout, `${kept}…[truncated 3976 bytes]`);
    assert.equal(structured.stderr, `${kept}…[truncated 3976 bytes]`);
    assert.equal(structured.stdoutTruncated, true);
    assert.equal(structured.stderrTruncated, true);
    assert.equal(result.isError, false);
  });

  it('passes only allowlisted environment variables, and PATH as the search path', async () => {
    process.env.TOOLWIRE_EXEC_TEST_SECRET = 'hunter2-do-not-leak';
    try {
      const client = await execClient({
        allowlist: ['env'],
        searchPath: ['/usr/bin', '/bin'],
        envAllowlist: ['PATH', 'TOOLWIRE_EXEC_TEST_VISIBLE'],
      });
      process.env.TOOLWIRE_EXEC_TEST_VISIBLE = 'shown';
      const result = await run(client, { command: 'env' });
      assert.equal(
        result.structuredContent?.stdout,
        'PATH=/usr/bin:/bin\nTOOLWIRE_EXEC_TEST_VISIBLE=shown\n',
      );
      assert.doesNotMatch(JSON.stringify(client.traffic), /hunter2/);
    } finally {
      delete process.env.TOOLWIRE_EXEC_TEST_SECRET;
      delete process.env.TOOLWIRE_EXEC_TEST_VISIBLE;
    }
  });

  it('keeps the default environment allowlist (PATH, HOME, LANG, LC_ALL, TZ)', async () => {
    process.env.TOOLWIRE_EXEC_TEST_SECRET = 'hunter2-do-not-leak';
    try {
      const client = await execClient({ allowlist: ['env'] });
      const stdout = String((await run(client, { command: 'env' })).structuredContent?.stdout);
      const names = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(0, line.indexOf('=')));
      assert.ok(
        names.every((name) => ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ'].includes(name)),
        stdout,
      );
      assert.doesNotMatch(stdout, /hunter2/);
    } finally {
      delete process.env.TOOLWIRE_EXEC_TEST_SECRET;
    }
  });

  const badArgs: [string, JsonObject, string][] = [
    [
      'a NUL byte in an argument',
      { command: 'echo', args: ['ok', 'a\0b'] },
      'args[1] contains a NUL byte, which no argument can carry',
    ],
    [
      'an argument over 32 KiB in UTF-8',
      { command: 'echo', args: ['é'.repeat(20_000)] },
      'args[0] is 40000 bytes in UTF-8; each argument may be at most 32768',
    ],
    [
      'a time limit below 100 ms',
      { command: 'echo', timeoutMs: 50 },
      'Invalid arguments for tool "execute_command":\n- timeoutMs: must be >= 100 (got 50)',
    ],
    [
      'more than 256 arguments',
      { command: 'echo', args: Array.from({ length: 257 }, () => 'x') },
      'Invalid arguments for tool "execute_command":\n- args: must have at most 256 items (got 257)',
    ],
    [
      'an unknown argument',
      { command: 'echo', shell: true },
      'Invalid arguments for tool "execute_command":\n- shell: is not allowed (unknown property)',
    ],
  ];
  for (const [what, args, message] of badArgs) {
    it(`refuses ${what}`, async () => {
      const client = await execClient({ allowlist: ['echo'] });
      const result = await run(client, args);
      assert.deepEqual(result.content, [{ type: 'text', text: message }]);
      assert.equal(result.isError, true);
    });
  }
});

describe('exec pack: stopping the whole process group', { skip: !HAS_PROC && 'needs /proc' }, () => {
  it('on timeout, kills the command and the grandchild it forked, and reports progress', async () => {
    const client = await execClient({ allowlist: ['sh'] });
    const result = await run(
      client,
      { command: 'sh', args: ['-c', 'echo $$; sleep 30 & echo $!; sleep 30'], timeoutMs: 1_000 },
      { progressToken: 'exec-1' },
    );
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent?.timedOut, true);
    assert.equal(result.structuredContent?.signal, 'SIGTERM');
    assert.equal(result.structuredContent?.exitCode, null);
    const [pgid, grandchild] = String(result.structuredContent?.stdout).trim().split('\n').map(Number);
    assert.ok(pgid !== undefined && grandchild !== undefined);
    assert.equal(
      textOf(result),
      `sh timed out and was stopped (SIGTERM); its whole process group was killed.\n\nstdout:\n${pgid}\n${grandchild}\n`,
    );
    assert.ok(
      await pollUntil(() => liveMembers(pgid).length === 0),
      `group ${pgid} still has ${liveMembers(pgid)}`,
    );
    assert.equal(isAlive(grandchild), false);
    const progress = client.notifications().filter((n) => n.method === 'notifications/progress');
    assert.deepEqual(progress[0]?.params, {
      progressToken: 'exec-1',
      progress: 0,
      total: 1000,
      message: 'started sh',
    });
  });

  it('escalates to SIGKILL after the grace period when SIGTERM is ignored', async () => {
    const client = await execClient({ allowlist: ['sh'], killGraceMs: 200 });
    const script = 'trap "" TERM; echo $$; sleep 30 & echo $!; sleep 30';
    // The limit leaves sh ample time to set its trap first, even on a loaded machine.
    const result = await run(client, { command: 'sh', args: ['-c', script], timeoutMs: 1_000 });
    assert.equal(result.structuredContent?.signal, 'SIGKILL');
    assert.equal(result.structuredContent?.timedOut, true);
    const [pgid, grandchild] = String(result.structuredContent?.stdout).trim().split('\n').map(Number);
    assert.ok(pgid !== undefined && grandchild !== undefined);
    assert.ok(
      await pollUntil(() => liveMembers(pgid).length === 0),
      `group ${pgid} still has ${liveMembers(pgid)}`,
    );
    assert.equal(isAlive(grandchild), false);
  });

  it('regression: a background job left behind by a command that exited does not outlive the call', async () => {
    const client = await execClient({ allowlist: ['sh'] });
    const result = await run(client, { command: 'sh', args: ['-c', 'sleep 30 >/dev/null 2>&1 & echo $!'] });
    assert.equal(result.structuredContent?.exitCode, 0);
    const orphan = Number(String(result.structuredContent?.stdout).trim());
    assert.ok(await pollUntil(() => !isAlive(orphan)), `background job ${orphan} is still running`);
  });

  it('when the client cancels the call, kills the group', async () => {
    const client = await execClient({ allowlist: ['sh'] });
    const pidFile = join(root, `pgid-${process.pid}`);
    client.send({
      jsonrpc: '2.0',
      id: 'cancel-me',
      method: 'tools/call',
      params: modern({
        name: 'execute_command',
        arguments: {
          command: 'sh',
          args: ['-c', `echo $$ > ${pidFile}; sleep 30 & sleep 30`],
          timeoutMs: 20_000,
        },
      }),
    });
    assert.ok(await pollUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n')));
    const pgid = Number(readFileSync(pidFile, 'utf8').trim());
    assert.ok(liveMembers(pgid).length >= 2, 'sh and its sleeps are running');
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'cancel-me' } });
    assert.ok(
      await pollUntil(() => liveMembers(pgid).length === 0),
      `group ${pgid} still has ${liveMembers(pgid)}`,
    );
  });

  it('when the server-side time limit aborts the handler, kills the group', async () => {
    const client = await execClient({ allowlist: ['sh'] }, { execute_command: 1_000 });
    const pidFile = join(root, `pgid-limit-${process.pid}`);
    const result = await run(client, {
      command: 'sh',
      args: ['-c', `echo $$ > ${pidFile}; sleep 30 & sleep 30`],
      timeoutMs: 20_000,
    });
    assert.deepEqual(result.content, [
      { type: 'text', text: 'Tool "execute_command" timed out after 1000 ms' },
    ]);
    const pgid = Number(readFileSync(pidFile, 'utf8').trim());
    assert.ok(
      await pollUntil(() => liveMembers(pgid).length === 0),
      `group ${pgid} still has ${liveMembers(pgid)}`,
    );
  });
});
