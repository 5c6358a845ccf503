// SIGTERM/SIGINT hooks for a stdio server: the caller aborts in-flight calls and closes; the library never exits.

export type ShutdownSignal = 'SIGTERM' | 'SIGINT';

/**
 * Installs SIGTERM and SIGINT listeners and returns an idempotent detach function.
 * The first signal detaches both listeners before calling `onSignal`, so a second Ctrl-C falls back to Node's
 * default behaviour and terminates a server whose shutdown hangs, without the library calling process.exit.
 */
export function attachSignalHandlers(onSignal: (signal: ShutdownSignal) => void): () => void {
  let attached = true;
  const detach = (): void => {
    if (!attached) return;
    attached = false;
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  };
  const handle = (signal: ShutdownSignal): void => {
    detach();
    onSignal(signal);
  };
  const onTerm = (): void => handle('SIGTERM');
  const onInt = (): void => handle('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  return detach;
}
