// `toolwire pins list | diff NAME | approve NAME`: the tool definitions a gateway (or list/call, with --user) pinned,
// the diff of a quarantined one, and approving it. NAME is the gateway's `server___tool`, or SERVER TOOL; a NAME
// without `___` and without TOOL is an upstream server (its launch definition, threat C8: see pins-servers.ts).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  PinBook,
  PinError,
  openPinStore,
  pinName,
  pinStorePath,
  type PinRecord,
} from '../gateway/pins/index.js';
import { ExitCode, UsageError } from './errors.js';
import {
  approveServerText,
  findServer,
  serverDiffText,
  serverJson,
  serverRow,
  type FullStore,
} from './pins-servers.js';
import { didYouMean } from './suggest.js';
import { renderTable } from './table.js';
import { inertJson, terminalText } from './terminal-text.js';
import { userPinStorePath } from './user-pins.js';

export interface PinsWhere {
  /** A toolwire.json whose gateway.pins names the store (default ./toolwire.json). */
  config?: string;
  /** The store file itself. */
  store?: string;
  /** The store `toolwire list` and `call` keep in the user's config directory. */
  user?: boolean;
}

export interface PinsIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The store file the options point at. */
export function pinStoreFile(options: PinsWhere, io: Pick<PinsIo, 'cwd' | 'env'>): string {
  const given = [options.config, options.store, options.user === true ? true : undefined];
  if (given.filter((value) => value !== undefined).length > 1)
    throw new UsageError('give one of --config FILE, --store FILE and --user');
  if (options.store !== undefined) return resolve(io.cwd, options.store);
  if (options.user === true) return userPinStorePath(io.env);
  const file = resolve(io.cwd, options.config ?? 'toolwire.json');
  if (!existsSync(file)) {
    throw new UsageError(
      options.config === undefined
        ? `there is no ${file} to find the gateway's pin store in: give --config FILE, --store FILE, or --user for the pins of list and call`
        : `config file ${file} does not exist`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return pinStorePath(parsed, dirname(file));
  } catch (error) {
    throw new UsageError(`config file ${file}: ${(error as Error).message}`);
  }
}

/** An upstream server's name: one word without `___` (an upstream key cannot hold it, an exposed tool name always does). */
export const isServerName = (name: string, tool: string | undefined): boolean =>
  tool === undefined && !name.includes('___');

/** SERVER and TOOL from `server___tool` or from two words. */
export function parsePinName(name: string, tool: string | undefined): { server: string; tool: string } {
  if (tool !== undefined) return { server: name, tool };
  const at = name.indexOf('___');
  if (at <= 0 || at + 3 >= name.length) {
    throw new UsageError(
      `${JSON.stringify(name.slice(0, 120))} is not a pinned tool's name: give server___tool (as the gateway names it) or SERVER TOOL`,
    );
  }
  return { server: name.slice(0, at), tool: name.slice(at + 3) };
}

/** The record for NAME, or a usage error naming the closest pinned tool. */
function find(store: FullStore, file: string, name: string, toolWord: string | undefined): PinRecord {
  const { server, tool } = parsePinName(name, toolWord);
  const record = store.get(server, tool);
  if (record !== undefined) return record;
  const names = store.list().map((known) => pinName(known.server, known.tool));
  throw new UsageError(
    `no pinned tool ${pinName(server, tool)} in ${file}${didYouMean(pinName(server, tool), names)} ("toolwire pins list" shows them)`,
  );
}

const short = (digest: string): string => (digest === '' ? 'none' : digest.slice(0, 12));

async function withStore(
  options: PinsWhere,
  io: PinsIo,
  step: (store: FullStore, file: string) => number,
): Promise<number> {
  try {
    const file = pinStoreFile(options, io);
    const store = openPinStore(file, { mustExist: true });
    try {
      return step(store, file);
    } finally {
      store.close();
    }
  } catch (error) {
    const usage = error instanceof UsageError;
    io.stderr.write(
      `toolwire: ${terminalText(error instanceof Error ? error.message : String(error))}\n${usage ? 'run "toolwire pins --help" for usage\n' : ''}`,
    );
    return usage || error instanceof PinError ? ExitCode.Usage : ExitCode.Connection;
  }
}

export const pinsList = (options: PinsWhere & { json?: boolean }, io: PinsIo): Promise<number> =>
  withStore(options, io, (store, file) => {
    const records = store.list();
    const servers = store.listServers();
    if (options.json === true) {
      const shown = records.map((record) => ({
        name: pinName(record.server, record.tool),
        kind: 'tool',
        server: record.server,
        tool: record.tool,
        state: record.state,
        digest: record.digest,
        firstSeen: record.firstSeen,
        ...(record.changedAt !== undefined && { changedAt: record.changedAt }),
        ...(record.pending !== undefined && { pendingDigest: record.pending.digest }),
      }));
      io.stdout.write(`${inertJson([...servers.map(serverJson), ...shown], 2)}\n`);
      return ExitCode.Success;
    }
    if (records.length === 0 && servers.length === 0) {
      io.stdout.write(`${terminalText(`no tools pinned in ${file}`)}\n`);
      return ExitCode.Success;
    }
    // Servers first: a held one starts nothing, whatever its tools.
    const rows = [
      ...servers.map(serverRow),
      ...records.map((record) => [
        pinName(record.server, record.tool),
        'tool',
        record.state,
        record.state === 'quarantined'
          ? `${short(record.digest)} → ${short(record.pending?.digest ?? '')}`
          : short(record.digest),
        record.firstSeen,
        record.changedAt ?? '',
      ]),
    ];
    io.stdout.write(`${renderTable(['NAME', 'KIND', 'STATE', 'SHA256', 'FIRST SEEN', 'CHANGED'], rows)}\n`);
    const heldServers = servers.filter((record) => record.state === 'held').length;
    if (heldServers > 0) {
      io.stderr.write(
        `toolwire: ${heldServers} server${heldServers === 1 ? '' : 's'} held (not started by the gateway): "toolwire pins diff NAME" shows what it would run, "toolwire pins approve NAME" lets the next gateway start run it\n`,
      );
    }
    const held = records.filter((record) => record.state === 'quarantined').length;
    if (held > 0) {
      io.stderr.write(
        `toolwire: ${held} quarantined (neither listed nor callable through the gateway): "toolwire pins diff NAME" shows the change, "toolwire pins approve NAME" accepts it\n`,
      );
    }
    return ExitCode.Success;
  });

export const pinsDiff = (
  name: string,
  tool: string | undefined,
  options: PinsWhere,
  io: PinsIo,
): Promise<number> =>
  withStore(options, io, (store, file) => {
    if (isServerName(name, tool)) {
      const shown = serverDiffText(store, findServer(store, file, name));
      io.stdout.write(shown.stdout);
      if (shown.stderr !== undefined) io.stderr.write(shown.stderr);
      return ExitCode.Success;
    }
    const record = find(store, file, name, tool);
    const diff = new PinBook(store).diff(record.server, record.tool);
    if (diff === undefined) {
      io.stderr.write(
        `toolwire: ${terminalText(`${pinName(record.server, record.tool)} is pinned and unchanged (sha256 ${short(record.digest)}): nothing to show`)}\n`,
      );
      return ExitCode.Success;
    }
    io.stdout.write(`${terminalText(diff)}\n`);
    return ExitCode.Success;
  });

export const pinsApprove = (
  name: string,
  tool: string | undefined,
  options: PinsWhere & { digest?: string },
  io: PinsIo,
): Promise<number> =>
  withStore(options, io, (store, file) => {
    if (isServerName(name, tool)) {
      io.stdout.write(approveServerText(store, findServer(store, file, name), options.digest));
      return ExitCode.Success;
    }
    const record = find(store, file, name, tool);
    const approved = new PinBook(store).approve(record.server, record.tool, options.digest);
    io.stdout.write(
      `${terminalText(`approved ${pinName(approved.server, approved.tool)}: its definition sha256 ${short(approved.digest)} is now the pinned one`)}\n`,
    );
    return ExitCode.Success;
  });

const where = (command: Command): Command =>
  command
    .option(
      '--config <file>',
      "a toolwire.json: the gateway's store is its gateway.pins (default ./toolwire.json)",
    )
    .option('--store <file>', 'the pin store file itself')
    .option('--user', 'the pins "toolwire list" and "call" keep in your toolwire config directory');

/** Adds `toolwire pins …` to the program; `done` receives each run's exit code. */
export function addPinsCommand(program: Command, io: PinsIo, done: (code: number) => void): void {
  const pins = program
    .command('pins')
    .description(
      'Tool definitions and upstream servers pinned on first use: list them, show what changed, approve a change',
    );
  where(
    pins
      .command('list')
      .description(
        'Every pinned server and tool and its state (held server: not started; quarantined tool: changed, not approved)',
      ),
  )
    .option('--json', 'machine-readable output')
    .action(async (options: PinsWhere & { json?: boolean }) => done(await pinsList(options, io)));
  where(
    pins
      .command('diff')
      .description(
        "What changed in a quarantined tool's definition, or what a held server would run (unified diff of canonical JSON)",
      )
      .argument('<name>', "server___tool, SERVER (with TOOL), or an upstream server's name")
      .argument('[tool]', 'TOOL, when SERVER is given apart'),
  ).action(async (name: string, tool: string | undefined, options: PinsWhere) =>
    done(await pinsDiff(name, tool, options, io)),
  );
  where(
    pins
      .command('approve')
      .description(
        'Adopt the changed definition of a quarantined tool, or let a held server start (its full command is printed)',
      )
      .argument('<name>', "server___tool, SERVER (with TOOL), or an upstream server's name")
      .argument('[tool]', 'TOOL, when SERVER is given apart'),
  )
    .option('--digest <hex>', 'approve only if the change is still this one (the sha256 start "diff" shows)')
    .action(async (name: string, tool: string | undefined, options: PinsWhere & { digest?: string }) =>
      done(await pinsApprove(name, tool, options, io)),
    );
}
