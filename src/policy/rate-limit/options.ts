// Rate limits' options: their shape, and the check at construction whose every error names the option at fault.

import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { stderrLogger, type Logger } from '../../server/index.js';
import { ANNOTATION_CLASSES, type AnnotationClass } from '../scopes/annotation-classes.js';
import type { AnnotationTrust } from '../scopes/index.js';

/** `points` calls per window of `durationSeconds`, counted from the first call of the window. */
export interface Limit {
  points: number;
  durationSeconds: number;
}

// The classes are the scope rules' own (policy/scopes): one reading of the hints for every policy piece. A tool may
// be in several; one without annotations is destructive and open-world (the spec's defaults).
export type { AnnotationClass, AnnotationTrust };

/** Makes the counter behind one bucket: `name` is "tool:<tool name>", "class:<class>" or "total". */
export type LimitStore = (name: string, limit: Limit) => RateLimiterAbstract;

export interface RateLimitOptions {
  /** The default bucket per (caller key × tool), for every tool without an entry in `tools`. */
  perCall?: Limit;
  /** A tool's own bucket per caller key (exact tool name), instead of `perCall`. */
  tools?: Readonly<Record<string, Limit>>;
  /** One bucket per annotation class per caller key, shared by every tool of that class. */
  classes?: Partial<Record<AnnotationClass, Limit>>;
  /**
   * Whether tools' own annotations decide their classes, as for scope rules. Default true (the server's own tools);
   * false, or a function answering false, for untrusted upstreams: those tools count as destructive and open-world.
   */
  trustAnnotations?: AnnotationTrust;
  /** One bucket per caller key over all tools/call requests (every request when `countAllRequests`). */
  total?: Limit;
  /** Most tools/call requests one caller key may have in flight; a slot frees when the call ends, is cancelled or times out. */
  concurrency?: number;
  /** Count every request (initialize, lists, pings…) toward `total`, not only tools/call. Default false. */
  countAllRequests?: boolean;
  /**
   * Makes the counter of each bucket. Default: rate-limiter-flexible's RateLimiterMemory (this process only). A shared
   * store (Redis, PostgreSQL) makes the limits hold across instances; maxKeys does not apply to it (its TTLs do).
   */
  store?: LimitStore;
  /**
   * How long a plugged-in store may take to answer a request's counts before the request is refused (503) as if the
   * store had failed. Default 2,000 ms; the memory store answers at once and has none.
   */
  storeTimeoutMs?: number;
  /**
   * Most keys the default memory store keeps over all buckets (about 650 bytes each); past it the oldest windows are
   * forgotten, so those callers start afresh. Default 100,000.
   */
  maxKeys?: number;
  /**
   * The clock (ms) the key bound uses to tell ended windows. Default Date.now, which RateLimiterMemory reads itself:
   * a clock that disagrees with it only makes the bound drop ended windows early or late. Tests fake Date instead.
   */
  now?: () => number;
  /** Where a failing store is reported (once per outage). Default: stderr, as the server's default logger. */
  logger?: Logger;
}

/** The options once checked, with defaults filled in. */
export interface RateLimitSettings {
  readonly perCall: Limit | undefined;
  readonly tools: ReadonlyMap<string, Limit>;
  readonly classes: ReadonlyMap<AnnotationClass, Limit>;
  readonly trustAnnotations: AnnotationTrust;
  readonly total: Limit | undefined;
  readonly concurrency: number | undefined;
  readonly countAllRequests: boolean;
  readonly store: LimitStore | undefined;
  readonly storeTimeoutMs: number;
  readonly maxKeys: number;
  readonly now: () => number;
  readonly logger: Logger;
}

export const DEFAULT_MAX_KEYS = 100_000;
export const DEFAULT_STORE_TIMEOUT_MS = 2_000;
const MAX_STORE_TIMEOUT_MS = 60_000;
const MAX_POINTS = 1_000_000_000;
/** A year: a longer window is a typo, and some stores need whole seconds that fit a 32-bit TTL. */
const MAX_DURATION_SECONDS = 366 * 24 * 3600;
const MAX_CONCURRENCY = 1_000_000;
const MAX_MAX_KEYS = 100_000_000;
/** The names a tool may have (the server refuses any other at registration). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const KNOWN_OPTIONS: readonly (keyof RateLimitOptions)[] = [
  'perCall',
  'tools',
  'classes',
  'trustAnnotations',
  'total',
  'concurrency',
  'countAllRequests',
  'store',
  'storeTimeoutMs',
  'maxKeys',
  'now',
  'logger',
];
const LIMIT_KEYS: ReadonlySet<string> = new Set(['points', 'durationSeconds']);

const fail = (message: string): never => {
  throw new TypeError(message);
};

const show = (value: unknown): string => {
  if (typeof value === 'function') return 'a function';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function integerIn(value: unknown, min: number, max: number, path: string, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`${path} must be ${what} from ${min} to ${max.toLocaleString('en-US')}, got ${show(value)}`);
  }
  return value as number;
}

function checkLimit(value: unknown, path: string): Limit {
  if (!isRecord(value)) return fail(`${path} must be { points, durationSeconds }, got ${show(value)}`);
  for (const key of Object.keys(value)) {
    if (!LIMIT_KEYS.has(key))
      fail(`${path} has an unknown member "${key}" (a limit has points and durationSeconds)`);
  }
  return Object.freeze({
    points: integerIn(value.points, 1, MAX_POINTS, `${path}.points`, 'a whole number of calls'),
    durationSeconds: integerIn(
      value.durationSeconds,
      1,
      MAX_DURATION_SECONDS,
      `${path}.durationSeconds`,
      'a whole number of seconds',
    ),
  });
}

function checkFunction<T>(value: unknown, path: string): T {
  if (typeof value !== 'function') fail(`${path} must be a function, got ${show(value)}`);
  return value as T;
}

function checkTools(value: unknown, root: string): Map<string, Limit> {
  const tools = new Map<string, Limit>();
  if (value === undefined) return tools;
  if (!isRecord(value)) return fail(`${root}.tools must map tool names to limits, got ${show(value)}`);
  for (const [name, limit] of Object.entries(value)) {
    if (!TOOL_NAME.test(name)) {
      fail(`${root}.tools has ${show(name)}, which is no tool name (1-128 of A-Z a-z 0-9 _ . -)`);
    }
    tools.set(name, checkLimit(limit, `${root}.tools[${show(name)}]`));
  }
  return tools;
}

function checkClasses(value: unknown, root: string): Map<AnnotationClass, Limit> {
  const classes = new Map<AnnotationClass, Limit>();
  if (value === undefined) return classes;
  if (!isRecord(value))
    return fail(`${root}.classes must map annotation classes to limits, got ${show(value)}`);
  for (const [name, limit] of Object.entries(value)) {
    const known = ANNOTATION_CLASSES.find((candidate) => candidate === name);
    if (known === undefined) {
      fail(
        `${root}.classes has ${show(name)}, which is no annotation class (${ANNOTATION_CLASSES.join(', ')})`,
      );
    } else if (limit !== undefined) classes.set(known, checkLimit(limit, `${root}.classes[${show(name)}]`));
  }
  return classes;
}

function checkLogger(value: unknown, root: string): Logger {
  if (value === undefined) return stderrLogger;
  const logger = value as Partial<Record<keyof Logger, unknown>>;
  if (!isRecord(value) || typeof logger.warn !== 'function' || typeof logger.info !== 'function') {
    fail(`${root}.logger must be a Logger (debug, info, warn, error), got ${show(value)}`);
  }
  return value as unknown as Logger; // checked just above for the methods this piece calls
}

/**
 * Checks `options` and fills in the defaults; a TypeError names the first option at fault, as a path from `root`
 * (a config reader passes "policy.rateLimits", so its errors name the key in the file).
 */
export function checkOptions(options: unknown, root = 'options'): RateLimitSettings {
  if (!isRecord(options)) return fail(`${root} must be an object, got ${show(options)}`);
  for (const key of Object.keys(options)) {
    if (!(KNOWN_OPTIONS as readonly string[]).includes(key)) {
      fail(`${root}.${key} is not an option (known: ${KNOWN_OPTIONS.join(', ')})`);
    }
  }
  const perCall = options.perCall === undefined ? undefined : checkLimit(options.perCall, `${root}.perCall`);
  const tools = checkTools(options.tools, root);
  const classes = checkClasses(options.classes, root);
  const trustAnnotations = options.trustAnnotations ?? true;
  if (typeof trustAnnotations !== 'boolean' && typeof trustAnnotations !== 'function') {
    fail(
      `${root}.trustAnnotations must be true, false or a function of the tool, got ${show(trustAnnotations)}`,
    );
  }
  const total = options.total === undefined ? undefined : checkLimit(options.total, `${root}.total`);
  const concurrency =
    options.concurrency === undefined
      ? undefined
      : integerIn(options.concurrency, 1, MAX_CONCURRENCY, `${root}.concurrency`, 'a whole number of calls');
  const countAllRequests = options.countAllRequests ?? false;
  if (typeof countAllRequests !== 'boolean') {
    fail(`${root}.countAllRequests must be true or false, got ${show(countAllRequests)}`);
  }
  if (countAllRequests === true && total === undefined) {
    fail(`${root}.countAllRequests counts requests toward ${root}.total, which is not set`);
  }
  if (
    perCall === undefined &&
    tools.size === 0 &&
    classes.size === 0 &&
    total === undefined &&
    concurrency === undefined
  ) {
    fail(`${root} sets no limit: give at least one of perCall, tools, classes, total or concurrency`);
  }
  return {
    perCall,
    tools,
    classes,
    trustAnnotations: trustAnnotations as AnnotationTrust,
    total,
    concurrency,
    countAllRequests: countAllRequests as boolean,
    store:
      options.store === undefined ? undefined : checkFunction<LimitStore>(options.store, `${root}.store`),
    storeTimeoutMs:
      options.storeTimeoutMs === undefined
        ? DEFAULT_STORE_TIMEOUT_MS
        : integerIn(
            options.storeTimeoutMs,
            1,
            MAX_STORE_TIMEOUT_MS,
            `${root}.storeTimeoutMs`,
            'a whole number of milliseconds',
          ),
    maxKeys:
      options.maxKeys === undefined
        ? DEFAULT_MAX_KEYS
        : integerIn(options.maxKeys, 1, MAX_MAX_KEYS, `${root}.maxKeys`, 'a whole number of keys'),
    now:
      options.now === undefined ? () => Date.now() : checkFunction<() => number>(options.now, `${root}.now`),
    logger: checkLogger(options.logger, root),
  };
}
