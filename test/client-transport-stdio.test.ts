// The stdio client transport against real child processes (node -e scripts), its stderr tail, and the
// command-line splitter (examples, a property test against a quoting function, and /bin/sh as outside truth).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { StdioClientTransport, parseCommandLine } from '../src/transports/stdio/index.js';
import { StderrTail } from '../src/transports/stdio/client-stderr-tail.js';

/** Echoes every stdin line to stdout; exits on stdin EOF (the graceful path). */
const ECHO = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (line === 'crash') process.exit(3);
  if (line === 'stderr') { process.stderr.write('warming up\\n'); return; }
  process.stdout.write(line + '\\n');
});
`;

/** Ignores stdin EOF (and SIGTERM when asked), then says "ready" so the test knows the handlers are installed. */
const stubborn = (ignoreSigterm: boolean): string => `
${ignoreSigterm ? "process.on('SIGTERM', () => {});" : ''}
process.stdin.on('data', () => {});
process.stdin.on('end', () => {});
setInterval(() => {}, 1000);
process.stdout.write('ready\\n');
`;

/** Rejects if `promise` takes longer than `ms`: every wait in these tests is bounded. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface Harness {
  transport: StdioClientTransport;
  messages: unknown[];
  errors: Error[];
  closes: number;
  /** Resolves with the first `count` messages. */
  nextMessages(count: number): Promise<unknown[]>;
  closed: Promise<void>;
}

/** Every transport a test made: closed after each test, so that a failed assertion leaves no child behind. */
const live = new Set<StdioClientTransport>();
afterEach(async () => {
  await Promise.all([...live].map((transport) => transport.close()));
  live.clear();
});

function harness(
  script: string,
  options: Partial<ConstructorParameters<typeof StdioClientTransport>[0]> = {},
): Harness {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', script], ...options });
  live.add(transport);
  const waiters: Array<{ count: number; resolve: (messages: unknown[]) => void }> = [];
  let onClosed!: () => void;
  const h: Harness = {
    transport,
    messages: [],
    errors: [],
    closes: 0,
    nextMessages: (count) =>
      within(
        new Promise((resolve) => {
          if (h.messages.length >= count) resolve(h.messages.slice(0, count));
          else waiters.push({ count, resolve });
        }),
        5000,
        `${count} messages`,
      ),
    closed: new Promise((resolve) => (onClosed = resolve)),
  };
  transport.onmessage = (message) => {
    h.messages.push(message);
    for (const waiter of [...waiters]) {
      if (h.messages.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(h.messages.slice(0, waiter.count));
      }
    }
  };
  transport.onerror = (error) => h.errors.push(error);
  transport.onclose = () => {
    h.closes++;
    onClosed();
  };
  return h;
}

describe('StdioClientTransport', () => {
  it('spawns the server, sends lines and delivers its lines, then closes it gracefully through stdin EOF', async () => {
    const h = harness(ECHO);
    await h.transport.start();
    assert.equal(typeof h.transport.pid, 'number');
    h.transport.send('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    h.transport.send('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"s":"é€😀"}}');
    h.transport.send('not json at all');
    assert.deepEqual(await h.nextMessages(3), [
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"s":"é€😀"}}',
      'not json at all',
    ]);
    await within(h.transport.close(), 5000, 'close');
    // Exit code 0 and no signal: it ended on stdin EOF; a child that needed SIGTERM would show it here.
    assert.equal(h.transport.exitCode, 0);
    assert.equal(h.transport.signal, null);
    assert.equal(h.closes, 1);
    assert.deepEqual(h.errors, []);
    assert.throws(() => h.transport.send('{}'), /transport closed/);
  });

  it('close() is idempotent and onclose fires once', async () => {
    const h = harness(ECHO);
    await h.transport.start();
    await within(Promise.all([h.transport.close(), h.transport.close()]), 5000, 'close');
    await h.transport.close();
    assert.equal(h.closes, 1);
  });

  it('rejects a message with a raw line break instead of breaking the framing', async () => {
    const h = harness(ECHO);
    await h.transport.start();
    assert.throws(() => h.transport.send('{"a":\n1}'), /must not contain a raw line break/);
    await within(h.transport.close(), 5000, 'close');
  });

  it('skips a line over maxLineBytes with a clear error and goes on', async () => {
    const h = harness(ECHO, { maxLineBytes: 64 });
    await h.transport.start();
    h.transport.send(JSON.stringify({ big: 'x'.repeat(200) }));
    h.transport.send('{"small":1}');
    assert.deepEqual(await h.nextMessages(1), ['{"small":1}']);
    assert.equal(h.errors.length, 1);
    assert.match(
      h.errors[0]?.message ?? '',
      /skipped a 210-byte line from the server over the 64-byte limit/,
    );
    await within(h.transport.close(), 5000, 'close');
  });

  it('reports a child that exits on its own (a crash) with onclose once, exitCode and no signal', async () => {
    const h = harness(ECHO);
    await h.transport.start();
    h.transport.send('crash');
    await within(h.closed, 5000, 'onclose');
    assert.equal(h.closes, 1);
    assert.equal(h.transport.exitCode, 3);
    assert.equal(h.transport.signal, null);
    assert.throws(() => h.transport.send('{}'), /transport closed/);
    await within(h.transport.close(), 1000, 'close after exit');
    assert.equal(h.closes, 1);
  });

  it('escalates to SIGTERM when the server ignores stdin EOF', async () => {
    const h = harness(stubborn(false), { closeTimeoutMs: 200 });
    await h.transport.start();
    assert.deepEqual(await h.nextMessages(1), ['ready']);
    const started = Date.now();
    await within(h.transport.close(), 5000, 'close');
    const elapsed = Date.now() - started;
    assert.equal(h.transport.signal, 'SIGTERM');
    assert.equal(h.transport.exitCode, null);
    // Timers never fire early, so the lower bound holds on any machine; the upper one is within()'s.
    assert.ok(elapsed >= 190, `took ${elapsed} ms`);
    assert.equal(h.closes, 1);
  });

  it('escalates to SIGKILL when the server also ignores SIGTERM (regression: on a busy machine its exit came after the close timeout and went unreported)', async () => {
    const h = harness(stubborn(true), { closeTimeoutMs: 200 });
    await h.transport.start();
    assert.deepEqual(await h.nextMessages(1), ['ready']);
    const started = Date.now();
    await within(h.transport.close(), 5000, 'close');
    const elapsed = Date.now() - started;
    assert.equal(h.transport.signal, 'SIGKILL');
    assert.ok(elapsed >= 390, `took ${elapsed} ms`);
    assert.equal(h.closes, 1);
  });

  it('uses the default 2 s + 2 s bounds when none are given', async () => {
    const h = harness(stubborn(true));
    await h.transport.start();
    assert.deepEqual(await h.nextMessages(1), ['ready']);
    const started = Date.now();
    await within(h.transport.close(), 8000, 'close');
    const elapsed = Date.now() - started;
    assert.equal(h.transport.signal, 'SIGKILL');
    assert.ok(elapsed >= 3990, `took ${elapsed} ms`);
  });

  it('fails start() with a clear message when the command does not exist', async () => {
    const h = harness('', { command: 'toolwire-no-such-command-4f1c', args: [] });
    await assert.rejects(h.transport.start(), {
      message: 'cannot start "toolwire-no-such-command-4f1c": not found',
    });
    await within(h.transport.close(), 1000, 'close');
    assert.equal(h.closes, 0, 'a transport that never opened does not close');
    assert.throws(() => h.transport.send('{}'), /transport closed/);
  });

  it('names a missing working directory instead of blaming the command', async () => {
    const h = harness(ECHO, { cwd: '/toolwire/no/such/dir' });
    await assert.rejects(h.transport.start(), {
      message: `cannot start "${process.execPath}": working directory "/toolwire/no/such/dir" not found`,
    });
  });

  it('does not start after close()', async () => {
    const h = harness(ECHO);
    await within(h.transport.close(), 1000, 'close');
    await assert.rejects(h.transport.start(), /transport closed/);
  });

  it('passes env and cwd to the child without a shell', async () => {
    const script = `process.stdout.write(JSON.stringify([process.env.TOOLWIRE_X ?? null, process.cwd(), process.argv.slice(1)]) + '\\n')`;
    const h = harness(script, {
      args: ['-e', script, '$HOME', 'a;b', '*'],
      env: { TOOLWIRE_X: 'y z', PATH: process.env.PATH },
      cwd: '/',
    });
    await h.transport.start();
    const [line] = await h.nextMessages(1);
    assert.deepEqual(JSON.parse(String(line)), ['y z', '/', ['$HOME', 'a;b', '*']]);
    await within(h.transport.close(), 5000, 'close');
  });

  it('captures stderr: onstderr gets every piece and stderrText the tail', async () => {
    const script = `
      process.stderr.write('first line\\n');
      process.stderr.write('é'.repeat(3000) + '\\nlast\\n', () => process.stdout.write('done\\n'));
    `;
    const h = harness(script, { maxStderrBytes: 1001 });
    const pieces: string[] = [];
    h.transport.onstderr = (chunk) => pieces.push(chunk);
    await h.transport.start();
    await h.nextMessages(1);
    await within(h.closed, 5000, 'exit');
    assert.equal(pieces.join(''), 'first line\n' + 'é'.repeat(3000) + '\nlast\n');
    const tail = h.transport.stderrText;
    assert.ok(tail.endsWith('é\nlast\n'));
    assert.ok(!tail.includes('\uFFFD'), 'the cut never splits a character');
    assert.ok(Buffer.byteLength(tail) <= 1001 && Buffer.byteLength(tail) >= 999);
  });

  it('treats stderr output as information, not as an error', async () => {
    const h = harness(ECHO);
    await h.transport.start();
    h.transport.send('stderr');
    h.transport.send('{"after":1}');
    await h.nextMessages(1);
    await within(h.transport.close(), 5000, 'close');
    assert.equal(h.transport.stderrText, 'warming up\n');
    assert.deepEqual(h.errors, []);
  });

  it("keeps no stderr in 'ignore' mode", async () => {
    const h = harness(`process.stderr.write('noise\\n'); process.stdout.write('ok\\n')`, {
      stderr: 'ignore',
    });
    await h.transport.start();
    await h.nextMessages(1);
    await within(h.closed, 5000, 'exit');
    assert.equal(h.transport.stderrText, '');
  });

  it('writes the lines sent during one event-loop turn to the pipe together, in order, once', async () => {
    // Counts the reads it gets and the lines before "count", then answers "<reads> <lines>". The 17 short lines of
    // one turn are one write (well under PIPE_BUF, so atomic), which a reader gets whole in one read.
    const h = harness(`
let reads = 0, lines = 0;
process.stdin.on('data', (chunk) => {
  reads++;
  for (const line of chunk.toString().split('\\n')) {
    if (line === 'count') process.stdout.write(reads + ' ' + lines + '\\n');
    else if (line !== '') lines++;
  }
});
process.stdout.write('ready\\n');
`);
    await h.transport.start();
    await h.nextMessages(1);
    for (let i = 0; i < 16; i++) h.transport.send(`{"id":${i}}`);
    h.transport.send('count');
    assert.deepEqual(await h.nextMessages(2), ['ready', '1 16']);
  });

  it('keeps the order of lines across a write forced by 64 KiB of pending output', async () => {
    const h = harness(ECHO);
    await h.transport.start();
    const big = JSON.stringify({ pad: 'y'.repeat(70 * 1024) });
    h.transport.send('{"n":1}');
    h.transport.send(big); // pending passes 64 KiB: written at once, with what came before it
    h.transport.send('{"n":3}');
    assert.deepEqual(await h.nextMessages(3), ['{"n":1}', big, '{"n":3}']);
  });

  it('close() right after send() still delivers the line before stdin ends', async () => {
    const h = harness(`
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => require('node:fs').writeSync(1, 'got ' + JSON.stringify(text) + '\\n'));
`);
    await h.transport.start();
    h.transport.send('{"last":true}');
    const closing = h.transport.close();
    assert.deepEqual(await h.nextMessages(1), ['got "{\\"last\\":true}\\n"']);
    await within(closing, 5000, 'close');
    assert.equal(h.transport.exitCode, 0);
  });

  it('bounds what it queues for a server that does not read its stdin', async () => {
    const h = harness(
      `process.stdin.pause(); setInterval(() => {}, 1000); process.stdout.write('ready\\n');`,
      {
        maxQueuedBytes: 256 * 1024,
        closeTimeoutMs: 100,
      },
    );
    await h.transport.start();
    await h.nextMessages(1);
    const message = JSON.stringify({ pad: 'x'.repeat(64 * 1024) });
    let thrown: unknown;
    for (let i = 0; i < 1000 && thrown === undefined; i++) {
      try {
        h.transport.send(message);
      } catch (error) {
        thrown = error;
      }
    }
    assert.match(String(thrown), /the server is not reading its stdin; more than 262144 bytes are queued/);
    await within(h.transport.close(), 5000, 'close');
  });
});

describe('StderrTail', () => {
  it('keeps the last bytes and never starts or ends inside a character', () => {
    const tail = new StderrTail(10);
    tail.push(Buffer.from('abc'));
    assert.equal(tail.text, 'abc');
    // '€' is 3 bytes: 4 of them are 12 bytes, cut to 10 leaves 1 whole-character boundary problem at the start.
    tail.push(Buffer.from('€€€€'));
    assert.equal(tail.text, '€€€');
    // A character split between chunks: the first half alone is held back.
    const euro = Buffer.from('€');
    tail.push(euro.subarray(0, 1));
    assert.equal(tail.text, '€€€');
    tail.push(euro.subarray(1));
    assert.equal(tail.text, '€€€');
    assert.equal(new StderrTail(0).text, '');
  });
});

describe('parseCommandLine', () => {
  const cases: Array<[string, string[]]> = [
    ['node server.js --flag', ['node', 'server.js', '--flag']],
    ['  node\t server.js  \n', ['node', 'server.js']],
    ['', []],
    ['python -m "my server" \'single quoted\'', ['python', '-m', 'my server', 'single quoted']],
    [`a'b'"c"d`, ['abcd']],
    [`'' ""`, ['', '']],
    [`"say \\"hi\\" \\$HOME \\\\ \\\` \\n"`, ['say "hi" $HOME \\ ` \\n']],
    [`'no \\escapes $here'`, ['no \\escapes $here']],
    [`a\\ b c\\"d \\'e`, ['a b', 'c"d', "'e"]],
    ['a;b', ['a;b']],
    ['a && b | c > d', ['a', '&&', 'b', '|', 'c', '>', 'd']],
    ['$HOME ~ *.js #x', ['$HOME', '~', '*.js', '#x']],
    ['one\\\ntwo', ['onetwo']],
    ['"one\\\ntwo"', ['onetwo']],
    ["'one\\\ntwo'", ['one\\\ntwo']],
    ['trailing\\', ['trailing\\']],
    ["'' \\\n", ['']],
  ];
  for (const [line, words] of cases) {
    it(`splits ${JSON.stringify(line)}`, () => assert.deepEqual(parseCommandLine(line), words));
  }

  it('throws a clear error on an unterminated quote', () => {
    assert.throws(() => parseCommandLine(`node 'server.js`), {
      message: 'invalid command line: the single quote at position 6 is never closed',
    });
    assert.throws(() => parseCommandLine(`node "server.js \\"`), {
      message: 'invalid command line: the double quote at position 6 is never closed',
    });
  });

  /** A word quoted three ways a user might: single quotes, double quotes, backslashes. */
  const quoters: Record<string, (word: string) => string> = {
    single: (word) => `'${word.replaceAll("'", `'\\''`)}'`,
    double: (word) => `"${word.replace(/[\\"$`]/g, (c) => `\\${c}`)}"`,
    // A backslash before a newline would join lines, so newlines go in single quotes.
    backslash: (word) =>
      word === '' ? "''" : [...word].map((c) => (c === '\n' ? `'\n'` : `\\${c}`)).join(''),
  };
  const quote = (word: string, how: string): string => (quoters[how] ?? quoters.single!)(word);

  it('inverts quoting, for any words and any mix of quoting styles (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'binary' }), fc.constantFrom('single', 'double', 'backslash')), {
          maxLength: 8,
        }),
        fc.constantFrom(' ', '\t', '  ', '\n', ' \\\n '),
        (words, separator) => {
          const line = words.map(([word, how]) => quote(word, how)).join(separator);
          assert.deepEqual(
            parseCommandLine(line),
            words.map(([word]) => word),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('agrees with /bin/sh on lines without expansions', { skip: !existsSync('/bin/sh') }, () => {
    const lines = [
      'node server.js --flag',
      `python -m "my server" 'single quoted'`,
      `a'b'"c"d '' ""`,
      `"say \\"hi\\" \\$HOME \\\\ \\\` \\n"`,
      `a\\ b c\\"d \\'e`,
      'one\\\ntwo "x\\\ny"',
      `'it'\\''s' "tab\there"`,
    ];
    for (const line of lines) {
      const result = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
      const words = result.stdout === '' ? [] : result.stdout.slice(0, -1).split('\0');
      assert.deepEqual(parseCommandLine(line), words, line);
    }
  });
});
