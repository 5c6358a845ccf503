// A launch definition as an admin reads it before consenting (threat C8, SEP-1024 style): the full command line
// quoted for a shell, or the URL, then where it runs, which variables it gets (values only as hashes) and how it
// authenticates.

import type { LaunchDefinition } from './launch-definition.js';
import { shellLine, shellWord, visibleLine } from './visible.js';

/** The command line (quoted as a shell needs it) or the URL: one line, nothing secret in it. */
export function launchLine(definition: LaunchDefinition): string {
  return definition.kind === 'stdio'
    ? shellLine([definition.command, ...(definition.args ?? [])])
    : visibleLine(definition.url);
}

const hashes = (values: Record<string, string>): string =>
  Object.entries(values)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, hash]) => `${visibleLine(name)} (${hash})`)
    .join(', ');

/** Every part of the definition, one per line, each line starting with `indent`. */
export function describeLaunch(definition: LaunchDefinition, indent = '  '): string {
  const lines: string[] = [];
  if (definition.kind === 'stdio') {
    lines.push(`command: ${launchLine(definition)}`);
    if (definition.cwd !== undefined) lines.push(`cwd: ${shellWord(definition.cwd)}`);
    if (definition.env !== undefined) lines.push(`env: ${hashes(definition.env)}`);
  } else {
    lines.push(`url: ${launchLine(definition)}`);
    if (definition.headers !== undefined) lines.push(`headers: ${hashes(definition.headers)}`);
    const credentials = definition.credentials;
    if (credentials?.kind === 'header') {
      lines.push(
        `credentials: header ${visibleLine(credentials.name)} from $${visibleLine(credentials.env)}`,
      );
    } else if (credentials?.kind === 'client-credentials') {
      lines.push(
        `credentials: OAuth client credentials, client ${visibleLine(credentials.clientId)}, secret from $${visibleLine(credentials.clientSecretEnv)}${credentials.scope === undefined ? '' : `, scope ${visibleLine(credentials.scope)}`}`,
      );
    }
  }
  if (definition.trusted === true) lines.push('trusted: its annotations count for policy');
  return lines.map((line) => `${indent}${line}`).join('\n');
}
