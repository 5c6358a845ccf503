// `toolwire approvals list | approve ID | deny ID`: an approver decides waiting tool calls through the approvals
// admin API (--url), authenticated by its own credential (--header "Authorization: Bearer …" or an API key header).

import type { Command } from 'commander';
import { ExitCode, UsageError } from './errors.js';
import { renderTable } from './table.js';
import { terminalText } from './terminal-text.js';

export interface ApprovalsCommandOptions {
  /** The admin endpoint's approvals base, like http://127.0.0.1:8788/approvals. */
  url?: string;
  header?: string[];
  json?: boolean;
  reason?: string;
  status?: string;
  timeout?: string;
}

export interface ApprovalsIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const APPROVAL_ID = /^[A-Za-z0-9_-]{24}$/;
const STATUSES = ['pending', 'approved', 'denied', 'expired', 'redeemed'];
/** The most of an answer read (a thousand approvals with their argument previews fit). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

interface ShownApproval {
  id: string;
  tool: string;
  status: string;
  caller: { subject: string; via: string };
  created: number;
  expiresAt: number;
  approver?: string;
  reason?: string;
  argumentsPreview: string;
}

/** A refusal from the admin API (its status and message), as opposed to not reaching it. */
class RefusedByServer extends Error {}

function baseUrl(url: string | undefined): string {
  if (url === undefined)
    throw new UsageError('--url is required: the approvals admin URL, like http://127.0.0.1:8788/approvals');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(url.slice(0, 200))} is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError('--url must be an http or https URL');
  if (parsed.username !== '' || parsed.password !== '' || parsed.search !== '' || parsed.hash !== '') {
    throw new UsageError(
      '--url may not carry credentials, a query or a fragment: send credentials with --header',
    );
  }
  return parsed.href.replace(/\/+$/, '');
}

function headers(lines: readonly string[] = []): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header expects "Name: value", got ${JSON.stringify(line.slice(0, 80))}`);
    }
    result[name] = line.slice(colon + 1).trim();
  }
  return result;
}

function timeout(value: string | undefined): number {
  const ms = Number(value ?? '60000');
  if (!Number.isInteger(ms) || ms < 1 || ms > 3_600_000)
    throw new UsageError('--timeout takes 1 to 3600000 milliseconds');
  return ms;
}

/** One call to the admin API: its JSON answer, or a RefusedByServer with the server's own message. */
async function callApi(
  options: ApprovalsCommandOptions,
  path: string,
  body?: object,
): Promise<Record<string, unknown>> {
  const url = `${baseUrl(options.url)}/api${path}`;
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...headers(options.header),
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    redirect: 'error',
    signal: AbortSignal.timeout(timeout(options.timeout)),
  });
  const text = await response.text();
  if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) throw new Error(`the answer from ${url} is too large`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${url} answered ${response.status} with something that is not JSON`);
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (!response.ok) {
    const message = typeof record.error === 'string' ? record.error : `status ${response.status}`;
    throw new RefusedByServer(`refused (${response.status}): ${message}`);
  }
  return record;
}

const when = (ms: number): string => new Date(ms).toISOString();

async function list(options: ApprovalsCommandOptions, io: ApprovalsIo): Promise<number> {
  const status = options.status ?? 'pending';
  if (status !== 'all' && !STATUSES.includes(status)) {
    throw new UsageError(`--status takes all or one of ${STATUSES.join(', ')}`);
  }
  const answer = await callApi(options, status === 'all' ? '' : `?status=${status}`);
  const approvals = (Array.isArray(answer.approvals) ? answer.approvals : []) as ShownApproval[];
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify(approvals, null, 2)}\n`);
    return ExitCode.Success;
  }
  if (approvals.length === 0) {
    io.stdout.write(status === 'all' ? 'no approvals\n' : `no ${status} approvals\n`);
    return ExitCode.Success;
  }
  const rows = approvals.map((approval) => [
    String(approval.id),
    String(approval.tool),
    String(approval.status),
    `${String(approval.caller?.subject)} (${String(approval.caller?.via)})`,
    when(approval.created),
    when(approval.expiresAt),
    String(approval.argumentsPreview),
  ]);
  io.stdout.write(
    `${renderTable(['ID', 'TOOL', 'STATUS', 'CALLER', 'ASKED', 'EXPIRES', 'ARGUMENTS'], rows)}\n`,
  );
  return ExitCode.Success;
}

async function decide(
  verb: 'approve' | 'deny',
  id: string,
  options: ApprovalsCommandOptions,
  io: ApprovalsIo,
): Promise<number> {
  if (!APPROVAL_ID.test(id)) {
    throw new UsageError(
      `${JSON.stringify(id.slice(0, 80))} is not an approval id (24 letters, digits, "-" or "_"; "toolwire approvals list" shows them)`,
    );
  }
  const answer = await callApi(
    options,
    `/${id}/${verb}`,
    options.reason === undefined ? {} : { reason: options.reason },
  );
  const approval = answer.approval as ShownApproval | undefined;
  if (options.json === true) io.stdout.write(`${JSON.stringify(approval, null, 2)}\n`);
  else {
    io.stdout.write(
      `${terminalText(`${verb === 'approve' ? 'approved' : 'denied'} ${id}: tool "${String(approval?.tool)}" of ${String(approval?.caller?.subject)}`)}\n`,
    );
  }
  return ExitCode.Success;
}

async function run(io: ApprovalsIo, step: () => Promise<number>): Promise<number> {
  try {
    return await step();
  } catch (error) {
    const message = terminalText(error instanceof Error ? error.message : String(error));
    if (error instanceof UsageError) {
      io.stderr.write(`toolwire: ${message}\nrun "toolwire approvals --help" for usage\n`);
      return ExitCode.Usage;
    }
    io.stderr.write(`toolwire: ${message}\n`);
    return error instanceof RefusedByServer ? ExitCode.ToolError : ExitCode.Connection;
  }
}

export const approvalsList = (options: ApprovalsCommandOptions, io: ApprovalsIo): Promise<number> =>
  run(io, () => list(options, io));
export const approvalsDecide = (
  verb: 'approve' | 'deny',
  id: string,
  options: ApprovalsCommandOptions,
  io: ApprovalsIo,
): Promise<number> => run(io, () => decide(verb, id, options, io));

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

const connection = (command: Command): Command =>
  command
    .option('--url <url>', 'the approvals admin URL, like http://127.0.0.1:8788/approvals')
    .option('--header <name: value>', 'an HTTP header to send, such as your credential (repeatable)', collect)
    .option('--timeout <ms>', 'time limit in milliseconds', '60000')
    .option('--json', 'machine-readable output');

/** Adds `toolwire approvals …` to the program; `done` receives each run's exit code. */
export function addApprovalsCommand(program: Command, io: ApprovalsIo, done: (code: number) => void): void {
  const approvals = program
    .command('approvals')
    .description('List, approve and deny tool calls waiting for a human (needs the approvals:decide scope)');
  connection(approvals.command('list').description('Show approvals (pending by default)'))
    .option('--status <status>', `all, or one of ${STATUSES.join(', ')}`, 'pending')
    .action(async (options: ApprovalsCommandOptions) => done(await approvalsList(options, io)));
  for (const verb of ['approve', 'deny'] as const) {
    connection(
      approvals
        .command(verb)
        .description(verb === 'approve' ? 'Let a waiting call run (once)' : 'Refuse a waiting call')
        .argument('<id>', 'the approval id (from the approval URL or "toolwire approvals list")'),
    )
      .option('--reason <text>', 'why (shown to the caller when denied, and kept with the decision)')
      .action(async (id: string, options: ApprovalsCommandOptions) =>
        done(await approvalsDecide(verb, id, options, io)),
      );
  }
}
