// verifyAudit: walks the trail in id order and recomputes the chain (threat H3). An edited row fails its own hash,
// a deleted row leaves a gap in the ids (or a chain that stops short of the head), an inserted one a broken link.

import { recordHash } from './chain.js';
import type { AuditStore } from './types.js';

export type VerifyResult =
  { ok: true; rows: number } | { ok: false; rows: number; firstBadId: number; problem: string };

const PAGE = 1_000;

export async function verifyAudit(store: AuditStore): Promise<VerifyResult> {
  const head = await store.head();
  let expectedId = head.prunedThrough + 1;
  let prevHash = head.prunedHash;
  let rows = 0;
  const bad = (firstBadId: number, problem: string): VerifyResult => ({
    ok: false,
    rows,
    firstBadId,
    problem,
  });
  for (;;) {
    const page = await store.query({ afterId: expectedId - 1, limit: PAGE });
    for (const record of page) {
      if (record.id < expectedId) {
        return bad(
          record.id,
          `row ${record.id} lies before the kept chain, which starts at row ${head.prunedThrough + 1}`,
        );
      }
      if (record.id !== expectedId) {
        const missing =
          record.id - expectedId === 1 ? `row ${expectedId} is` : `rows ${expectedId}–${record.id - 1} are`;
        return bad(expectedId, `${missing} missing (deleted): the chain goes on at row ${record.id}`);
      }
      if (record.prevHash !== prevHash) {
        return bad(
          record.id,
          `row ${record.id} does not follow row ${record.id - 1}: its prev_hash differs from that row's hash`,
        );
      }
      const { hash, ...unhashed } = record;
      if (recordHash(unhashed) !== hash) {
        return bad(
          record.id,
          `row ${record.id} was changed after it was written: its contents do not match its hash`,
        );
      }
      prevHash = hash;
      expectedId += 1;
      rows += 1;
    }
    if (page.length < PAGE) break;
  }
  const lastId = expectedId - 1;
  if (lastId < head.lastId) {
    const missing =
      head.lastId === lastId + 1 ? `row ${head.lastId} is` : `rows ${lastId + 1}–${head.lastId} are`;
    return bad(
      lastId + 1,
      `${missing} missing (deleted): the chain head says the last row is ${head.lastId}`,
    );
  }
  if (lastId > head.lastId) {
    return bad(
      head.lastId + 1,
      `rows after ${head.lastId} were added outside the audit trail: the chain head says the last row is ${head.lastId}`,
    );
  }
  if (rows > 0 && prevHash !== head.lastHash) {
    return bad(lastId, `row ${lastId}'s hash differs from the one the chain head recorded`);
  }
  return { ok: true, rows };
}
