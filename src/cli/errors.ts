// CLI errors and exit codes: 0 success, 1 the tool answered isError, 2 usage error, 3 connection or protocol error.

export const ExitCode = { Success: 0, ToolError: 1, Usage: 2, Connection: 3, Interrupted: 130 } as const;

/**
 * How the stored-token fetch's "log in first" error ends; explain() shows such a message as it is. Here, not in
 * oauth-tokens.ts, so that explaining an error does not load the OAuth client.
 */
export const NEEDS_LOGIN = 'run "toolwire login ';

/** A mistake in how the command was called; the message says how to call it right. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The command was called right but will not go ahead without a flag (exit 2); the message names the flag. */
export class RefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedError';
  }
}
