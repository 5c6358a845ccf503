// Over stdio, stdout carries the protocol: console output of a user's tool module (debugging, say) goes to stderr.

/**
 * Sends console.log, console.info and console.debug to stderr for the rest of the process. A module writing to
 * process.stdout directly still corrupts the stream; only console output, which is what modules use, is moved.
 */
export function keepStdoutForProtocol(): void {
  const toStderr = console.error.bind(console);
  Object.assign(console, { log: toStderr, info: toStderr, debug: toStderr });
}
