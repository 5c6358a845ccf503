// A progress bar on stderr for `toolwire call` (a terminal), or plain lines when stderr is not one.

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export function createProgressBar(stream: ProgressSink): {
  update(progress: number, total?: number, message?: string): void;
  done(): void;
} {
  let drawn = false;
  return {
    update(progress, total, message) {
      const note = message === undefined ? '' : ` ${message}`;
      if (stream.isTTY !== true) {
        stream.write(`progress: ${progress}${total === undefined ? '' : `/${total}`}${note}\n`);
        return;
      }
      const width = 30;
      const ratio = total !== undefined && total > 0 ? Math.min(1, Math.max(0, progress / total)) : undefined;
      const bar =
        ratio === undefined
          ? `[${'.'.repeat(width)}] ${progress}`
          : `[${'#'.repeat(Math.round(ratio * width)).padEnd(width, ' ')}] ${Math.round(ratio * 100)}%`;
      stream.write(`\r\x1b[K${bar}${note.slice(0, 60)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
