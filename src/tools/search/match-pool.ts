// Shares a few matching threads fairly among the searches in progress. Each batch waits for a thread; the caller, then
// the search, that has used the least matching time goes first. A batch that has held its thread for its slice while
// someone who has used less waits is cut (the thread is terminated: a regular expression cannot be paused) and
// resumes later at the file it was on. Each search has a matching budget; the batch that reaches it ends the search.
// So a newcomer waits about one base slice, however many hostile patterns are running.

import { MatchAborted, MatchFailed, type BatchResult } from './match-errors.js';
import { publish, type StopCause } from './match-events.js';
import {
  SLICE_MS,
  ranMs,
  sliceOf,
  stoppedError,
  type Job,
  type Owner,
  type SessionOptions,
} from './match-job.js';
import { MatchSession, type PoolDoor } from './match-session.js';
import type { MatchThread } from './match-thread.js';
import { ThreadStock } from './thread-stock.js';
import type { WorkerReply } from './worker-source.js';

type Key = readonly [owner: number, session: number, seq: number];

const compare = (a: Key, b: Key): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * How long `job` may keep its thread against a waiting batch: its own slice, which grows while it makes no progress
 * (so that two heavy searches do not keep cutting each other), but only the base slice against a search that has
 * used less than that in all (a newcomer waits about SLICE_MS, not the longest slice of whatever is running).
 */
const sliceFor = (job: Job, waiting: Key): number => (waiting[1] < SLICE_MS ? SLICE_MS : sliceOf(job));

/** Search ids are unique in the process, like thread ids: events from several pools cannot be confused. */
let sessionIds = 0;

export class MatchPool implements PoolDoor {
  readonly #threads: ThreadStock;
  readonly #waiting: Job[] = [];
  readonly #running = new Set<Job>();
  readonly #owners = new Map<string, Owner>();
  #recheck: NodeJS.Timeout | undefined;
  #requests = 0;
  #seq = 0;

  constructor(threads: number, previewChars: number) {
    this.#threads = new ThreadStock(threads, previewChars);
  }

  open(options: SessionOptions): MatchSession {
    let owner = this.#owners.get(options.owner);
    if (owner === undefined) {
      owner = { key: options.owner, usedMs: 0, sessions: 0 };
      this.#owners.set(options.owner, owner);
    }
    owner.sessions++;
    return new MatchSession(this, ++sessionIds, owner, options);
  }

  leave(session: MatchSession): void {
    for (const job of [...this.#waiting, ...this.#running]) {
      if (job.session === session) this.#stop(job, 'aborted');
    }
    const owner = session.owner;
    owner.usedMs -= session.usedMs;
    if (--owner.sessions === 0) this.#owners.delete(owner.key);
  }

  enqueue(session: MatchSession, texts: string[], limit: number, contextLines: number): Promise<BatchResult> {
    return new Promise((resolve, reject) => {
      const job: Job = {
        session,
        texts,
        limit,
        contextLines,
        next: 0,
        matches: [],
        cuts: 0,
        stuck: undefined,
        seq: ++this.#seq,
        resolve,
        reject,
        timer: undefined,
        onAbort: () => this.#stop(job, 'aborted'),
        turn: undefined,
      };
      const { signal, budgetMs } = session.options;
      if (signal.aborted) {
        reject(new MatchAborted());
        return;
      }
      if (session.usedMs >= budgetMs) {
        reject(stoppedError(job, 'budget')); // spent by the batches before: nothing is matched, nothing is stuck
        return;
      }
      signal.addEventListener('abort', job.onAbort, { once: true });
      this.#wait(job);
      this.#dispatch();
    });
  }

  #wait(job: Job): void {
    this.#waiting.push(job);
    job.timer = setTimeout(() => this.#stop(job, 'deadline'), Math.max(0, job.session.deadline - Date.now()));
    publish(() => ({
      event: 'queued',
      search: job.session.id,
      owner: job.session.owner.key,
      waiting: this.#waiting.length,
    }));
  }

  /** Matching time used, counting turns now running: the owner's, the session's; then the batch's arrival. */
  #key(job: Job, now: number): Key {
    let owner = job.session.owner.usedMs;
    let own = job.session.usedMs;
    for (const running of this.#running) {
      if (running.turn === undefined) continue;
      if (running.session.owner === job.session.owner) owner += ranMs(running.turn, now);
      if (running.session === job.session) own += ranMs(running.turn, now);
    }
    return [owner, own, job.seq];
  }

  /** Gives free threads to the most deserving waiting batches, cutting an overstaying batch when none is free. */
  #dispatch(): void {
    if (this.#recheck !== undefined) clearTimeout(this.#recheck);
    this.#recheck = undefined;
    while (this.#waiting.length > 0) {
      const now = Date.now();
      let best = this.#waiting[0] as Job;
      let bestKey = this.#key(best, now);
      for (const job of this.#waiting) {
        const key = this.#key(job, now);
        if (compare(key, bestKey) < 0) [best, bestKey] = [job, key];
      }
      const thread = this.#threads.take();
      if (thread !== undefined) {
        this.#waiting.splice(this.#waiting.indexOf(best), 1);
        this.#start(best, thread);
        continue;
      }
      const victim = this.#victim(now, bestKey);
      if (victim === undefined) {
        this.#threads.keepSpare(); // someone waits for a thread: have one ready for when a batch is cut
        this.#armRecheck(now, bestKey);
        return;
      }
      this.#cut(victim);
    }
  }

  /** The running batch past its slice whose owner (then search) has used the most, if more than `than`. */
  #victim(now: number, than: Key): Job | undefined {
    let victim: Job | undefined;
    let victimKey: Key = than;
    for (const job of this.#running) {
      const posted = job.turn?.postedAt;
      if (posted === undefined || now - posted < sliceFor(job, than)) continue;
      const key = this.#key(job, now);
      if (compare(key, victimKey) > 0) [victim, victimKey] = [job, key];
    }
    return victim;
  }

  /** When no batch can be cut yet: look again when the first could be (its slice over, its use above `than`). */
  #armRecheck(now: number, than: Key): void {
    let at = Infinity;
    for (const job of this.#running) {
      const posted = job.turn?.postedAt;
      if (posted === undefined) continue; // a thread still starting: #post dispatches again once it is up
      const key = this.#key(job, now);
      const behind = key[0] === than[0] ? than[1] - key[1] : than[0] - key[0];
      at = Math.min(at, Math.max(posted + sliceFor(job, than), now + Math.max(0, behind) + 1));
    }
    if (at === Infinity) return;
    this.#recheck = setTimeout(() => this.#dispatch(), Math.max(1, at - now));
    this.#recheck.unref();
  }

  #start(job: Job, thread: MatchThread): void {
    if (job.timer !== undefined) clearTimeout(job.timer);
    job.timer = undefined;
    job.turn = {
      thread,
      request: ++this.#requests,
      first: job.next,
      postedAt: undefined,
      received: 0,
      lastFile: job.next - 1,
    };
    this.#running.add(job);
    const waitingSince = Date.now();
    void thread.online.then(() => {
      if (job.turn?.thread !== thread) return; // stopped while the thread was starting
      job.session.deadline += Date.now() - waitingSince; // a thread's start-up is not the search's time
      this.#post(job, thread);
    });
  }

  #post(job: Job, thread: MatchThread): void {
    const turn = job.turn;
    if (turn === undefined) return;
    const { session } = job;
    turn.postedAt = Date.now();
    this.#armLimits(job);
    publish(() => ({ event: 'started', search: session.id, thread: thread.id }));
    const { query } = session.options;
    thread.post(
      {
        id: turn.request,
        source: query.source,
        flags: query.flags,
        literal: !query.regex,
        texts: job.next === 0 ? job.texts : job.texts.slice(job.next),
        first: job.next,
        limit: job.limit - job.matches.length,
        contextLines: job.contextLines,
      },
      { reply: (reply) => this.#reply(job, reply), failure: (error) => this.#threadFailed(job, error) },
    );
    this.#dispatch(); // this batch can now be cut, which a waiting one may need
  }

  /**
   * Stops the running batch at its search's deadline or when the search has used its budget, counting every batch of
   * the search running now (two may run at once); looks again if another one finished first.
   */
  #armLimits(job: Job): void {
    const { session } = job;
    const now = Date.now();
    if (now >= session.deadline) return this.#stop(job, 'deadline');
    let used = session.usedMs;
    let running = 0;
    for (const other of this.#running) {
      if (other.session !== session || other.turn?.postedAt === undefined) continue;
      used += ranMs(other.turn, now);
      running++;
    }
    if (used >= session.options.budgetMs) return this.#stop(job, 'budget');
    const left = Math.min((session.options.budgetMs - used) / Math.max(1, running), session.deadline - now);
    if (job.timer !== undefined) clearTimeout(job.timer);
    job.timer = setTimeout(() => this.#armLimits(job), Math.ceil(left));
  }

  #reply(job: Job, reply: WorkerReply): void {
    const turn = job.turn;
    if (turn === undefined || reply.id !== turn.request) return; // a reply from a turn that was cut
    switch (reply.kind) {
      case 'file':
        job.matches.push(...reply.matches);
        turn.received++;
        turn.lastFile = reply.file;
        return;
      case 'done':
        publish(() => ({
          event: 'finished',
          search: job.session.id,
          thread: turn.thread.id,
          ranMs: ranMs(turn, Date.now()),
        }));
        this.#endTurn(job, true);
        this.#settle(job);
        job.resolve({ matches: job.matches, filesDone: reply.filesDone });
        break;
      case 'failed':
        this.#endTurn(job, true);
        publish(() => ({
          event: 'stopped',
          search: job.session.id,
          thread: turn.thread.id,
          cause: 'failed',
        }));
        this.#settle(job);
        job.reject(new MatchFailed(reply.file, reply.message));
        break;
    }
    this.#dispatch();
  }

  #threadFailed(job: Job, error: Error): void {
    const turn = job.turn;
    if (turn === undefined) return;
    this.#endTurn(job, false);
    publish(() => ({ event: 'stopped', search: job.session.id, thread: turn.thread.id, cause: 'failed' }));
    this.#settle(job);
    job.reject(error);
    this.#dispatch();
  }

  /**
   * Ends the running turn: charges its time, and either gives the thread back (its request ended) or ends it after
   * noting where the batch was, so that the batch can resume at the first unfinished file.
   */
  #endTurn(job: Job, finished: boolean): void {
    const turn = job.turn;
    if (turn === undefined) return;
    job.turn = undefined;
    this.#running.delete(job);
    if (job.timer !== undefined) clearTimeout(job.timer);
    job.timer = undefined;
    const used = ranMs(turn, Date.now());
    job.session.usedMs += used;
    job.session.owner.usedMs += used;
    const { thread } = turn;
    // A request never posted (the thread was starting) leaves the thread as clean as one that finished.
    if (finished || turn.postedAt === undefined) {
      this.#threads.giveBack(thread);
      return;
    }
    const where = thread.whereabouts(turn.request);
    this.#threads.end(thread);
    if (where === undefined) return; // the thread had not begun the request: nothing done, nothing lost
    // Every match message posted for the files before `where.file` was counted in `posted`; if all of them have
    // arrived, the batch resumes there, otherwise just after the last file whose matches did arrive.
    const resume = turn.received >= where.posted ? where.file : turn.lastFile + 1;
    // On the turn's first file, the whole turn counts (as it was charged, delivery to the thread included).
    const onFile = where.file === turn.first ? used : where.onFileMs;
    const before = job.stuck?.file === where.file ? job.stuck : undefined;
    job.stuck = {
      file: where.file,
      line: Math.max(before?.line ?? 0, where.line), // a short last turn may not have got as far as the others
      ms: (before?.ms ?? 0) + onFile,
    };
    job.cuts = resume > job.next ? 0 : job.cuts + 1;
    job.next = resume;
  }

  /** Cuts a running batch for a waiting one: it goes back in the queue, its time charged. */
  #cut(job: Job): void {
    const turn = job.turn;
    if (turn === undefined) return;
    publish(() => ({
      event: 'preempted',
      search: job.session.id,
      thread: turn.thread.id,
      ranMs: ranMs(turn, Date.now()),
    }));
    this.#endTurn(job, false);
    if (job.matches.length >= job.limit) {
      this.#settle(job); // its last match message came before its "done": the batch is complete
      job.resolve({ matches: job.matches, filesDone: job.next });
      return;
    }
    this.#wait(job);
  }

  /** Ends a batch, waiting or running, and with it the search. */
  #stop(job: Job, cause: Exclude<StopCause, 'failed'>): void {
    const waiting = this.#waiting.indexOf(job);
    const thread = job.turn?.thread.id;
    if (waiting !== -1) this.#waiting.splice(waiting, 1);
    else if (job.turn !== undefined) this.#endTurn(job, false);
    else return; // already settled
    publish(() => ({ event: 'stopped', search: job.session.id, thread, cause }));
    this.#settle(job);
    job.reject(stoppedError(job, cause));
    this.#dispatch();
  }

  /** The batch is over: its timer and listener go. */
  #settle(job: Job): void {
    if (job.timer !== undefined) clearTimeout(job.timer);
    job.timer = undefined;
    job.session.options.signal.removeEventListener('abort', job.onAbort);
  }
}
