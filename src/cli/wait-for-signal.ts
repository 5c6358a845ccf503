// How a long-running command (`toolwire serve --http`, `toolwire gateway --http`) waits to be told to stop.

/** Resolves at the first SIGTERM or SIGINT, and stops listening for both. */
export const waitForSignal = (): Promise<void> =>
  new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
