// A real PostgreSQL for tests: initdb into a temporary directory, postgres on a free loopback port (its unix socket
// in that directory too), stopped with `pg_ctl stop -m immediate` and removed after. As root (containers), the
// server runs as "nobody", since PostgreSQL refuses to run as root.

import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface RunningPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

const NOBODY = 65534;

/** The directory holding initdb, pg_ctl and postgres: PATH first, then Debian's /usr/lib/postgresql/<n>/bin. */
export function postgresBinaries(): string | undefined {
  const candidates = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  } catch {
    // no Debian packages
  }
  return candidates.find((dir) =>
    ['initdb', 'pg_ctl', 'postgres'].every((name) => existsSync(join(dir, name))),
  );
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  return postgresBinaries() === undefined
    ? 'PostgreSQL binaries (initdb, pg_ctl, postgres) not found on PATH or in /usr/lib/postgresql/*/bin: install the "postgresql" package'
    : undefined;
}

function run(file: string, args: readonly string[], asNobody: boolean): Promise<string> {
  const [command, argv] = asNobody
    ? ['setpriv', ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', file, ...args]]
    : [file, [...args]];
  return new Promise((resolve, reject) => {
    execFile(command, argv, { timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a fresh cluster; a port taken between choosing and binding is retried (three tries). */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = postgresBinaries();
  if (bin === undefined) throw new Error(postgresMissing());
  const asNobody = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'toolwire-pg-'));
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  mkdirSync(sockets);
  if (asNobody) {
    chownSync(dir, NOBODY, NOBODY);
    chownSync(sockets, NOBODY, NOBODY);
  }
  const log = join(dir, 'postgres.log');
  try {
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      asNobody,
    );
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const settings = [
        `-p ${port}`,
        `-k ${sockets}`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off', // a test cluster: speed over durability (nothing here tests PostgreSQL's crash safety)
        '-c max_connections=30',
        '-c shared_buffers=16MB',
      ].join(' ');
      try {
        await run(
          join(bin, 'pg_ctl'),
          ['-D', data, '-l', log, '-w', '-t', '120', '-o', settings, 'start'],
          asNobody,
        );
      } catch (error) {
        lastError = error;
        continue;
      }
      let stopped: Promise<void> | undefined;
      return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        port,
        stop() {
          stopped ??= run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], asNobody)
            .then(() => undefined)
            .finally(() => rmSync(dir, { recursive: true, force: true }));
          return stopped;
        },
      };
    }
    const text = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
    throw new Error(`postgres did not start: ${(lastError as Error).message}\n${text}`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
