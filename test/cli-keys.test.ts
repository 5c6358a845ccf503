// `toolwire keys create | list | revoke` in temporary directories: the key printed once and stored only as a hash
// (mode 0600), in a keys file or in a toolwire.json edited in place (everything else kept); list never shows hashes;
// every bad flag and bad file gets its own message; and a key made by the real command then authenticates against a
// real HTTP server loaded from that file, until it is revoked.

import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { keysCreate, keysList, keysRevoke, type KeysIo } from '../src/cli/keys.js';
import { hashKey, loadApiKeys, type ApiKeyRecord } from '../src/policy/api-keys/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { listenHttp } from '../src/transports/http/index.js';
import { runCli } from './fixtures/client/harness.js';

const TEST_MS = 120_000; // a hang guard for tests that spawn the CLI on a loaded machine
const HINT = 'run "toolwire keys --help" for usage\n';
const KEY = /^twk_([A-Za-z0-9]{16})_[A-Za-z0-9_-]{43}$/;
const NOW = new Date('2026-11-27T12:00:00.000Z');
const ONCE =
  'toolwire: the key above is shown this once and cannot be shown again (only its hash is kept): store it now\n';

const scratch = mkdtempSync(join(tmpdir(), 'toolwire-cli-keys-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
const freshDir = (): string => {
  const dir = join(scratch, `case-${++counter}`);
  mkdirSync(dir);
  return dir;
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Captures a pure command's output. */
async function capture(dir: string, step: (io: KeysIo) => Promise<number>): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: KeysIo = {
    stdout: { write: (text: string) => ((stdout += text), true) } as NodeJS.WritableStream,
    stderr: { write: (text: string) => ((stderr += text), true) } as NodeJS.WritableStream,
    cwd: dir,
    now: () => NOW,
  };
  const code = await step(io);
  return { code, stdout, stderr };
}

const keysIn = (file: string): ApiKeyRecord[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as { keys: ApiKeyRecord[] }).keys;

describe('toolwire keys create / list / revoke with --file', () => {
  it('create prints the key once on stdout and stores only its hash, mode 0600', async () => {
    const dir = freshDir();
    const run = await capture(dir, (io) =>
      keysCreate(
        {
          subject: 'ci-bot',
          scopes: 'files:read, calc',
          label: 'CI runner',
          expires: '30d',
          file: 'keys.json',
        },
        io,
      ),
    );
    assert.equal(run.code, 0, run.stderr);
    const key = run.stdout.trimEnd();
    const id = KEY.exec(key)?.[1];
    assert.ok(id !== undefined, run.stdout);
    const file = join(dir, 'keys.json');
    assert.equal(
      run.stderr,
      `toolwire: created API key ${id} for "ci-bot" (scopes: files:read, calc; expires 2026-12-27T12:00:00.000Z) in keys file ${file}\n${ONCE}`,
    );
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(key) && !text.includes(key.slice(21)), 'no plaintext key or secret in the file');
    const [record] = keysIn(file);
    assert.equal(record?.hash, hashKey(key));
    assert.deepEqual(
      { ...record, hash: undefined, created: undefined },
      {
        id,
        subject: 'ci-bot',
        scopes: ['files:read', 'calc'],
        label: 'CI runner',
        expires: '2026-12-27T12:00:00.000Z',
        hash: undefined,
        created: undefined,
      },
    );
  });

  it('list shows id, subject, scopes, label, created and expiry (marked when past), never a hash', async () => {
    const dir = freshDir();
    await capture(dir, (io) => keysCreate({ subject: 'alice', scopes: 'calc', file: 'k.json' }, io));
    await capture(dir, (io) =>
      keysCreate(
        { subject: 'bob', scopes: 'a,b', label: 'old', expires: '2026-12-01T00:00:00Z', file: 'k.json' },
        io,
      ),
    );
    const [alice, bob] = keysIn(join(dir, 'k.json'));
    const table = await capture(dir, (io) =>
      keysList({ file: 'k.json' }, { ...io, now: () => new Date('2027-01-01T00:00:00Z') }),
    );
    assert.equal(table.code, 0);
    assert.equal(
      table.stdout,
      [
        'ID                SUBJECT  SCOPES  LABEL  CREATED                   EXPIRES',
        `${alice?.id}  alice    calc           ${alice?.created}  never`,
        `${bob?.id}  bob      a,b     old    ${bob?.created}  2026-12-01T00:00:00Z (expired)`,
        '',
      ].join('\n'),
    );
    const json = await capture(dir, (io) => keysList({ file: 'k.json', json: true }, io));
    assert.deepEqual(JSON.parse(json.stdout), [
      { id: alice?.id, subject: 'alice', scopes: ['calc'], created: alice?.created },
      {
        id: bob?.id,
        subject: 'bob',
        scopes: ['a', 'b'],
        label: 'old',
        created: bob?.created,
        expires: '2026-12-01T00:00:00Z',
        expired: false,
      },
    ]);
    for (const output of [table.stdout, json.stdout])
      assert.ok(!output.includes('sha256') && !output.includes('hash'));
  });

  it('revoke removes the key; an unknown id is named (with a likely match), a malformed one refused', async () => {
    const dir = freshDir();
    await capture(dir, (io) => keysCreate({ subject: 'alice', scopes: 'calc', file: 'k.json' }, io));
    await capture(dir, (io) => keysCreate({ subject: 'bob', scopes: 'calc', file: 'k.json' }, io));
    const file = join(dir, 'k.json');
    const [alice, bob] = keysIn(file);
    const typo = `${alice?.id.slice(0, -1)}-`;
    assert.deepEqual(await capture(dir, (io) => keysRevoke(typo, { file: 'k.json' }, io)), {
      code: 2,
      stdout: '',
      stderr: `toolwire: there is no key ${typo} in keys file ${file} (did you mean "${alice?.id}"?)\n${HINT}`,
    });
    assert.deepEqual(await capture(dir, (io) => keysRevoke('twk_x', { file: 'k.json' }, io)), {
      code: 2,
      stdout: '',
      stderr: `toolwire: "twk_x" is not a key id (12 to 64 letters, digits or "-"; "toolwire keys list" shows them)\n${HINT}`,
    });
    const done = await capture(dir, (io) => keysRevoke(alice?.id ?? '', { file: 'k.json' }, io));
    assert.deepEqual(done, {
      code: 0,
      stdout: `revoked API key ${alice?.id} of "alice" in keys file ${file}\n`,
      stderr: 'toolwire: a server already running accepts the key until it reloads its keys\n',
    });
    assert.deepEqual(
      keysIn(file).map((record) => record.id),
      [bob?.id],
    );
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('bad flags get specific errors, and nothing is written', async () => {
    const dir = freshDir();
    const cases: Array<[Parameters<typeof keysCreate>[0], string]> = [
      [
        { subject: 's', scopes: 'a' },
        'say where keys are kept: --file KEYS.json (a keys file) or --config toolwire.json (its policy.apiKeys.keys)',
      ],
      [
        { subject: 's', scopes: 'a', file: 'k.json', config: 'c.json' },
        '--file and --config both say where keys are kept: give one of them',
      ],
      [{ scopes: 'a', file: 'k.json' }, 'keys create needs --subject'],
      [{ subject: ' ', scopes: 'a', file: 'k.json' }, '--subject must not be empty'],
      [{ subject: 's', file: 'k.json' }, 'keys create needs --scopes, like --scopes files:read,calc'],
      [
        { subject: 's', scopes: ' , ', file: 'k.json' },
        '--scopes needs at least one scope, separated by commas, like --scopes files:read,calc',
      ],
      [
        { subject: 's', scopes: 'calc,files"read', file: 'k.json' },
        `--scopes: "files\\"read" is not a scope: use 1 to 128 visible ASCII characters other than space, '"' and '\\' (RFC 6749)`,
      ],
      [{ subject: 's', scopes: 'calc,calc', file: 'k.json' }, '--scopes: "calc" is listed twice'],
      [
        { subject: 's', scopes: 'a', label: 'x\ny', file: 'k.json' },
        '--label must not contain control characters',
      ],
      [
        { subject: 's', scopes: 'a', expires: 'next week', file: 'k.json' },
        '--expires takes a number of days or hours ("30d", "12h") or an ISO 8601 time ("2027-01-31T12:00:00Z"), got "next week"',
      ],
      [
        { subject: 's', scopes: 'a', expires: '2026-01-01', file: 'k.json' },
        '--expires 2026-01-01 is in the past',
      ],
      [
        { subject: 's', scopes: 'a', expires: '0d', file: 'k.json' },
        '--expires 0d has already passed; give at least 1d',
      ],
    ];
    for (const [options, message] of cases) {
      assert.deepEqual(
        await capture(dir, (io) => keysCreate(options, io)),
        { code: 2, stdout: '', stderr: `toolwire: ${message}\n${HINT}` },
        message,
      );
    }
    assert.deepEqual(readdirSync(dir), []);
    assert.deepEqual(await capture(dir, (io) => keysList({ file: 'none.json' }, io)), {
      code: 2,
      stdout: '',
      stderr: `toolwire: keys file ${join(dir, 'none.json')} does not exist\n`,
    });
  });

  it('a keys file others can write is refused for every command, and left as it was', async () => {
    const dir = freshDir();
    await capture(dir, (io) => keysCreate({ subject: 'alice', scopes: 'calc', file: 'k.json' }, io));
    const file = join(dir, 'k.json');
    chmodSync(file, 0o664);
    const before = readFileSync(file, 'utf8');
    const refusal = `toolwire: refusing the keys file: ${file} can be written by its group (mode 664), and whoever writes it can grant any scope: run chmod 600 ${file}\n`;
    for (const step of [
      (io: KeysIo) => keysCreate({ subject: 'bob', scopes: 'calc', file: 'k.json' }, io),
      (io: KeysIo) => keysList({ file: 'k.json' }, io),
      (io: KeysIo) => keysRevoke(keysIn(file)[0]?.id ?? '', { file: 'k.json' }, io),
    ]) {
      assert.deepEqual(await capture(dir, step), { code: 2, stdout: '', stderr: refusal });
    }
    assert.equal(readFileSync(file, 'utf8'), before);
  });
});

describe('toolwire keys with --config: policy.apiKeys.keys of a toolwire.json', () => {
  it('adds the keys array where it is missing and keeps everything else byte for byte', async () => {
    const dir = freshDir();
    const file = join(dir, 'toolwire.json');
    const original =
      '{\n    "tools": ["calc"],\n    "policy": {\n        "rateLimit": { "perMinute": 60 }\n    },\n    "mcpServers": {}\n}\n';
    writeFileSync(file, original, { mode: 0o644 });
    const first = await capture(dir, (io) =>
      keysCreate({ subject: 'alice', scopes: 'calc', config: 'toolwire.json' }, io),
    );
    assert.equal(first.code, 0, first.stderr);
    const backup = readdirSync(dir).find((name) => name.endsWith('.bak'));
    assert.match(
      first.stderr,
      new RegExp(
        `in ${file} \\(policy.apiKeys.keys\\)\\ntoolwire: backup of the previous file: ${join(dir, backup ?? '?')}\\n`,
      ),
    );
    const second = await capture(dir, (io) =>
      keysCreate({ subject: 'bob', scopes: 'calc', config: 'toolwire.json' }, io),
    );
    const text = readFileSync(file, 'utf8');
    const config = JSON.parse(text) as {
      policy: { apiKeys: { keys: ApiKeyRecord[] }; rateLimit: unknown };
      tools: unknown;
      mcpServers: unknown;
    };
    assert.deepEqual(config.tools, ['calc']);
    assert.deepEqual(config.mcpServers, {});
    assert.deepEqual(config.policy.rateLimit, { perMinute: 60 });
    const keys = config.policy.apiKeys.keys;
    assert.deepEqual(
      keys.map((record) => record.hash),
      [hashKey(first.stdout.trim()), hashKey(second.stdout.trim())],
    );
    assert.ok(
      text.startsWith(
        '{\n    "tools": ["calc"],\n    "policy": {\n        "rateLimit": { "perMinute": 60 },\n        "apiKeys": {\n',
      ),
    );
    assert.ok(text.endsWith('    },\n    "mcpServers": {}\n}\n'));
    assert.ok(!text.includes(first.stdout.trim()) && !text.includes(second.stdout.trim()));
    assert.equal(statSync(file).mode & 0o777, 0o644, 'an existing config keeps its mode');

    const revoked = await capture(dir, (io) =>
      keysRevoke(keys[0]?.id ?? '', { config: 'toolwire.json' }, io),
    );
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stderr, /still holds the key's hash: delete it/);
    const listed = await capture(dir, (io) => keysList({ config: 'toolwire.json', json: true }, io));
    assert.deepEqual(
      (JSON.parse(listed.stdout) as Array<{ subject: string }>).map((key) => key.subject),
      ['bob'],
    );
  });
});

describe('toolwire keys end to end: the real command, then a real server loaded from its file', () => {
  it(
    'a key made by `toolwire keys create` authenticates until `toolwire keys revoke`',
    { timeout: TEST_MS },
    async () => {
      const dir = freshDir();
      const created = await runCli(
        ['keys', 'create', '--subject', 'ops', '--scopes', 'calc', '--file', 'keys.json'],
        { cwd: dir },
      );
      assert.equal(created.code, 0, created.stderr);
      const key = created.stdout.trimEnd();
      const id = KEY.exec(key)?.[1] ?? '';
      assert.ok(id !== '', created.stdout);
      const file = join(dir, 'keys.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.ok(!readFileSync(file, 'utf8').includes(key.slice(21)));

      const keys = await loadApiKeys({ file });
      const server = new McpServer({ name: 'keys-e2e', version: '1.0.0' }, { logger: silentLogger });
      server.tool({
        name: 'whoami',
        description: 'Says who is calling',
        inputSchema: { type: 'object', properties: {} },
        handler: (_args, ctx) => `${ctx.auth?.subject} ${ctx.auth?.scopes.join(',')}`,
      });
      const listening = await listenHttp(server, { authenticate: keys.authenticate, logger: silentLogger });
      try {
        const call = (): Promise<Response> =>
          fetch(listening.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': '2026-07-28',
              'mcp-method': 'tools/call',
              'mcp-name': 'whoami',
              authorization: `Bearer ${key}`,
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: {
                name: 'whoami',
                arguments: {},
                _meta: {
                  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                  'io.modelcontextprotocol/clientCapabilities': {},
                },
              },
            }),
          });
        const allowed = await call();
        assert.equal(allowed.status, 200);
        assert.match(await allowed.text(), /"text":"ops calc"/);

        const listed = await runCli(['keys', 'list', '--file', 'keys.json'], { cwd: dir });
        assert.equal(listed.code, 0, listed.stderr);
        assert.match(listed.stdout, new RegExp(`^${id}  ops      calc`, 'm'));
        assert.ok(!listed.stdout.includes('sha256'));

        const revoked = await runCli(['keys', 'revoke', id, '--file', 'keys.json'], { cwd: dir });
        assert.equal(revoked.code, 0, revoked.stderr);
        await keys.reload();
        const refused = await call();
        assert.equal(refused.status, 401);
        assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="mcp", error="invalid_token"');
      } finally {
        await listening.close();
      }
    },
  );

  it(
    'commander catches an unknown flag, with the flag it probably meant (exit 2, nothing written)',
    { timeout: TEST_MS },
    async () => {
      const dir = freshDir();
      const typo = await runCli(['keys', 'create', '--subject', 's', '--scope', 'a', '--file', 'k.json'], {
        cwd: dir,
      });
      assert.equal(typo.code, 2);
      assert.equal(typo.stdout, '');
      assert.match(typo.stderr, /unknown option '--scope'\n\(Did you mean --scopes\?\)/);
      assert.deepEqual(readdirSync(dir), []);
    },
  );
});
