// One search: walk, read and match in batches (reading the next batch while a matching thread works on this one),
// within the file count, the result count, the wall-clock time budget and the matching budget.

import { ToolError } from '../../server/index.js';
import type { FoundMatch, StopReason } from './format-results.js';
import {
  BudgetExhausted,
  DeadlineExceeded,
  MatchAborted,
  MatchFailed,
  type BatchResult,
  type StuckAt,
} from './match-errors.js';
import { SLICE_MS } from './match-job.js';
import type { MatchPool } from './match-pool.js';
import type { MatchSession } from './match-session.js';
import type { Query } from './query.js';
import { readCandidate } from './read-candidate.js';
import type { Candidate } from './walk.js';

/**
 * A batch goes to a thread at this many files or this much text, whichever comes first. Every search in progress
 * holds up to two batches (one matching, the next being read), so this bounds their memory; it is also the most a
 * cut batch can lose, since a batch resumes at the file it was on.
 */
const BATCH_FILES = 64;
const BATCH_CHARS = 1024 * 1024;
/** Files opened at once while reading a batch. */
const READ_CONCURRENCY = 16;
export const PREVIEW_CHARS = 200;

export interface SearchRequest {
  query: Query;
  /** The files to search, in order; the walk calls `keepGoing` as it goes and stops when it says no. */
  candidates: (keepGoing: () => boolean) => AsyncIterable<Candidate>;
  /** The path as the model sees it. */
  show: (candidate: Candidate) => string;
  maxResults: number;
  contextLines: number;
  maxFiles: number;
  maxFileBytes: number;
  /** Wall-clock time of the whole search. */
  timeBudgetMs: number;
  /** Time the search may spend on matching threads. */
  matchBudgetMs: number;
  /** The threads, shared fairly with the other searches, and who is asking (see SessionOptions.owner). */
  pool: MatchPool;
  owner: string;
  signal: AbortSignal;
  onProgress: (filesScanned: number, matches: number) => void;
}

export interface MatchedFile {
  candidate: Candidate;
  size: number;
}

export interface SearchOutcome {
  matches: (FoundMatch & { file: MatchedFile })[];
  filesScanned: number;
  skippedBinary: number;
  skippedLarge: number;
  /** Gone, no permission, or no longer a regular file when opened. */
  skippedUnreadable: number;
  stoppedBy: StopReason | undefined;
}

interface Batch {
  files: MatchedFile[];
  texts: string[];
  chars: number;
}

type Settled = { ok: BatchResult } | { error: unknown };

/**
 * A slow regular expression, rather than a big tree, when one file alone took much of a budget: half of it (up to a
 * second; a file is at most a few MiB), or, for a search that shared the threads with others, most of the matching
 * time it had (at least a slice: benign patterns take a few ms per MiB).
 */
const patternIsSlow = (stuck: StuckAt, usedMs: number, budgetMs: number): boolean =>
  stuck.ms >= Math.min(budgetMs / 2, 1000) || (stuck.ms >= SLICE_MS && stuck.ms * 2 >= usedMs);

const isOutOfMemory = (error: unknown): boolean =>
  error instanceof Error && (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';

const CATASTROPHIC =
  'which usually means a regular expression that backtracks catastrophically (nested quantifiers such as "(a+)+"); ' +
  'use a simpler regular expression, or set regex to false to search for the text literally';

/** The state of one search; `run()` drives it once. */
class SearchRun {
  readonly #request: SearchRequest;
  readonly #deadline: number;
  readonly #session: MatchSession;
  readonly outcome: SearchOutcome = {
    matches: [],
    filesScanned: 0,
    skippedBinary: 0,
    skippedLarge: 0,
    skippedUnreadable: 0,
    stoppedBy: undefined,
  };
  #examined = 0;

  constructor(request: SearchRequest) {
    this.#request = request;
    this.#deadline = Date.now() + request.timeBudgetMs;
    this.#session = request.pool.open({
      query: request.query,
      owner: request.owner,
      budgetMs: request.matchBudgetMs,
      deadline: this.#deadline,
      signal: request.signal,
    });
  }

  /**
   * Two batches are in the pool at a time: while one matches, the next waits there (so it takes the thread the first
   * frees before another search can), and the one after is read only once the first is consumed.
   */
  async run(): Promise<SearchOutcome> {
    try {
      const inFlight: { batch: Batch; pending: Promise<Settled> }[] = [];
      for await (const batch of this.#batches()) {
        inFlight.push({ batch, pending: this.#match(batch) });
        if (inFlight.length < 2) continue;
        const first = inFlight.shift() as (typeof inFlight)[number];
        this.#consume(first.batch, await first.pending);
        if (this.#finished()) break;
      }
      // Batches still in the pool are worth waiting for unless the search is over (they have the same deadline).
      for (const { batch, pending } of inFlight) {
        if (this.#finished()) break;
        this.#consume(batch, await pending);
      }
    } finally {
      this.#session.close();
    }
    return this.outcome;
  }

  /** Matches a batch, asking for one match more than are still wanted ("there are more"). */
  #match(batch: Batch): Promise<Settled> {
    const limit = this.#request.maxResults + 1 - this.outcome.matches.length;
    return this.#session.run(batch.texts, limit, this.#request.contextLines).then(
      (ok) => ({ ok }),
      (error: unknown) => ({ error }),
    );
  }

  /** Enough matches, or a budget spent while matching: nothing more is matched. */
  #finished(): boolean {
    const stopped = this.outcome.stoppedBy;
    return stopped === 'maxResults' || stopped === 'matchBudget';
  }

  #stop(reason: StopReason): void {
    this.outcome.stoppedBy ??= reason;
  }

  /** Checked by the walk between entries and before each file. */
  readonly #keepGoing = (): boolean => {
    if (this.#request.signal.aborted) throw new ToolError('search_code was cancelled');
    if (Date.now() >= this.#deadline) this.#stop('timeBudget');
    return this.outcome.stoppedBy === undefined;
  };

  /** Reads candidates (a few at once) into batches of texts, counting what is skipped. */
  async *#batches(): AsyncGenerator<Batch, void, undefined> {
    const request = this.#request;
    let batch: Batch = { files: [], texts: [], chars: 0 };
    let group: Candidate[] = [];
    const readGroup = async (): Promise<void> => {
      const results = await Promise.all(group.map((file) => readCandidate(file, request.maxFileBytes)));
      results.forEach((result, index) => {
        if (result.kind === 'binary') this.outcome.skippedBinary++;
        else if (result.kind === 'too-large') this.outcome.skippedLarge++;
        else if (result.kind === 'unreadable') this.outcome.skippedUnreadable++;
        else {
          batch.files.push({ candidate: group[index] as Candidate, size: result.size });
          batch.texts.push(result.text);
          batch.chars += result.text.length;
        }
      });
      group = [];
    };
    for await (const candidate of request.candidates(this.#keepGoing)) {
      if (!this.#keepGoing()) break;
      if (this.#examined >= request.maxFiles) {
        this.#stop('maxFiles');
        break;
      }
      this.#examined++;
      group.push(candidate);
      if (group.length < READ_CONCURRENCY) continue;
      await readGroup();
      if (batch.files.length >= BATCH_FILES || batch.chars >= BATCH_CHARS) {
        yield batch;
        batch = { files: [], texts: [], chars: 0 };
      }
    }
    // Files already counted against maxFiles are still read; after the deadline nothing more is.
    const stopped = this.outcome.stoppedBy;
    if (group.length > 0 && (stopped === undefined || stopped === 'maxFiles')) await readGroup();
    if (batch.files.length > 0) yield batch;
  }

  #consume(batch: Batch, settled: Settled): void {
    if ('error' in settled) {
      this.#failure(settled.error, batch);
      return;
    }
    const outcome = this.outcome;
    const request = this.#request;
    outcome.filesScanned += settled.ok.filesDone;
    for (const match of settled.ok.matches) {
      const file = batch.files[match.file] as MatchedFile;
      outcome.matches.push({ ...match, path: request.show(file.candidate), file });
    }
    if (outcome.matches.length > request.maxResults) {
      outcome.matches.length = request.maxResults;
      this.#stop('maxResults');
    }
    request.onProgress(outcome.filesScanned, outcome.matches.length);
  }

  /** Where a stopped batch was stuck, as the model sees it: 'line 3 of "src/a.ts"'. */
  #where(batch: Batch, stuck: StuckAt): string {
    const file = batch.files[stuck.file];
    const path = file === undefined ? '' : `"${this.#request.show(file.candidate)}"`;
    return stuck.line > 0 ? `line ${stuck.line} of ${path}` : path;
  }

  /**
   * A batch that did not finish: a budget ran out (on a slow pattern, or just on a big tree, when the files matched so
   * far are the answer), cancellation, or a failure.
   */
  #failure(error: unknown, batch: Batch): void {
    const { query, timeBudgetMs, matchBudgetMs } = this.#request;
    if (error instanceof BudgetExhausted || error instanceof DeadlineExceeded) {
      const exhausted = error instanceof BudgetExhausted;
      const budget = exhausted ? matchBudgetMs : timeBudgetMs;
      const { stuck, usedMs, partial } = error.detail;
      if (query.regex && stuck !== undefined && patternIsSlow(stuck, usedMs, budget)) {
        throw new ToolError(
          exhausted
            ? `the pattern used up the ${budget} ms matching budget of a search on ${this.#where(batch, stuck)} without finishing it, ${CATASTROPHIC}`
            : `the pattern took longer than the ${budget} ms time budget to run, ${CATASTROPHIC}`,
        );
      }
      this.#consume(batch, { ok: partial });
      this.#stop(exhausted ? 'matchBudget' : 'timeBudget');
      return;
    }
    if (error instanceof MatchAborted) throw new ToolError('search_code was cancelled');
    if (error instanceof MatchFailed) {
      const file = batch.files[error.file];
      const where = file === undefined ? '' : ` on "${this.#request.show(file.candidate)}"`;
      throw new ToolError(`the pattern failed${where} (${error.message}); use a simpler regular expression`);
    }
    if (isOutOfMemory(error)) {
      throw new ToolError(
        'the pattern needed more memory than a search may use; use a simpler regular expression',
      );
    }
    throw error;
  }
}

export const runSearch = (request: SearchRequest): Promise<SearchOutcome> => new SearchRun(request).run();
