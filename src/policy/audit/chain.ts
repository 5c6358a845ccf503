// The hash chain (threat H3): each record's hash covers the previous record's hash and the record itself, in
// canonical JSON, so an edited, inserted or deleted row breaks every hash after it.

import { sha256 } from '../../protocol/sha256.js';
import type { AuditEntry, AuditRecord } from './types.js';

/** The previous hash of the first record ever written. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * JSON with object keys in code-unit order (RFC 8785's order) and no whitespace. Numbers and strings are written as
 * JSON.stringify writes them, which is what RFC 8785 prescribes for the finite numbers and well-formed strings a
 * record holds.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      if (record[key] === undefined) continue; // as JSON.stringify: an undefined member is absent
      members.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The hash of a record: SHA-256 (hex) over the previous hash, a newline, and the canonical JSON of every other field.
 * Every field is a string, a number or null, and the object below lists them in canonical (sorted) order, so one
 * JSON.stringify writes the canonical form (this runs per call; chain.test.ts checks it against canonicalJson).
 */
export function recordHash(record: Omit<AuditRecord, 'hash'>): string {
  const canonical = JSON.stringify({
    approvalId: record.approvalId,
    argsDigest: record.argsDigest,
    arguments: record.arguments,
    authMethod: record.authMethod,
    clientId: record.clientId,
    clientName: record.clientName,
    clientVersion: record.clientVersion,
    decision: record.decision,
    detail: record.detail,
    era: record.era,
    errorCode: record.errorCode,
    id: record.id,
    latencyMs: record.latencyMs,
    method: record.method,
    outcome: record.outcome,
    requestId: record.requestId,
    resultBytes: record.resultBytes,
    rule: record.rule,
    subject: record.subject,
    time: record.time,
    tool: record.tool,
    traceId: record.traceId,
  });
  return sha256(`${record.prevHash}\n${canonical}`, 'hex');
}

/**
 * Chains entries after the row (`lastId`, `lastHash`): their ids follow on, each hash covers the one before. Each
 * record is written out field by field, not spread from the entry: spreading a 22-field object twice per call cost
 * more than hashing it.
 */
export function chainEntries(
  entries: readonly AuditEntry[],
  lastId: number,
  lastHash: string,
): AuditRecord[] {
  const records: AuditRecord[] = [];
  let id = lastId;
  let prevHash = lastHash;
  for (const entry of entries) {
    id += 1;
    const record = {
      id,
      time: entry.time,
      requestId: entry.requestId,
      traceId: entry.traceId,
      method: entry.method,
      era: entry.era,
      subject: entry.subject,
      authMethod: entry.authMethod,
      clientId: entry.clientId,
      clientName: entry.clientName,
      clientVersion: entry.clientVersion,
      tool: entry.tool,
      argsDigest: entry.argsDigest,
      arguments: entry.arguments,
      decision: entry.decision,
      rule: entry.rule,
      approvalId: entry.approvalId,
      outcome: entry.outcome,
      errorCode: entry.errorCode,
      detail: entry.detail,
      latencyMs: entry.latencyMs,
      resultBytes: entry.resultBytes,
      prevHash,
      hash: '',
    };
    record.hash = recordHash(record);
    records.push(record);
    prevHash = record.hash;
  }
  return records;
}
