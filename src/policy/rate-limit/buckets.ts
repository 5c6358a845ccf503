// The buckets a request counts in: its tool's own, its annotation classes', the caller's total. Each is one counter
// store (RateLimiterMemory unless the options plug in another); the list per tool is worked out once.

import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ToolTarget } from '../../server/index.js';
import { countNow, type CountNow } from './count-now.js';
import { KeyBound } from './key-bound.js';
import { ANNOTATION_CLASSES, annotationClasses, type AnnotationClass } from '../scopes/annotation-classes.js';
import type { Limit, RateLimitSettings } from './options.js';

/** One limit and the counter behind it. */
export interface Bucket {
  /** Index in the bucket list (the key bound's name for it). */
  readonly id: number;
  /** "tool:<name>", "class:<class>" or "total": the store's name for it. */
  readonly name: string;
  /** What `data.limit` of a refusal says: "tool", "class:<class>" or "total". */
  readonly kind: string;
  /** The limit in words, as a refusal's message starts: `tool "x" allows 5 calls per 60 s`. */
  readonly describe: string;
  readonly limit: Limit;
  readonly limiter: RateLimiterAbstract;
  /** Whether the key bound tracks it (the default memory store). */
  readonly bounded: boolean;
  /** The default memory store's counter, counted in this turn; undefined for a plugged-in store. */
  readonly now: CountNow | undefined;
}

const perWindow = (limit: Limit, noun = 'call'): string =>
  `${limit.points} ${noun}${limit.points === 1 ? '' : 's'} per ${limit.durationSeconds} s`;

export class Buckets {
  readonly #settings: RateLimitSettings;
  readonly bound: KeyBound;
  #count = 0;
  readonly #classes = new Map<AnnotationClass, Bucket>();
  readonly #total: Bucket | undefined;
  /** Per tool name: its own bucket (one per name, whichever tool object carries it). */
  readonly #tools = new Map<string, Bucket | null>();
  /** Per registered tool: every bucket a call of it counts in (targets are made once, at registration). */
  readonly #lists = new WeakMap<ToolTarget, readonly Bucket[]>();
  /** What a request that names no tool counts in: the total, or nothing. */
  readonly requestBuckets: readonly Bucket[];

  constructor(settings: RateLimitSettings) {
    this.#settings = settings;
    this.bound = new KeyBound(settings.maxKeys, settings.now);
    for (const name of ANNOTATION_CLASSES) {
      const limit = settings.classes.get(name);
      if (limit === undefined) continue;
      const describe = `${name} tools together allow ${perWindow(limit)}`;
      this.#classes.set(name, this.#make(`class:${name}`, `class:${name}`, describe, limit));
    }
    const total = settings.total;
    this.#total =
      total === undefined
        ? undefined
        : this.#make(
            'total',
            'total',
            `the total limit allows ${perWindow(total, settings.countAllRequests ? 'request' : 'call')}`,
            total,
          );
    this.requestBuckets = this.#total === undefined ? [] : [this.#total];
  }

  /** Every bucket a call of `target` counts in. May throw when the store cannot make a new tool's counter. */
  forTool(target: ToolTarget): readonly Bucket[] {
    const known = this.#lists.get(target);
    if (known !== undefined) return known;
    const list: Bucket[] = [];
    const own = this.#tool(target.name);
    if (own !== undefined) list.push(own);
    const trust = this.#settings.trustAnnotations;
    const trusted = typeof trust === 'function' ? trust(target) === true : trust;
    for (const name of annotationClasses(target, trusted)) {
      const bucket = this.#classes.get(name);
      if (bucket !== undefined) list.push(bucket);
    }
    if (this.#total !== undefined) list.push(this.#total);
    this.#lists.set(target, Object.freeze(list));
    return list;
  }

  /** Deletes what the memory buckets hold. */
  clear(): void {
    this.bound.clear();
  }

  #tool(name: string): Bucket | undefined {
    let bucket = this.#tools.get(name);
    if (bucket === undefined) {
      const limit = this.#settings.tools.get(name) ?? this.#settings.perCall;
      bucket =
        limit === undefined
          ? null
          : this.#make(`tool:${name}`, 'tool', `tool "${name}" allows ${perWindow(limit)}`, limit);
      this.#tools.set(name, bucket);
    }
    return bucket ?? undefined;
  }

  #make(name: string, kind: string, describe: string, limit: Limit): Bucket {
    const store = this.#settings.store;
    const limiter =
      store === undefined
        ? // Each memory bucket has a store of its own, so its keys need no prefix: the caller's key string is used as
          // it is, the same string object on every call (callerKey caches it), which V8 hashes and looks up once.
          new RateLimiterMemory({ points: limit.points, duration: limit.durationSeconds, keyPrefix: '' })
        : store(name, limit);
    if (
      typeof limiter !== 'object' ||
      limiter === null ||
      typeof limiter.consume !== 'function' ||
      typeof limiter.reward !== 'function'
    ) {
      throw new TypeError(
        `rateLimit: options.store("${name}") must return a rate limiter (consume, reward), got ${typeof limiter}`,
      );
    }
    const bucket: Bucket = Object.freeze({
      id: this.#count++,
      name,
      kind,
      describe,
      limit,
      limiter,
      bounded: store === undefined,
      now: store === undefined ? countNow(limiter) : undefined,
    });
    return bucket;
  }
}
