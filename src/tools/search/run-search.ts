// One search: walk, read and match in batches (reading the next batch while the worker matches this one), within
// the file count, the result count and the time budget.

import { ToolError } from '../../server/index.js';
import type { FoundMatch, StopReason } from './format-results.js';
import { DeadlineExceeded, MatchAborted, MatchFailed, Matcher, type BatchResult } from './matcher.js';
import type { Query } from './query.js';
import { readCandidate } from './read-candidate.js';
import type { Candidate } from './walk.js';

/** A batch goes to the worker at this many files or this much text, whichever comes first. */
const BATCH_FILES = 64;
const BATCH_CHARS = 4 * 1024 * 1024;
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
  timeBudgetMs: number;
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

/** A slow regular expression, rather than a big tree, when one batch alone ran this long at the deadline. */
const patternIsSlow = (busyMs: number, budgetMs: number): boolean => busyMs >= Math.min(budgetMs / 2, 1000);

const isOutOfMemory = (error: unknown): boolean =>
  error instanceof Error && (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';

/** The state of one search; `run()` drives it once. */
class SearchRun {
  readonly #request: SearchRequest;
  readonly #deadline: number;
  readonly #matcher: Matcher;
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
    this.#matcher = new Matcher(request.query, PREVIEW_CHARS, this.#deadline, request.signal);
  }

  async run(): Promise<SearchOutcome> {
    try {
      let previous: { batch: Batch; pending: Promise<Settled> } | undefined;
      for await (const batch of this.#batches()) {
        if (previous !== undefined) {
          this.#consume(previous.batch, await previous.pending);
          previous = undefined;
          const stopped = this.outcome.stoppedBy;
          if (stopped === 'maxResults' || stopped === 'timeBudget') break;
        }
        const limit = this.#request.maxResults + 1 - this.outcome.matches.length; // one extra tells "there are more"
        const pending: Promise<Settled> = this.#matcher
          .run(batch.texts, limit, this.#request.contextLines)
          .then(
            (ok) => ({ ok }),
            (error: unknown) => ({ error }),
          );
        previous = { batch, pending };
      }
      // A batch still in the worker is worth waiting for unless enough matches are in (it has the same deadline).
      if (previous !== undefined && this.outcome.stoppedBy !== 'maxResults') {
        this.#consume(previous.batch, await previous.pending);
      }
    } finally {
      await this.#matcher.close();
    }
    return this.outcome;
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
      const results = await Promise.all(group.map((file) => readCandidate(file.real, request.maxFileBytes)));
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

  /** A batch that did not finish: the deadline (a slow pattern, or just a big tree), cancellation, or a failure. */
  #failure(error: unknown, batch: Batch): void {
    const budget = this.#request.timeBudgetMs;
    if (error instanceof DeadlineExceeded) {
      if (this.#request.query.regex && patternIsSlow(error.busyMs, budget)) {
        throw new ToolError(
          `the pattern took longer than the ${budget} ms time budget to run, which usually means a ` +
            'regular expression that backtracks catastrophically (nested quantifiers such as "(a+)+"); use a ' +
            'simpler regular expression, or set regex to false to search for the text literally',
        );
      }
      this.#stop('timeBudget');
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
