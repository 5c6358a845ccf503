// What a configured stdio server inherits from the process that starts it (`toolwire call NAME`, the gateway's
// upstreams): a minimal environment, as Claude Desktop does it, so a server does not get every secret of the shell.

/** The variables passed on; everything else must be given in the server's own "env". */
export const INHERITED_ENV: readonly string[] = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  'SYSTEMROOT',
];

/** The inherited variables of `env` that are set. */
export function inheritedEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}
