// Server names (the keys of the mcpServers map): the prefix of every exposed name, so they must be unambiguous.

import { NamingError, showName } from './errors.js';

/** Between a server's name and its tool's or prompt's in every exposed name: `server___tool`. */
export const SEPARATOR = '___';
/** Short enough to leave a readable tool name inside the 64-character budget of an exposed name. */
export const MAX_SERVER_NAME_LENGTH = 32;

const CHARSET = /^[A-Za-z0-9_-]+$/;

/** Why a server name is refused, or undefined when it is fine. */
export function serverNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'a server name must be a string';
  if (name.length === 0) return 'a server name must not be empty';
  const shown = `server name "${showName(name)}"`;
  if (name.length > MAX_SERVER_NAME_LENGTH) {
    return `${shown} is ${name.length} characters; at most ${MAX_SERVER_NAME_LENGTH} are allowed`;
  }
  if (!CHARSET.test(name)) return `${shown} may only contain A-Z, a-z, 0-9, "_" and "-"`;
  // With no "___" inside and no "_" at its end, the first "___" of an exposed name is always the separator, so
  // `server___tool` names one server only, whatever the tool's own name holds (C3).
  if (name.includes(SEPARATOR))
    return `${shown} contains "${SEPARATOR}", the separator between server and tool names`;
  if (name.endsWith('_'))
    return `${shown} must not end with "_" (it would run into the "${SEPARATOR}" separator)`;
  // A leading "-" would read as an option on the command line (`toolwire pins approve -x___tool`).
  if (name.startsWith('_') || name.startsWith('-')) return `${shown} must start with a letter or a digit`;
  return undefined;
}

export const isServerName = (name: unknown): name is string => serverNameProblem(name) === undefined;

/** Throws NamingError('bad-server-name') unless the name is 1–32 of [A-Za-z0-9_-], starting with a letter or digit, not ending with "_", without "___". */
export function checkServerName(name: string): void {
  const problem = serverNameProblem(name);
  if (problem !== undefined) throw new NamingError('bad-server-name', problem);
}
