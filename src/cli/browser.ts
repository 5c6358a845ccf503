// Opening the authorization URL in the user's browser, only where that can work: a desktop session with a known
// opener, never under CI or tests. The URL goes as one argument to the opener, never through a shell.

import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

function onPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const directory of (env.PATH ?? '').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The opener to run, or undefined when no browser should be (or can be) opened. */
export function browserOpener(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (env.CI !== undefined || env.NODE_ENV === 'test' || env.TOOLWIRE_NO_BROWSER !== undefined)
    return undefined;
  if (platform === 'darwin') return onPath('open', env);
  if (platform === 'win32') return undefined; // `start` is a shell builtin; printing the URL is the safe choice
  const display = (env.DISPLAY ?? '') !== '' || (env.WAYLAND_DISPLAY ?? '') !== '';
  return display ? onPath('xdg-open', env) : undefined;
}

/** Starts the opener detached; whether it worked is not awaited (the URL is printed either way). */
export function openBrowser(url: string, opener: string): void {
  try {
    const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // the printed URL is the fallback
  }
}
