/**
 * A step's shape, for the pre-pass (step-users.ts) to skip the steps that repeat the one before:
 * per leg, in plan order, what the pre-pass reads of it — its rank, queue, element count, engine
 * time, and its sources' and destinations' ranks. Two steps of the same shape have the same sharers
 * and the same least busy time per queue, bit for bit (the same float operations on the same values
 * in the same order), so a ring's steady-state steps are counted once, not once each.
 */
import type { TouchingLeg } from "./resources.js";

/** A growable list of numbers in a typed array (no boxed doubles, no holes). */
export class Numbers {
  data = new Float64Array(256);
  length = 0;

  /** Make room for `n` more numbers and count them in. @returns the (possibly new) data array. */
  reserve(n: number): Float64Array {
    if (this.length + n > this.data.length) {
      const grown = new Float64Array(2 * Math.max(this.data.length, this.length + n));
      grown.set(this.data);
      this.data = grown;
    }
    this.length += n;
    return this.data;
  }

  push(x: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = x;
  }
}

/** A leg as the pre-pass reads it (what a shape keeps of it). */
export interface ShapedLeg extends TouchingLeg {
  readonly count: number;
}

/** Per leg: rank, queue, count, engine ns, sources, destinations, then their ranks. */
const HEAD = 6;

/**
 * The longest shape kept (numbers): a ring step of 16 ranks is ≈ 10 000; a mesh step of
 * millions of legs is not recorded (it is one of two, nothing repeats it) — memory stays bounded.
 */
const MAX_SHAPE = 1 << 17;

/** The leg {@link StepShape.leg} lends: rank, queue, count and its sources' and destinations' ranks. */
class LentShape {
  readonly leg = {
    rank: 0,
    queue: 0,
    count: 0,
    srcs: [] as { ref: { rank: number } }[],
    dsts: [] as { rank: number }[],
  };
  ns = 0;
  private readonly srcLists: { ref: { rank: number } }[][] = [];
  private readonly dstLists: { rank: number }[][] = [];

  /** Lists of `n` sources and `m` destinations (made once per length). */
  lists(n: number, m: number): void {
    this.leg.srcs = this.srcLists[n] ??= Array.from({ length: n }, () => ({ ref: { rank: 0 } }));
    this.leg.dsts = this.dstLists[m] ??= Array.from({ length: m }, () => ({ rank: 0 }));
  }
}

export class StepShape {
  private readonly lent = new LentShape();
  /** The step before's shape, and the current step's so far. */
  private before = new Numbers();
  private now = new Numbers();
  /** Where each leg of the current step starts in `now`. */
  private readonly starts = new Numbers();

  /** The current step outgrew {@link MAX_SHAPE}: nothing is recorded, nothing compares with it. */
  private tooLong = false;

  /** Append a leg to the current step's shape. @returns true while the step repeats the one before. */
  record(leg: ShapedLeg, ns: number): boolean {
    const at = this.now.length;
    const { srcs, dsts } = leg;
    const size = HEAD + srcs.length + dsts.length;
    if (this.tooLong || at + size > MAX_SHAPE) {
      this.tooLong = true;
      return false;
    }
    this.starts.push(at);
    const a = this.now.reserve(size);
    a[at] = leg.rank;
    a[at + 1] = leg.queue;
    a[at + 2] = leg.count;
    a[at + 3] = ns;
    a[at + 4] = srcs.length;
    a[at + 5] = dsts.length;
    for (let k = 0; k < srcs.length; k++) a[at + HEAD + k] = srcs[k]!.ref.rank;
    for (let k = 0; k < dsts.length; k++) a[at + HEAD + srcs.length + k] = dsts[k]!.rank;
    if (at + size > this.before.length) return false;
    const b = this.before.data;
    for (let k = at; k < at + size; k++) if (a[k] !== b[k]) return false;
    return true;
  }

  /** True when the current step has the shape of the one before, whole. */
  repeats(legsMatched: boolean): boolean {
    return legsMatched && this.now.length === this.before.length;
  }

  /**
   * The current step's k-th leg, rebuilt into one lent object (its source and destination lists
   * reused per length), good until the next call: a step that stops repeating late rebuilds every
   * leg before, and fresh objects for each were a tenth of a node-fold grid's time, with the collector.
   */
  leg(k: number): { leg: ShapedLeg; ns: number } {
    const d = this.now.data;
    const at = this.starts.data[k]!;
    const lent = this.lent;
    lent.lists(d[at + 4]!, d[at + 5]!);
    const { srcs, dsts } = lent.leg;
    for (let i = 0; i < srcs.length; i++) srcs[i]!.ref.rank = d[at + HEAD + i]!;
    for (let i = 0; i < dsts.length; i++) dsts[i]!.rank = d[at + HEAD + srcs.length + i]!;
    lent.leg.rank = d[at]!;
    lent.leg.queue = d[at + 1]!;
    lent.leg.count = d[at + 2]!;
    lent.ns = d[at + 3]!;
    return lent;
  }

  /** Close the current step: unless it repeated, it is the shape the next one is compared with. */
  next(repeated: boolean): void {
    if (!repeated) [this.before, this.now] = [this.now, this.before];
    if (this.tooLong) this.before.length = 0;
    this.tooLong = false;
    this.now.length = 0;
    this.starts.length = 0;
  }
}
