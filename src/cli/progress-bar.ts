// A progress bar on stderr for `toolwire call` (a terminal), or plain lines when stderr is not one. On a terminal the
// line always fits the width (read again on every draw, redrawn on resize): a line that wraps cannot be cleared by
// `\r\x1b[K` and leaves a stale row behind on every update. An unknown total gets a moving block instead of a bar.

import { terminalLine } from './terminal-text.js';
import { fitWidth } from './terminal-width.js';

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
  /** The terminal's width (node's tty.WriteStream has it); 80 is assumed without it. */
  columns?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

export interface ProgressState {
  progress: number;
  total?: number | undefined;
  /** Already made safe with terminalLine. */
  message?: string | undefined;
}

export interface ProgressBar {
  update(progress: number, total?: number, message?: string): void;
  done(): void;
}

const MIN_BAR = 10;
const MAX_BAR = 30;
const BLOCK = '<=>';
/** How often the block of an unknown total moves. */
const FRAME_MS = 120;

/** Where the moving block sits in frame `frame`: it bounces between the ends of a `width`-wide track. */
function blockAt(frame: number, width: number): number {
  const last = width - BLOCK.length;
  if (last <= 0) return 0;
  const step = frame % (2 * last);
  return step <= last ? step : 2 * last - step;
}

/** The line drawn for `state` in `width` columns (at least 1); `frame` animates an unknown total. */
export function progressLine(state: ProgressState, width: number, frame: number): string {
  const { progress, total, message } = state;
  const ratio = total !== undefined && total > 0 ? Math.min(1, Math.max(0, progress / total)) : undefined;
  const figure = ratio === undefined ? String(progress) : `${Math.round(ratio * 100)}%`;
  const barWidth = Math.min(MAX_BAR, Math.max(MIN_BAR, Math.floor(width / 3)));
  let head: string;
  if (width < barWidth + 3 + figure.length)
    head = figure; // too narrow for a bar: the number alone
  else if (ratio === undefined) {
    const at = blockAt(frame, barWidth);
    head = `[${' '.repeat(at)}${BLOCK}${' '.repeat(barWidth - BLOCK.length - at)}] ${figure}`;
  } else head = `[${'#'.repeat(Math.round(ratio * barWidth)).padEnd(barWidth, ' ')}] ${figure}`;
  return fitWidth(message === undefined || message === '' ? head : `${head} ${message}`, width);
}

export function createProgressBar(stream: ProgressSink, frameMs = FRAME_MS): ProgressBar {
  let state: ProgressState | undefined;
  let frame = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const draw = (): void => {
    if (state === undefined) return;
    const columns = stream.columns !== undefined && stream.columns > 1 ? stream.columns : 80;
    // One column short of the edge: writing the last column leaves some terminals about to wrap.
    stream.write(`\r\x1b[K${progressLine(state, columns - 1, frame)}`);
  };
  const stopAnimation = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  return {
    update(progress, total, message) {
      const safe = message === undefined ? undefined : terminalLine(message);
      if (stream.isTTY !== true) {
        const figure = `${progress}${total === undefined ? '' : `/${total}`}`;
        stream.write(`progress: ${figure}${safe === undefined ? '' : ` ${safe}`}\n`);
        return;
      }
      if (state === undefined) stream.on?.('resize', draw);
      state = { progress, total, message: safe };
      frame++;
      if (total !== undefined && total > 0) stopAnimation();
      else if (timer === undefined) {
        timer = setInterval(() => {
          frame++;
          draw();
        }, frameMs);
        timer.unref(); // the bar never keeps the command alive
      }
      draw();
    },
    done() {
      stopAnimation();
      if (state !== undefined) {
        stream.off?.('resize', draw);
        stream.write('\r\x1b[K');
      }
      state = undefined;
    },
  };
}
