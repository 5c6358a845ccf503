// The audit trail's threads (the writer that stores the record queue, the WAL checkpointer) do work no call waits
// for, so they must not take a CPU from the event loop that answers calls, nor from the clients on the same machine.
// On Linux each lowers its own priority as it starts: nice 19 (os.setPriority on its thread id), then SCHED_IDLE
// through util-linux's chrt, the one policy a waking request handler always preempts at once (with nice 19 alone the
// kernel's EEVDF scheduler may let the thread finish its slice first: measured in the closing note of issue 16).
// Elsewhere, or when chrt is missing, what could be lowered stays lowered; nothing fails.
//
// The source is CommonJS run at the top of each thread's eval'd boot code, before the thread does any work.

export const LOWER_THREAD_PRIORITY = `
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isSafeInteger(tid) && tid > 0) {
    try {
      require('node:os').setPriority(tid, 19);
    } catch {}
    require('node:child_process')
      .execFile('chrt', ['--idle', '--pid', '0', String(tid)], { timeout: 10000 }, () => {})
      .on('error', () => {});
  }
} catch {}
`;
