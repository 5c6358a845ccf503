// `toolwire resources`, `read`, `prompts` and `prompt` against toolwire's catalog fixture: tables, --json, text and
// binary contents (--save), prompt arguments checked before anything is sent (with the exact messages), servers
// without resources or prompts, terminal escapes from a hostile server made visible (E1), and the commands run as
// real processes over HTTP and stdio.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { prompt, prompts } from '../src/cli/prompts.js';
import { read, resources } from '../src/cli/resources.js';
import type { CliIo } from '../src/cli/session.js';
import { listenHttp } from '../src/transports/http/index.js';
import { HOSTILE_TEXT, createCatalogServer } from './fixtures/client/catalog-server.js';
import { fixtureTarget, listenToolwireHttp, runCli } from './fixtures/client/harness.js';
import { PNG_BASE64 } from './fixtures/client/toolwire-server.js';

const TEST_MS = 30_000;
const USAGE_HINT = 'run "toolwire --help" for usage\n';
/** HOSTILE_TEXT as a terminal may show it: every escape, control and invisible character made visible. */
const HOSTILE_SHOWN =
  'before␛[2J␛]0;PWNED␇␛]8;;https://evil.test␇link␛]8;;␇<U+202E>gnp.exe<U+202C><U+200B>after';

/** Runs a command function in this process; stdout and stderr are collected. */
async function inProcess(
  command: (io: CliIo) => Promise<number>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (write: (text: string) => void): NodeJS.WritableStream => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => write(chunk.toString('utf8')));
    return stream;
  };
  const io: CliIo = {
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    stdin: new PassThrough(),
    env: process.env,
    cwd: process.cwd(),
    version: '0.0.0-test',
  };
  const code = await command(io);
  await new Promise((resolve) => setImmediate(resolve)); // the PassThrough streams hand over their data
  return { code, stdout, stderr };
}

describe('toolwire resources / read / prompts / prompt', () => {
  let url = '';
  let close: () => Promise<void> = async () => undefined;
  let toolsOnly: Awaited<ReturnType<typeof listenToolwireHttp>> | undefined;
  let dir = '';
  before(async () => {
    const server = createCatalogServer();
    const listening = await listenHttp(server);
    url = listening.url;
    close = async () => {
      await listening.close();
      await server.close();
    };
    toolsOnly = await listenToolwireHttp();
    dir = mkdtempSync(join(tmpdir(), 'toolwire-catalog-'));
  });
  after(async () => {
    await close();
    await toolsOnly?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resources: a table of resources and one of templates', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await inProcess((io) => resources(url, {}, io)), {
      code: 0,
      stdout: [
        'URI              NAME     TYPE           DESCRIPTION',
        'notes://readme   Read me  text/markdown  How the notes are kept',
        'notes://logo     logo     image/png',
        'notes://hostile  hostile  text/plain',
        'notes://secret   secret',
        '',
        'TEMPLATE            NAME  TYPE        DESCRIPTION',
        'notes://day/{date}  day   text/plain  The note of one day',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('resources --json: both lists as JSON', { timeout: TEST_MS }, async () => {
    const run = await inProcess((io) => resources(url, { json: true }, io));
    assert.equal(run.code, 0);
    const parsed = JSON.parse(run.stdout) as {
      resources: Array<{ uri: string }>;
      resourceTemplates: unknown[];
    };
    assert.deepEqual(
      parsed.resources.map((resource) => resource.uri),
      ['notes://readme', 'notes://logo', 'notes://hostile', 'notes://secret'],
    );
    assert.equal(parsed.resourceTemplates.length, 1);
  });

  it(
    'read: text as it is; a templated URI; binary noted or saved with --save',
    { timeout: TEST_MS },
    async () => {
      assert.deepEqual(await inProcess((io) => read(url, 'notes://readme', {}, io)), {
        code: 0,
        stdout: '# Notes\nOne file per day.\n',
        stderr: '',
      });
      assert.deepEqual(await inProcess((io) => read(url, 'notes://day/2026-05-01', {}, io)), {
        code: 0,
        stdout: 'Note of 2026-05-01\n',
        stderr: '',
      });
      const bytes = Buffer.from(PNG_BASE64, 'base64');
      assert.deepEqual(await inProcess((io) => read(url, 'notes://logo', {}, io)), {
        code: 0,
        stdout: '[resource notes://logo, image/png] (use --save DIR to write it to a file)\n',
        stderr: '',
      });
      const saveDir = join(dir, 'saved');
      assert.deepEqual(await inProcess((io) => read(url, 'notes://logo', { save: saveDir }, io)), {
        code: 0,
        stdout: `[resource notes://logo, image/png] saved to ${join(saveDir, 'resource-1.png')}\n`,
        stderr: '',
      });
      assert.deepEqual(readdirSync(saveDir), ['resource-1.png']);
      assert.deepEqual(readFileSync(join(saveDir, 'resource-1.png')), bytes);
      const json = await inProcess((io) => read(url, 'notes://logo', { json: true }, io));
      assert.deepEqual(JSON.parse(json.stdout).contents, [
        { uri: 'notes://logo', mimeType: 'image/png', blob: PNG_BASE64 },
      ]);
    },
  );

  it(
    "read: a resource the server does not have is the server's error, exit 3",
    { timeout: TEST_MS },
    async () => {
      const run = await inProcess((io) => read(url, 'notes://missing', {}, io));
      assert.equal(run.code, 3);
      assert.equal(run.stdout, '');
      assert.match(
        run.stderr,
        /^toolwire: http:\/\/127\.0\.0\.1:\d+\/mcp: server error -32602: Resource not found/,
      );
    },
  );

  it('prompts: a table with the arguments (optional ones in brackets)', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await inProcess((io) => prompts(url, {}, io)), {
      code: 0,
      stdout: [
        'NAME     ARGUMENTS    DESCRIPTION',
        'greet    name [tone]  Greets someone',
        'hostile  -            Carries terminal escapes',
        'recap    -            Two messages and a picture',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('prompt: the messages under their roles; images noted', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await inProcess((io) => prompt(url, 'greet', ['name=Ada', 'tone=warm'], {}, io)), {
      code: 0,
      stdout: '[user]\nSay hello to Ada in a warm tone.\n',
      stderr: '',
    });
    assert.deepEqual(await inProcess((io) => prompt(url, 'greet', ['{"name": "Bo"}'], {}, io)), {
      code: 0,
      stdout: '[user]\nSay hello to Bo.\n',
      stderr: '',
    });
    const bytes = Buffer.from(PNG_BASE64, 'base64');
    assert.deepEqual(await inProcess((io) => prompt(url, 'recap', [], {}, io)), {
      code: 0,
      stdout: `[user]\nWhat happened today?\n\n[assistant]\n[image image/png, ${bytes.length} bytes] (use --save DIR to write it to a file)\n`,
      stderr: '',
    });
    const json = await inProcess((io) => prompt(url, 'greet', ['name=Ada'], { json: true }, io));
    assert.equal(JSON.parse(json.stdout).messages[0].content.text, 'Say hello to Ada.');
  });

  it(
    'prompt: arguments are checked before anything is sent, with what to do',
    { timeout: TEST_MS },
    async () => {
      const usage = async (name: string, words: string[], message: string) =>
        assert.deepEqual(await inProcess((io) => prompt(url, name, words, {}, io)), {
          code: 2,
          stdout: '',
          stderr: `toolwire: ${message}\n${USAGE_HINT}`,
        });
      await usage('greet', [], 'prompt "greet" needs name=…');
      await usage('greet', ['tone=dry'], 'prompt "greet" needs name=…');
      await usage(
        'greet',
        ['nmae=Ada'],
        'prompt "greet" has no argument "nmae" (did you mean "name"?); its arguments: name, tone',
      );
      await usage('recap', ['x=1'], 'prompt "recap" has no argument "x"; it takes none');
      await usage('greet', ['{"name": 7}'], 'prompt arguments are strings, but name is 7');
      await usage(
        'greter',
        [],
        `the server has no prompt "greter" (did you mean "greet"?); to see its prompts, run: toolwire prompts ${url}`,
      );
    },
  );

  it(
    'E1 text from a hostile server reaches the terminal with its escapes made visible',
    { timeout: TEST_MS },
    async () => {
      assert.deepEqual(await inProcess((io) => read(url, 'notes://hostile', {}, io)), {
        code: 0,
        stdout: `${HOSTILE_SHOWN}\n`,
        stderr: '',
      });
      assert.deepEqual(await inProcess((io) => prompt(url, 'hostile', [], {}, io)), {
        code: 0,
        stdout: `[user]\n${HOSTILE_SHOWN}\n`,
        stderr: '',
      });
      // --json keeps the data (escaped as \u sequences), so nothing is lost and the terminal still sees no escape.
      const json = await inProcess((io) => read(url, 'notes://hostile', { json: true }, io));
      for (const char of ['\u001b', '\u0007', '\u202e', '\u202c', '\u200b'])
        assert.equal(
          json.stdout.includes(char),
          false,
          `no raw U+${char.charCodeAt(0).toString(16)} in the JSON text`,
        );
      assert.equal(JSON.parse(json.stdout).contents[0].text, HOSTILE_TEXT);
    },
  );

  it(
    'a server without resources or prompts: the lists say so, read and prompt are usage errors',
    { timeout: TEST_MS },
    async () => {
      const plain = (toolsOnly as { url: string }).url;
      assert.deepEqual(await inProcess((io) => resources(plain, {}, io)), {
        code: 0,
        stdout: '(no resources: the server does not offer any)\n',
        stderr: '',
      });
      assert.deepEqual(await inProcess((io) => prompts(plain, {}, io)), {
        code: 0,
        stdout: '(no prompts: the server does not offer any)\n',
        stderr: '',
      });
      assert.deepEqual(await inProcess((io) => read(plain, 'notes://readme', {}, io)), {
        code: 2,
        stdout: '',
        stderr: `toolwire: ${plain} offers no resources (its capabilities have no "resources"); to see its tools, run: toolwire list ${plain}\n${USAGE_HINT}`,
      });
      assert.equal((await inProcess((io) => prompt(plain, 'greet', [], {}, io))).code, 2);
    },
  );

  it('as real processes: over HTTP and over stdio', { timeout: 60_000 }, async () => {
    assert.deepEqual(await runCli(['read', url, 'notes://day/x']), {
      code: 0,
      stdout: 'Note of x\n',
      stderr: '',
    });
    const stdio = fixtureTarget('catalog-stdio.ts');
    assert.deepEqual(await runCli(['prompt', stdio, 'greet', 'name=Cy']), {
      code: 0,
      stdout: '[user]\nSay hello to Cy.\n',
      stderr: '',
    });
    const listed = await runCli(['resources', stdio, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(JSON.parse(listed.stdout).resources.length, 4);
    const listedPrompts = await runCli(['prompts', stdio]);
    assert.equal(listedPrompts.code, 0, listedPrompts.stderr);
    assert.match(listedPrompts.stdout, /^NAME {5}ARGUMENTS {4}DESCRIPTION\ngreet/);
  });
});
