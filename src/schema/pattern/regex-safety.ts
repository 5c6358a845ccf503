// Decides, without running it, whether a JSON Schema `pattern` runs in linear time under a backtracking engine (V8,
// as Ajv uses it), on the pattern's position automaton: no step on a loop may have two ways to read one character
// (a*a*, (a|ab)*), no transition may be made by two constructs ((a+)+), nothing that can match empty is repeated,
// the choices elsewhere multiply to at most 256 runs over one text, there is no backreference or lookbehind, and an
// unanchored pattern has no loop that can read far and then fail (each start position would pay for it again).
// What cannot be shown safe is refused (threat C5): (a+)+$ is, and so is the quadratic ^[^@]+@[^@]+\.[^@]+$.

import { intersects, type CharSet } from './char-set.js';
import { BudgetExceeded, Meter } from './meter.js';
import { RegexRefusal, parseRegex, type RegexNode } from './regex-parse.js';

/** Patterns longer than this are refused without looking further. */
export const MAX_PATTERN_LENGTH = 512;
/** Character steps (positions) one pattern may have once fixed counts are unrolled. */
const MAX_POSITIONS = 1024;
/** Different ways to read one text a pattern may have (a bound on how much backtracking can multiply work). */
const MAX_WAYS = 256;
const OVERLAP =
  'can read the same character in two ways at one step, on a repetition (an overlap between a repetition, an ' +
  'alternative and what follows), which makes backtracking slow';
/** Steps one pattern's check may take when no meter is given. */
const PATTERN_STEPS = 200_000;

/** A set of characters read; ^; $ (read as an end-of-text character); a zero-width test that may fail (\b, lookahead). */
type Symbol = CharSet | 'start' | 'end' | 'assert';
const zeroWidth = (symbol: Symbol | undefined): boolean => symbol === 'start' || symbol === 'assert';
interface Part {
  nullable: boolean;
  first: number[];
  last: number[];
}

/** Whether the pattern's match can be found in linear time; the reason it cannot, else undefined. */
export function patternProblem(pattern: string, meter: Meter = new Meter(PATTERN_STEPS)): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern, 'u'); // compiling never runs it; Ajv compiles with the u flag too
  } catch {
    return 'is not a valid regular expression (with the u flag, as JSON Schema validators use it)';
  }
  try {
    meter.spend(pattern.length);
    return new Analysis(meter).check(parseRegex(pattern), false);
  } catch (error) {
    if (error instanceof RegexRefusal)
      return `has ${error.message}, which the linear-time check does not accept`;
    if (error instanceof BudgetExceeded) return 'is too complex to show that it runs in linear time';
    throw error;
  }
}

/** The position automaton (Glushkov) of one pattern, built with the checks that need the construction itself. */
class Analysis {
  readonly #meter: Meter;
  readonly #symbols: Symbol[] = [];
  readonly #follow: number[][] = [];
  readonly #edges = new Set<number>();
  /** Steps back to the start of a counted range ({1,3}): they repeat a bounded number of times. */
  readonly #boundedEdges = new Set<number>();
  #boundlessLookahead = false;
  /** Ways to match nothing, from alternatives that can both match the empty string. */
  #emptyWays = 1;

  constructor(meter: Meter) {
    this.#meter = meter;
  }

  /** The problem with `root` (undefined when it is safe); `atPosition`: a lookahead body, tried at one place. */
  check(root: RegexNode, atPosition: boolean): string | undefined {
    const part = this.#build(root, 0);
    // Overlapping choices on a loop can be taken again and again: (a|a)*, a*a*. Elsewhere each one multiplies the
    // runs over one text by its number of choices: the most runs along any path is bounded instead.
    const components = this.#components();
    const component = new Map<number, number>();
    components.forEach((members, id) => members.forEach((p) => component.set(p, id)));
    const runs = new Map<number, number>(); // component → the most runs from any of its states
    const factor = (steps: readonly number[]): number =>
      Math.max(1, this.#overlapping(this.#consuming(steps)));
    for (const [id, members] of components.entries()) {
      const cyclic = members.length > 1 || members.some((p) => this.#follow[p]?.includes(p) === true);
      let most = 1;
      for (const p of members) {
        const successors = this.#follow[p] ?? [];
        const choices = zeroWidth(this.#symbols[p]) ? 1 : factor(successors);
        if (choices > 1 && cyclic) return OVERLAP;
        let after = 1;
        for (const q of successors)
          if (component.get(q) !== id) after = Math.max(after, runs.get(component.get(q) ?? -1) ?? 1);
        most = Math.max(most, Math.min(MAX_WAYS + 1, choices * after));
      }
      runs.set(id, most);
    }
    let from = 1;
    for (const q of part.first) from = Math.max(from, runs.get(component.get(q) ?? -1) ?? 1);
    const ways = factor(part.first) * from * this.#emptyWays;
    if (ways > MAX_WAYS)
      return `can read the same text in more than ${MAX_WAYS} ways (overlapping choices one after another), which makes backtracking slow`;
    const anchored =
      atPosition || (part.first.length > 0 && part.first.every((p) => this.#symbols[p] === 'start'));
    if (this.#boundlessLookahead && !anchored)
      return 'has a lookahead that reads without bound in a pattern not anchored with ^';
    if (!anchored && !part.nullable && this.#longFailingLoop(new Set(part.last)))
      return (
        'is not anchored with ^ and repeats something that can read far and then fail, ' +
        'so every start position pays for it again: anchor it with ^'
      );
    return undefined;
  }

  #position(symbol: Symbol): number {
    if (this.#symbols.length >= MAX_POSITIONS)
      throw new RegexRefusal(`more than ${MAX_POSITIONS} steps once counts are unrolled`);
    this.#meter.spend();
    this.#symbols.push(symbol);
    this.#follow.push([]);
    return this.#symbols.length - 1;
  }

  #link(from: readonly number[], to: readonly number[], bounded = false): void {
    for (const p of from) {
      for (const q of to) {
        this.#meter.spend();
        const key = p * MAX_POSITIONS + q;
        // The same step made by two constructs is two ways to read the same text: (a+)+, (a|b+)*.
        if (this.#edges.has(key))
          throw new RegexRefusal(
            'a repetition inside a repetition that can read the same text in more than one way',
          );
        this.#edges.add(key);
        if (bounded) this.#boundedEdges.add(key);
        this.#follow[p]?.push(q);
      }
    }
  }

  // Recursion is bounded: the parser refuses groups nested deeper than 32.
  #build(node: RegexNode, loops: number): Part {
    switch (node.kind) {
      case 'char':
        return this.#single(node.set);
      case 'start':
      case 'end':
        return this.#single(node.kind);
      case 'boundary':
        return this.#single('assert');
      case 'lookahead': {
        const inner = new Analysis(this.#meter);
        const problem = inner.check(node.body, true);
        if (problem !== undefined) throw new RegexRefusal(`a lookahead that ${problem}`);
        if (hasBoundlessRepeat(node.body)) {
          if (loops > 0) throw new RegexRefusal('a lookahead that reads without bound inside a repetition');
          this.#boundlessLookahead = true;
        }
        return this.#single('assert');
      }
      case 'seq': {
        let whole: Part = { nullable: true, first: [], last: [] };
        for (const item of node.items) {
          const part = this.#build(item, loops);
          this.#link(whole.last, part.first);
          whole = {
            nullable: whole.nullable && part.nullable,
            first: whole.nullable ? [...whole.first, ...part.first] : whole.first,
            last: part.nullable ? [...whole.last, ...part.last] : part.last,
          };
        }
        return whole;
      }
      case 'alt': {
        const parts = node.options.map((option) => this.#build(option, loops));
        const empty = parts.filter((part) => part.nullable).length;
        if (empty > 1) {
          // Two ways to match nothing: taken again and again inside a loop, else a bounded factor.
          if (loops > 0)
            throw new RegexRefusal('two alternatives that can both match the empty string, in a repetition');
          this.#emptyWays *= empty;
        }
        return {
          nullable: parts.some((part) => part.nullable),
          first: parts.flatMap((part) => part.first),
          last: parts.flatMap((part) => part.last),
        };
      }
      case 'repeat':
        return this.#repeat(node.body, node.min, node.max, loops);
    }
  }

  #repeat(body: RegexNode, min: number, max: number, loops: number): Part {
    if (max === 0) return { nullable: true, first: [], last: [] };
    if (max === 1) {
      const part = this.#build(body, loops);
      return min === 0 ? { ...part, nullable: true } : part;
    }
    if (min === max) {
      // A fixed count has no choice of its own, but each copy has the body's: unrolled (within MAX_POSITIONS).
      let whole: Part = { nullable: true, first: [], last: [] };
      for (let copy = 0; copy < min; copy++) {
        const part = this.#build(body, loops);
        this.#link(whole.last, part.first);
        whole = {
          nullable: whole.nullable && part.nullable,
          first: whole.nullable ? [...whole.first, ...part.first] : whole.first,
          last: part.nullable ? [...whole.last, ...part.last] : part.last,
        };
      }
      return whole;
    }
    // A range {m,n} is read as a loop: it allows every choice the range allows (and more), so safe stays safe.
    const part = this.#build(body, loops + 1);
    if (part.nullable) throw new RegexRefusal('a repetition of something that can match the empty string');
    this.#link(part.last, part.first, max !== Infinity);
    return { ...part, nullable: min === 0 };
  }

  #single(symbol: Symbol): Part {
    const p = this.#position(symbol);
    return { nullable: false, first: [p], last: [p] };
  }

  /** The positions that read a character (or the end) next, looking through ^, \b and lookaheads (zero width). */
  #consuming(from: readonly number[]): number[] {
    const out: number[] = [];
    const seen = new Set<number>();
    const stack = [...from];
    for (let p = stack.pop(); p !== undefined; p = stack.pop()) {
      this.#meter.spend();
      if (seen.has(p)) throw new RegexRefusal('two ways to reach the same step');
      seen.add(p);
      if (zeroWidth(this.#symbols[p])) stack.push(...(this.#follow[p] ?? []));
      else out.push(p);
    }
    return out;
  }

  /** How many of the next steps can read a character another one can read too (0: the step is deterministic). */
  #overlapping(steps: readonly number[]): number {
    const shared = new Set<number>();
    for (let i = 0; i < steps.length; i++) {
      for (let j = i + 1; j < steps.length; j++) {
        const a = this.#symbols[steps[i] ?? -1];
        const b = this.#symbols[steps[j] ?? -1];
        if (a === undefined || b === undefined || zeroWidth(a) || zeroWidth(b)) continue;
        this.#meter.spend(typeof a === 'string' || typeof b === 'string' ? 1 : a.length + b.length);
        const both = typeof a === 'string' || typeof b === 'string' ? a === b : intersects(a, b);
        if (both) {
          shared.add(i);
          shared.add(j);
        }
      }
    }
    return shared.size;
  }

  /**
   * The strongly connected components of the automaton (Tarjan's, iteratively), each listed after every component
   * it leads to, so a walk in this order sees a state's successors first.
   */
  #components(): number[][] {
    const count = this.#symbols.length;
    const index = new Array<number>(count).fill(-1);
    const low = new Array<number>(count).fill(0);
    const onStack = new Array<boolean>(count).fill(false);
    const stack: number[] = [];
    const components: number[][] = [];
    let next = 0;
    for (let root = 0; root < count; root++) {
      if (index[root] !== -1) continue;
      const frames: { p: number; edge: number }[] = [{ p: root, edge: 0 }];
      index[root] = low[root] = next++;
      stack.push(root);
      onStack[root] = true;
      while (frames.length > 0) {
        const frame = frames[frames.length - 1];
        if (frame === undefined) break;
        const successors = this.#follow[frame.p] ?? [];
        this.#meter.spend();
        if (frame.edge < successors.length) {
          const q = successors[frame.edge++] ?? 0;
          if (index[q] === -1) {
            index[q] = low[q] = next++;
            stack.push(q);
            onStack[q] = true;
            frames.push({ p: q, edge: 0 });
          } else if (onStack[q] === true) low[frame.p] = Math.min(low[frame.p] ?? 0, index[q] ?? 0);
          continue;
        }
        frames.pop();
        const parent = frames[frames.length - 1];
        if (parent !== undefined) low[parent.p] = Math.min(low[parent.p] ?? 0, low[frame.p] ?? 0);
        if (low[frame.p] !== index[frame.p]) continue;
        const members: number[] = [];
        for (let q = stack.pop(); q !== undefined; q = stack.pop()) {
          onStack[q] = false;
          members.push(q);
          if (q === frame.p) break;
        }
        components.push(members);
      }
    }
    return components;
  }

  /** Whether the steps that cannot end a match contain a loop (an unanchored search would re-run it per start). */
  #longFailingLoop(accepting: ReadonlySet<number>): boolean {
    const inside = (p: number): boolean => !accepting.has(p) && this.#symbols[p] !== 'start';
    const state = new Map<number, 'open' | 'done'>();
    for (let root = 0; root < this.#symbols.length; root++) {
      if (!inside(root) || state.has(root)) continue;
      const stack: { p: number; next: number }[] = [{ p: root, next: 0 }];
      state.set(root, 'open');
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        if (top === undefined) break;
        const successors = this.#follow[top.p] ?? [];
        this.#meter.spend();
        if (top.next >= successors.length) {
          state.set(top.p, 'done');
          stack.pop();
          continue;
        }
        const q = successors[top.next++] ?? -1;
        if (!inside(q) || this.#boundedEdges.has(top.p * MAX_POSITIONS + q)) continue;
        if (state.get(q) === 'open') return true;
        if (state.get(q) === undefined) {
          state.set(q, 'open');
          stack.push({ p: q, next: 0 });
        }
      }
    }
    return false;
  }
}

function hasBoundlessRepeat(root: RegexNode): boolean {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.kind === 'repeat') {
      if (node.max === Infinity) return true;
      stack.push(node.body);
    } else if (node.kind === 'seq') stack.push(...node.items);
    else if (node.kind === 'alt') stack.push(...node.options);
    else if (node.kind === 'lookahead') stack.push(node.body);
  }
  return false;
}
