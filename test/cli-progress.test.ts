// The progress bar of `toolwire call`: every line fits the terminal's width (read again on resize), long messages are
// cut, an unknown total moves a block instead of showing a static dotted bar; and, in a real 50-column tmux pane, a
// call with long progress messages leaves no stale lines behind (it did: every update wrapped).

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { createProgressBar, progressLine, type ProgressSink } from '../src/cli/progress-bar.js';
import { displayWidth } from '../src/cli/terminal-width.js';
import { CLI_LIMIT_MS, cliCommand, fixtureTarget, shellQuote, within } from './fixtures/client/harness.js';

const run = promisify(execFile);
const LONG = 'reading the next chunk of a rather large file that has a long name.csv';

/** A terminal-like sink: records writes, has columns, and emits 'resize' like tty.WriteStream. */
class FakeTerminal extends EventEmitter implements ProgressSink {
  readonly isTTY = true;
  columns: number;
  writes: string[] = [];
  #waiters: Array<() => void> = [];
  constructor(columns: number) {
    super();
    this.columns = columns;
  }
  write(text: string): boolean {
    this.writes.push(text);
    for (const wake of this.#waiters.splice(0)) wake();
    return true;
  }
  /** Resolves at the next write. */
  nextWrite(): Promise<void> {
    return within(new Promise<void>((resolve) => this.#waiters.push(resolve)), 10_000, 'a redraw');
  }
  get last(): string {
    return this.writes.at(-1) ?? '';
  }
}

const DRAW = '\r\x1b[K';

describe('the progress bar', () => {
  it('a known total at 50 columns: bar, percentage and the message cut to fit 49 columns', () => {
    const line = progressLine({ progress: 40, total: 100, message: LONG }, 49, 0);
    assert.equal(line, '[######          ] 40% reading the next chunk of…');
    assert.equal(displayWidth(line), 49);
  });

  it('a short line is not padded or cut; a narrow terminal gets the number alone', () => {
    assert.equal(
      progressLine({ progress: 1, total: 4, message: 'ok' }, 79, 0),
      '[#######                   ] 25% ok',
    );
    assert.equal(progressLine({ progress: 1, total: 4, message: 'step one' }, 14, 0), '25% step one');
    assert.equal(progressLine({ progress: 1, total: 4, message: 'step one' }, 8, 0), '25% ste…');
  });

  it('wide characters count two columns when the message is cut', () => {
    const line = progressLine({ progress: 1, total: 2, message: '中文中文中文中文中文中文中文中文' }, 29, 0);
    assert.equal(line, '[#####     ] 50% 中文中文中…');
    assert.equal(displayWidth(line), 28); // one more 中 would have made 30
  });

  it('an unknown total: a block that moves with each frame and bounces at the ends', () => {
    const frames = [0, 1, 2, 13, 14, 15].map((frame) => progressLine({ progress: 7 }, 49, frame));
    assert.deepEqual(frames, [
      '[<=>             ] 7',
      '[ <=>            ] 7',
      '[  <=>           ] 7',
      '[             <=>] 7',
      '[            <=> ] 7',
      '[           <=>  ] 7',
    ]);
  });

  it('regression: a 50-column terminal gets lines of at most 49 columns, and a resize redraws at the new width', () => {
    const terminal = new FakeTerminal(50);
    const bar = createProgressBar(terminal);
    bar.update(20, 100, LONG);
    assert.equal(terminal.last, `${DRAW}[###             ] 20% reading the next chunk of…`);
    terminal.columns = 30;
    terminal.emit('resize');
    assert.equal(terminal.last, `${DRAW}[##        ] 20% reading the…`);
    bar.done();
    assert.equal(terminal.last, DRAW);
    assert.equal(terminal.listenerCount('resize'), 0);
    for (const text of terminal.writes) assert.ok(displayWidth(text.slice(DRAW.length)) < 50, text);
  });

  it('an unknown total animates between updates, and done() stops it', async () => {
    const terminal = new FakeTerminal(80);
    const bar = createProgressBar(terminal, 5);
    bar.update(3, undefined, 'waiting');
    const first = terminal.last;
    await terminal.nextWrite();
    assert.notEqual(terminal.last, first);
    assert.match(terminal.last, /^\r\x1b\[K\[ *<=> *\] 3 waiting$/); // eslint-disable-line no-control-regex
    bar.done();
    const count = terminal.writes.length;
    bar.update(1, 2); // a known total starts no animation
    bar.done();
    assert.equal(terminal.writes.length, count + 2);
  });

  it('without a terminal: one plain line per update, the message neutralised (E1)', () => {
    const writes: string[] = [];
    const bar = createProgressBar({ write: (text: string) => writes.push(text) });
    bar.update(1, 2, 'half\x1b]0;x\x07 done\nnext');
    bar.update(5);
    bar.done();
    assert.deepEqual(writes, ['progress: 1/2 half␛]0;x␇ done␤next\n', 'progress: 5\n']);
  });
});

const hasTmux = ((): boolean => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the progress bar in a real terminal', () => {
  it(
    'regression: in a 50-column tmux pane, long progress messages leave no stale lines behind',
    { timeout: 120_000, skip: hasTmux ? false : 'tmux is not installed' },
    async () => {
      // A private server on a socket of our own, removed afterwards (tmux leaves its socket file behind).
      const dir = mkdtempSync(join(tmpdir(), 'toolwire-tmux-'));
      const socket = join(dir, 'socket');
      const tmux = (...args: string[]) => run('tmux', ['-S', socket, '-f', '/dev/null', ...args]);
      const target = fixtureTarget('cli-fixture-server.mjs', 'progress');
      // `cat` keeps the pane (and the screen) open after the CLI exits; wait-for tells the test it has.
      const script = `${cliCommand(['call', target, 'work', '--yes'])}; echo "exit $?"; tmux -S ${shellQuote([socket])} wait-for -S done; cat`;
      try {
        await tmux(
          'new-session',
          '-d',
          '-x',
          '50',
          '-y',
          '24',
          '-s',
          'bar',
          shellQuote(['sh', '-c', script]),
        );
        await within(tmux('wait-for', 'done'), 3 * CLI_LIMIT_MS, 'the call in tmux'); // the server starts too
        const { stdout: screen } = await tmux('capture-pane', '-p', '-t', 'bar');
        assert.equal(screen.trimEnd(), 'finished\nexit 0');
      } finally {
        await tmux('kill-server').catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
