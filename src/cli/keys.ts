// `toolwire keys create | list | revoke`: API keys for servers without an authorization server. A new key is printed
// once on stdout and never kept: only its hash goes to the keys file (--file) or the config (--config).

import type { Command } from 'commander';
import {
  ApiKeysError,
  KEY_ID,
  createApiKey,
  isoInstant,
  labelProblem,
  scopesProblem,
  subjectProblem,
  type ApiKeyRecord,
} from '../policy/api-keys/index.js';
import { RefusedFileError } from './config-write.js';
import { ExitCode, UsageError } from './errors.js';
import { keyStore } from './keys-store.js';
import { didYouMean } from './suggest.js';
import { renderTable } from './table.js';
import { terminalText } from './terminal-text.js';

export interface KeysWhere {
  /** A keys file `{ "keys": [...] }`. */
  file?: string;
  /** A toolwire.json whose policy.apiKeys.keys holds the records. */
  config?: string;
}

export interface KeysCreateOptions extends KeysWhere {
  subject?: string;
  scopes?: string;
  label?: string;
  expires?: string;
}

export interface KeysListOptions extends KeysWhere {
  json?: boolean;
}

export interface KeysIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  /** The clock for --expires 30d and for marking expired keys. */
  now?: () => Date;
}

const RELATIVE = /^(\d{1,5})([dh])$/;
const HOUR_MS = 3_600_000;

/** --expires as an ISO time: one given as such, or now + N days ("30d") or hours ("12h"); always in the future. */
export function parseExpires(value: string, now: Date): string {
  const relative = RELATIVE.exec(value);
  let instant: number | undefined;
  if (relative !== null) {
    const count = Number(relative[1]);
    if (count === 0)
      throw new UsageError(`--expires ${value} has already passed; give at least 1${relative[2]}`);
    instant = now.getTime() + count * (relative[2] === 'd' ? 24 : 1) * HOUR_MS;
    return new Date(instant).toISOString();
  }
  instant = isoInstant(value);
  if (instant === undefined) {
    throw new UsageError(
      `--expires takes a number of days or hours ("30d", "12h") or an ISO 8601 time ("2027-01-31T12:00:00Z"), got ${JSON.stringify(value)}`,
    );
  }
  if (instant <= now.getTime()) throw new UsageError(`--expires ${value} is in the past`);
  return value;
}

/** --scopes "a,b": at least one scope, each a valid scope token. */
export function parseScopes(value: string): string[] {
  const scopes = value
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  if (scopes.length === 0)
    throw new UsageError(
      '--scopes needs at least one scope, separated by commas, like --scopes files:read,calc',
    );
  const problem = scopesProblem(scopes);
  if (problem !== undefined) {
    // scopesProblem says "[1] …": name the scope by its place in the list instead
    throw new UsageError(`--scopes: ${problem.replace(/^\[\d+\] /, '')}`);
  }
  return scopes;
}

function checked(
  flag: string,
  value: string | undefined,
  problem: (value: string) => string | undefined,
): string {
  if (value === undefined) throw new UsageError(`keys create needs ${flag}`);
  const text = problem(value);
  if (text !== undefined) throw new UsageError(`${flag} ${text}`);
  return value;
}

async function create(options: KeysCreateOptions, io: KeysIo): Promise<number> {
  const now = io.now?.() ?? new Date();
  const subject = checked('--subject', options.subject, subjectProblem);
  if (options.scopes === undefined)
    throw new UsageError('keys create needs --scopes, like --scopes files:read,calc');
  const scopes = parseScopes(options.scopes);
  const label = options.label === undefined ? undefined : checked('--label', options.label, labelProblem);
  const expires = options.expires === undefined ? undefined : parseExpires(options.expires, now);
  const store = keyStore(options, io.cwd);
  const input = {
    subject,
    scopes,
    ...(label !== undefined && { label }),
    ...(expires !== undefined && { expires }),
  };
  let made: ReturnType<typeof createApiKey> | undefined;
  const backup = await store.update((records) => {
    // A config merged again after a concurrent change gets a new key: the one printed is the one stored last.
    made = createApiKey(input);
    const id = made.record.id;
    if (records.some((record) => record.id === id)) throw new Error('a new key id collided; run again'); // 95 bits
    return [...records, made.record];
  });
  if (made === undefined) throw new Error('unreachable: update runs the change');
  // The key goes out only once it is stored: a failed write must not hand out a key that does not work.
  io.stdout.write(`${made.key}\n`);
  const lines = [
    `created API key ${made.record.id} for ${JSON.stringify(subject)} (scopes: ${scopes.join(', ')}${expires === undefined ? '' : `; expires ${expires}`}) in ${store.name}`,
    ...(backup === undefined ? [] : [`backup of the previous file: ${backup}`]),
    'the key above is shown this once and cannot be shown again (only its hash is kept): store it now',
  ];
  for (const line of lines) io.stderr.write(`toolwire: ${terminalText(line)}\n`);
  return ExitCode.Success;
}

const isExpired = (record: ApiKeyRecord, now: number): boolean =>
  record.expires !== undefined && (isoInstant(record.expires) ?? 0) <= now;

/** A record for people: never the hash. */
const shown = (record: ApiKeyRecord, now: number): Record<string, unknown> => ({
  id: record.id,
  subject: record.subject,
  scopes: record.scopes,
  ...(record.label !== undefined && { label: record.label }),
  ...(record.created !== undefined && { created: record.created }),
  ...(record.expires !== undefined && { expires: record.expires }),
  ...(record.expires !== undefined && { expired: isExpired(record, now) }),
});

async function list(options: KeysListOptions, io: KeysIo): Promise<number> {
  const store = keyStore(options, io.cwd);
  const records = await store.read(false);
  const now = (io.now?.() ?? new Date()).getTime();
  if (options.json === true) {
    const shownRecords = records.map((record) => shown(record, now));
    io.stdout.write(`${JSON.stringify(shownRecords, null, 2)}\n`);
    return ExitCode.Success;
  }
  if (records.length === 0) {
    io.stdout.write(`no API keys in ${terminalText(store.name)}\n`);
    return ExitCode.Success;
  }
  const rows = records.map((record) => [
    record.id,
    record.subject,
    record.scopes.join(','),
    record.label ?? '',
    record.created ?? '',
    record.expires === undefined ? 'never' : `${record.expires}${isExpired(record, now) ? ' (expired)' : ''}`,
  ]);
  io.stdout.write(`${renderTable(['ID', 'SUBJECT', 'SCOPES', 'LABEL', 'CREATED', 'EXPIRES'], rows)}\n`);
  return ExitCode.Success;
}

async function revoke(id: string, options: KeysWhere, io: KeysIo): Promise<number> {
  if (!KEY_ID.test(id)) {
    throw new UsageError(
      `${JSON.stringify(id.slice(0, 80))} is not a key id (12 to 64 letters, digits or "-"; "toolwire keys list" shows them)`,
    );
  }
  const store = keyStore(options, io.cwd);
  await store.read(false); // a missing store is an error here, not an empty one to create
  let revoked: ApiKeyRecord | undefined;
  const backup = await store.update((records) => {
    revoked = records.find((record) => record.id === id);
    if (revoked === undefined) {
      const ids = records.map((record) => record.id);
      throw new UsageError(`there is no key ${id} in ${store.name}${didYouMean(id, ids)}`);
    }
    return records.filter((record) => record !== revoked);
  });
  io.stdout.write(
    `${terminalText(`revoked API key ${id} of ${JSON.stringify(revoked?.subject)} in ${store.name}`)}\n`,
  );
  if (backup !== undefined)
    io.stderr.write(
      `toolwire: ${terminalText(`the backup ${backup} still holds the key's hash: delete it`)}\n`,
    );
  io.stderr.write('toolwire: a server already running accepts the key until it reloads its keys\n');
  return ExitCode.Success;
}

/** Runs one step of `toolwire keys` and turns its errors into messages and exit codes. */
async function run(io: KeysIo, step: () => Promise<number>): Promise<number> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`toolwire: ${terminalText(error.message)}\nrun "toolwire keys --help" for usage\n`);
      return ExitCode.Usage;
    }
    if (error instanceof ApiKeysError || error instanceof RefusedFileError) {
      io.stderr.write(`toolwire: ${terminalText(error.message)}\n`);
      return ExitCode.Usage;
    }
    io.stderr.write(`toolwire: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
    return ExitCode.Connection;
  }
}

export const keysCreate = (options: KeysCreateOptions, io: KeysIo): Promise<number> =>
  run(io, () => create(options, io));
export const keysList = (options: KeysListOptions, io: KeysIo): Promise<number> =>
  run(io, () => list(options, io));
export const keysRevoke = (id: string, options: KeysWhere, io: KeysIo): Promise<number> =>
  run(io, () => revoke(id, options, io));

const where = (command: Command): Command =>
  command
    .option('--file <path>', 'a keys file { "keys": [...] } (created with mode 0600 when missing)')
    .option('--config <file>', 'a toolwire.json: the keys go in its policy.apiKeys.keys');

/** Adds `toolwire keys …` to the program; `done` receives each run's exit code. */
export function addKeysCommand(program: Command, io: KeysIo, done: (code: number) => void): void {
  const keys = program
    .command('keys')
    .description('Create, list and revoke API keys (for servers without an authorization server)');
  where(
    keys
      .command('create')
      .description('Make a new key: printed once on stdout, only its hash is stored')
      .option('--subject <subject>', "who the key stands for (the caller's subject)")
      .option('--scopes <scopes>', 'what it grants, separated by commas: files:read,calc')
      .option('--label <label>', 'a note for people: what the key is for, who holds it')
      .option('--expires <when>', 'when it stops working: 30d, 12h or an ISO 8601 time'),
  ).action(async (options: KeysCreateOptions) => done(await keysCreate(options, io)));
  where(keys.command('list').description('Show the keys (never their hashes)'))
    .option('--json', 'machine-readable output')
    .action(async (options: KeysListOptions) => done(await keysList(options, io)));
  where(
    keys
      .command('revoke')
      .description('Remove a key, so it no longer authenticates')
      .argument('<id>', 'the key id'),
  ).action(async (id: string, options: KeysWhere) => done(await keysRevoke(id, options, io)));
}
