// Approvals in this process's memory: bounded in total and per caller, finished ones dropped oldest first, every
// transition a synchronous step (so atomic within the process). Several instances need a shared store instead.

import type {
  AddRefusal,
  Approval,
  ApprovalBinding,
  ApprovalStatus,
  ApprovalStore,
  ApprovalVerdict,
  StoreLimits,
} from './store.js';

const isLive = (status: ApprovalStatus): boolean => status === 'pending' || status === 'approved';

export class MemoryApprovalStore implements ApprovalStore {
  /** In creation order: the oldest first, so expiry and eviction walk from the front. */
  readonly #approvals = new Map<string, Approval>();
  /** Unexpired pending approvals per principal. */
  readonly #pendingPerCaller = new Map<string, number>();
  /** Expired since the last sweep (whoever noticed): sweep reports each once. Bounded by the approvals held. */
  #expiredSinceSweep: Approval[] = [];

  get size(): number {
    return this.#approvals.size;
  }

  #set(approval: Approval): Approval {
    const before = this.#approvals.get(approval.id);
    if (before?.status === 'pending' && approval.status !== 'pending')
      this.#countPending(before.principal, -1);
    this.#approvals.set(approval.id, approval);
    return approval;
  }

  #countPending(principal: string, change: number): void {
    const count = (this.#pendingPerCaller.get(principal) ?? 0) + change;
    if (count <= 0) this.#pendingPerCaller.delete(principal);
    else this.#pendingPerCaller.set(principal, count);
  }

  /** The approval with its expiry applied. */
  #current(approval: Approval, now: number): Approval {
    return isLive(approval.status) && approval.expiresAt <= now ? this.#markExpired(approval) : approval;
  }

  #markExpired(approval: Approval): Approval {
    const expired = this.#set({ ...approval, status: 'expired' });
    this.#expiredSinceSweep.push(expired);
    return expired;
  }

  add(approval: Approval, limits: StoreLimits, now: number): Promise<AddRefusal | undefined> {
    this.#expire(now);
    if ((this.#pendingPerCaller.get(approval.principal) ?? 0) >= limits.perCaller) {
      return Promise.resolve('caller-limit');
    }
    if (this.#approvals.size >= limits.total) {
      // Finished approvals go first, oldest first; live ones are never dropped to make room.
      for (const [id, held] of this.#approvals) {
        if (this.#approvals.size < limits.total) break;
        if (!isLive(held.status)) this.#approvals.delete(id);
      }
      if (this.#approvals.size >= limits.total) return Promise.resolve('full');
    }
    this.#approvals.set(approval.id, approval);
    this.#countPending(approval.principal, 1);
    return Promise.resolve(undefined);
  }

  get(id: string, now: number): Promise<Approval | undefined> {
    const approval = this.#approvals.get(id);
    return Promise.resolve(approval === undefined ? undefined : this.#current(approval, now));
  }

  find(binding: ApprovalBinding, now: number): Promise<Approval | undefined> {
    let found: Approval | undefined;
    for (const held of this.#approvals.values()) {
      if (
        held.principal === binding.principal &&
        held.tool === binding.tool &&
        held.argsDigest === binding.argsDigest &&
        held.policyVersion === binding.policyVersion &&
        isLive(this.#current(held, now).status)
      ) {
        found = this.#approvals.get(held.id); // later entries are newer
      }
    }
    return Promise.resolve(found);
  }

  list(filter: { status?: ApprovalStatus; limit: number }, now: number): Promise<Approval[]> {
    this.#expire(now);
    const all = [...this.#approvals.values()].reverse();
    const chosen = filter.status === undefined ? all : all.filter((held) => held.status === filter.status);
    return Promise.resolve(chosen.slice(0, filter.limit));
  }

  decide(id: string, verdict: ApprovalVerdict, now: number): Promise<Approval | undefined> {
    const held = this.#approvals.get(id);
    if (held === undefined) return Promise.resolve(undefined);
    const current = this.#current(held, now);
    if (current.status !== 'pending') return Promise.resolve(current);
    const decided: Approval = {
      ...current,
      status: verdict.status,
      approver: verdict.approver,
      decidedAt: now,
      ...(verdict.reason !== undefined && { reason: verdict.reason }),
    };
    return Promise.resolve(this.#set(decided));
  }

  redeem(id: string, now: number): Promise<boolean> {
    const held = this.#approvals.get(id);
    if (held === undefined || this.#current(held, now).status !== 'approved') return Promise.resolve(false);
    this.#set({ ...held, status: 'redeemed' });
    return Promise.resolve(true);
  }

  release(id: string, now: number): Promise<void> {
    const held = this.#approvals.get(id);
    if (held?.status === 'redeemed') this.#current(this.#set({ ...held, status: 'approved' }), now);
    return Promise.resolve();
  }

  sweep(now: number): Promise<Approval[]> {
    this.#expire(now);
    const expired = this.#expiredSinceSweep;
    this.#expiredSinceSweep = [];
    return Promise.resolve(expired);
  }

  #expire(now: number): void {
    for (const held of this.#approvals.values()) {
      if (isLive(held.status) && held.expiresAt <= now) this.#markExpired(held);
    }
  }
}
