// `toolwire dev MODULE`: serves a tool module (stdio by default, or --http) and reloads it whenever the file
// changes. Tools added, changed and removed reach clients as one list_changed; a version that fails to load is
// reported with the file and the reason, and the last good version keeps serving.

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { McpServer, stderrLogger } from '../server/index.js';
import { listenHttp } from '../transports/http/index.js';
import { attachSignalHandlers, serveStdio } from '../transports/stdio/index.js';
import { parseAddress } from './address.js';
import { ModuleHost, type LoadResult } from './dev-module.js';
import { ExitCode } from './errors.js';
import { watchPaths, type FileWatch } from './file-watch.js';

export interface DevOptions {
  http?: string;
  /** More files or directories whose changes reload the module (helpers it imports, data it reads). */
  watch?: string[];
}

export interface DevIo {
  stderr: NodeJS.WritableStream;
  cwd: string;
  version: string;
}

const list = (names: readonly string[]): string => (names.length === 0 ? '(none)' : names.join(', '));

/** One line about a reload that worked: what changed for clients. */
function describeReload(file: string, result: Extract<LoadResult, { ok: true }>): string {
  const parts = [
    result.added.length > 0 ? `added ${result.added.join(', ')}` : '',
    result.changed.length > 0 ? `changed ${result.changed.join(', ')}` : '',
    result.removed.length > 0 ? `removed ${result.removed.join(', ')}` : '',
  ].filter((part) => part !== '');
  return `reloaded ${file}: ${parts.length === 0 ? 'no tool changed' : parts.join('; ')}`;
}

export async function dev(moduleText: string, options: DevOptions, io: DevIo): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`toolwire: dev: ${line}\n`);
  const file = resolve(io.cwd, moduleText);
  let address: ReturnType<typeof parseAddress> | undefined;
  try {
    address = options.http === undefined ? undefined : parseAddress(options.http);
  } catch (error) {
    io.stderr.write(`toolwire: ${(error as Error).message}\n`);
    return ExitCode.Usage;
  }
  if (!existsSync(file) || !statSync(file).isFile()) {
    io.stderr.write(
      `toolwire: dev: ${file} is not a file; give the path of a tool module such as ./my-tools.mjs\n`,
    );
    return ExitCode.Usage;
  }
  const extra = (options.watch ?? []).map((path) => resolve(io.cwd, path));
  for (const path of extra) {
    if (!existsSync(path)) {
      io.stderr.write(`toolwire: dev: --watch ${path} does not exist\n`);
      return ExitCode.Usage;
    }
  }

  const server = new McpServer(
    { name: 'toolwire-dev', version: io.version, title: 'toolwire dev server' },
    { logger: stderrLogger, instructions: `Tools from ${file}, reloaded when it changes.` },
  );
  let reloading: Promise<void> | undefined;
  let again = false;
  const host = new ModuleHost({
    file,
    server,
    version: io.version,
    stderr: (text) => void io.stderr.write(text),
    onExit: (how) => {
      say(`the module's process ended (${how}); loading it again`);
      reload();
    },
  });
  const report = (result: LoadResult, first: boolean): void => {
    if (!result.ok) {
      const kept = first
        ? 'serving no tools until it loads'
        : `still serving the last good version (tools: ${list(host.tools)})`;
      say(`cannot load ${file}; ${kept}:\n${result.reason}`);
      return;
    }
    if (result.failed.length > 0) say(`cannot serve ${result.failed.join('; ')}`);
    if (!first) say(describeReload(file, result));
  };
  /** Reloads now, or once more after the reload under way (changes during a load are not lost). */
  const reload = (): void => {
    if (reloading !== undefined) {
      again = true;
      return;
    }
    reloading = (async () => {
      do {
        again = false;
        report(await host.load(), false);
      } while (again);
    })().finally(() => (reloading = undefined));
  };

  report(await host.load(), true);
  const watching: FileWatch = watchPaths(
    [
      { path: file, directory: false },
      ...extra.map((path) => ({ path, directory: statSync(path).isDirectory() })),
    ],
    reload,
    { onError: (error) => say(`watching stopped: ${error.message}`) },
  );
  const shutdown = async (): Promise<void> => {
    watching.close();
    await reloading;
    await server.close();
    await host.close();
  };
  try {
    if (address === undefined) {
      const serving = await serveStdio(server);
      say(`serving ${file} over stdio (tools: ${list(host.tools)}); reloading it when it changes`);
      await serving.closed;
    } else {
      const listening = await listenHttp(server, address);
      io.stderr.write(`toolwire: listening on ${listening.url}\n`);
      say(`serving ${file} (tools: ${list(host.tools)}); reloading it when it changes`);
      await new Promise<void>((done) => {
        const detach = attachSignalHandlers(() => {
          detach();
          done();
        });
      });
      await listening.close();
    }
  } finally {
    await shutdown();
  }
  return ExitCode.Success;
}
