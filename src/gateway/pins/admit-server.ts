// What the gateway asks before starting an upstream (threat C8): is this launch definition approved (or trusted on
// the first run), and does it fetch code without pinning it? A held or denied upstream is not started; the reason
// shows the full command line (or URL) an admin consents to, what changed, and the command that approves it.

import type { Finding } from '../scan/index.js';
import type { UpstreamConfig } from '../upstream/index.js';
import { describeLaunch } from './launch-text.js';
import type { ServerPinBook, ServerVerdict } from './server-pin-book.js';
import { supplyChainFindings, type SupplyChainOptions } from './supply-chain.js';
import { shellWord } from './visible.js';

export interface AdmitOptions extends SupplyChainOptions {
  /** The gateway's config file, so the approve command in a hold message can be pasted as it is. */
  configFile?: string;
}

export type ServerAdmission =
  | {
      start: true;
      findings: Finding[];
      /** A line for the log when the server was pinned now (trusted on the first run), with its full command. */
      note?: string;
    }
  | { start: false; reason: string; findings: Finding[] };

/** One finding as a log line. */
export const findingLine = (server: string, finding: Finding): string =>
  `upstream "${server}" ${finding.where} (${finding.rule}, ${finding.severity}): ${finding.detail}`;

function heldReason(
  config: UpstreamConfig,
  verdict: Extract<ServerVerdict, { kind: 'held' }>,
  options: AdmitOptions,
): string {
  const where = options.configFile === undefined ? '' : ` --config ${shellWord(options.configFile)}`;
  const why =
    verdict.why === 'new'
      ? 'is new (not in the config when the gateway first ran, and never approved)'
      : verdict.why === 're-added'
        ? 'was removed from the config and added again'
        : 'changed its launch definition since it was approved';
  const lines = [
    `upstream "${config.name}" ${why}, so it is held and not started until an admin approves it:`,
    describeLaunch(verdict.definition),
  ];
  if (verdict.why !== 'new') lines.push(verdict.diff);
  lines.push(
    `approve it with: toolwire pins approve ${config.name}${where} --digest ${verdict.digest.slice(0, 12)}   (toolwire pins diff ${config.name}${where} shows the change)`,
  );
  return lines.join('\n');
}

/**
 * The decision on starting `config`, failing closed: a store that cannot answer holds the server. A pinned server
 * with a 'deny' supply-chain finding is not started either.
 */
export function admitServer(
  book: ServerPinBook,
  config: UpstreamConfig,
  options: AdmitOptions = {},
): ServerAdmission {
  const findings = supplyChainFindings(config, options);
  let verdict: ServerVerdict;
  try {
    verdict = book.check(config);
  } catch (error) {
    return {
      start: false,
      reason: `upstream "${config.name}" is not started: its server pin cannot be checked (${(error as Error).message})`,
      findings,
    };
  }
  if (verdict.kind === 'held')
    return { start: false, reason: heldReason(config, verdict, options), findings };
  const denied = findings.filter((finding) => finding.severity === 'deny');
  if (denied.length > 0) {
    return {
      start: false,
      reason: [
        `upstream "${config.name}" is not started: it fetches code at start without pinning it (unpinned: deny):`,
        ...denied.map((finding) => `  ${finding.where}: ${finding.detail}`),
      ].join('\n'),
      findings,
    };
  }
  if (verdict.kind === 'match') return { start: true, findings };
  const how = verdict.adopted
    ? 'pinned as configured (the pin store predates server pins, and its tools were pinned already)'
    : "trusted on the gateway's first run and pinned";
  return {
    start: true,
    findings,
    note: `upstream "${config.name}" ${how}; a later change holds it until approved:\n${describeLaunch(verdict.definition)}`,
  };
}

/**
 * admitServer for every upstream of a config, after marking the recorded servers that are no longer configured as
 * removed (so coming back asks for consent again). Keyed by server name, in the config's order.
 */
export function admitServers(
  book: ServerPinBook,
  configs: readonly UpstreamConfig[],
  options: AdmitOptions = {},
): Map<string, ServerAdmission> {
  const admissions = new Map<string, ServerAdmission>();
  try {
    book.retire(configs.map((config) => config.name));
  } catch {
    // A store that cannot be written now fails each check below too, and each says so.
  }
  for (const config of configs) admissions.set(config.name, admitServer(book, config, options));
  return admissions;
}
