/**
 * The scheduler's last-writer table: per written range (rank, buffer, first element), the end time,
 * element count and writer queue of its last write — kept for the last {@link KEPT_STEPS} steps
 * only. Planners read what the step before wrote (a ring's partial, a mesh's reduced chunk), or two
 * steps before (KangaRing's all-gather reads the reduce-scatter's result past the step that places
 * it in the partner's output), so older entries are dropped: the table holds a few steps' writes,
 * not the whole plan's (at 1024 ranks that was 1.1 GB). An RDH plan's all-gather reads back
 * log2(ranks) steps (rdh.ts): it keeps that many more. A read of an older range throws rather
 * than pass as never written.
 */

import { meshUnreadStep } from "../plan/mesh.js";
import { type BufferName, bufferIndex } from "../plan/plan.js";
import type { PlanRequest } from "../plan/plan-request.js";
import { rdhKeptSteps } from "../plan/rdh.js";

/** Steps whose writes are kept: the current one and the two before it. */
export const KEPT_STEPS = 3;

/** How a plan reads what it wrote (see {@link readRulesFor}). */
export interface ReadRules {
  /** Steps back a read reaches. */
  readonly kept: number;
  /** A read may be part of one write or span several. */
  readonly spans: boolean;
  /** From this step on, no leg reads what a leg writes (nothing need be kept); absent: none such. */
  readonly unreadFrom?: number;
}

/**
 * How a request's plan reads what it wrote: the steps back ({@link KEPT_STEPS}, more for RDH),
 * whether a read may be part of one write or span several (RDH: rdh.ts, spanWriters), and the
 * steps whose writes are never read (a mesh's final pulls: mesh.ts).
 */
export function readRulesFor(req: PlanRequest): ReadRules {
  const rdh = req.algorithm === "rdh";
  const kept = rdh ? Math.max(KEPT_STEPS, rdhKeptSteps(req)) : KEPT_STEPS;
  const reducing = req.collective === "allr" || req.collective === "allg";
  const unreadFrom = req.algorithm === "mesh" && reducing ? meshUnreadStep(req) : undefined;
  return unreadFrom === undefined ? { kept, spans: rdh } : { kept, spans: rdh, unreadFrom };
}

/** Per entry: end time, element count, writer queue index. */
const STRIDE = 3;

/** A hash of a key (rank · 3 + buffer, element), spread into the low bits. */
function hash(at: number, elem: number): number {
  let h = Math.imul(elem | 0, 0x9e3779b1) + Math.imul(at, 0x85ebca6b) + ((elem / 4294967296) | 0);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/**
 * One step's writes: an open-addressing hash table keyed by (rank · 3 + buffer, first element) over
 * typed arrays, cleared by moving to a new generation — a step's thousands of writes cost no
 * allocation (a Map per rank and buffer, cleared each step, regrew every step).
 */
class StepWrites {
  private keyAt = new Int32Array(1024);
  private keyElem = new Float64Array(1024);
  /** The generation a slot was filled in; a slot of an older one is empty. */
  private stamp = new Int32Array(1024);
  /** Per slot: its entry (end, count, queue). */
  data = new Float64Array(STRIDE * 1024);
  private generation = 1;
  private size = 0;

  clear(): void {
    this.generation++;
    this.size = 0;
  }

  /** The slot holding (at, elem), or the empty slot where it would go. */
  slot(at: number, elem: number): number {
    const mask = this.stamp.length - 1;
    let i = hash(at, elem) & mask;
    while (this.stamp[i] === this.generation) {
      if (this.keyAt[i] === at && this.keyElem[i] === elem) return i;
      i = (i + 1) & mask;
    }
    return i;
  }

  /** True when `slot` (from {@link slot}) holds an entry. */
  has(slot: number): boolean {
    return this.stamp[slot] === this.generation;
  }

  set(at: number, elem: number, end: number, count: number, queue: number): void {
    if (2 * (this.size + 1) > this.stamp.length) this.grow();
    const i = this.slot(at, elem);
    if (!this.has(i)) {
      this.stamp[i] = this.generation;
      this.keyAt[i] = at;
      this.keyElem[i] = elem;
      this.size++;
    }
    this.data[STRIDE * i] = end;
    this.data[STRIDE * i + 1] = count;
    this.data[STRIDE * i + 2] = queue;
  }

  /** Twice the slots, the live entries moved over. */
  private grow(): void {
    const { keyAt, keyElem, stamp, data, generation } = this;
    const n = 2 * stamp.length;
    this.keyAt = new Int32Array(n);
    this.keyElem = new Float64Array(n);
    this.stamp = new Int32Array(n);
    this.data = new Float64Array(STRIDE * n);
    this.generation = 1;
    for (let j = 0; j < stamp.length; j++) {
      if (stamp[j] !== generation) continue;
      const i = this.slot(keyAt[j]!, keyElem[j]!);
      this.stamp[i] = 1;
      this.keyAt[i] = keyAt[j]!;
      this.keyElem[i] = keyElem[j]!;
      this.data.set(data.subarray(STRIDE * j, STRIDE * j + STRIDE), STRIDE * i);
    }
  }
}

export class LastWrites {
  /** Newest first. */
  private readonly steps: StepWrites[];
  /** With `spans`: the same writes keyed by their end (one past the last element), newest first. */
  private readonly ends: StepWrites[];
  private step = Number.NaN;
  /** Planners never write an input; while none has, a read of one needs no look-up. */
  private inputWritten = false;
  /** After a successful {@link find} / {@link findEnd}: the entry's array, offset and step age. */
  private hit: Float64Array = new Float64Array(0);
  private at = 0;
  private hitAge = 0;

  /**
   * `kept`: the steps whose writes are kept (an RDH plan reads further back: rdhKeptSteps).
   * `spans`: keep each write by its end too, for reads of part of a write (spanWriters, RDH only).
   */
  constructor(
    readonly kept = KEPT_STEPS,
    readonly spans = false,
  ) {
    this.steps = Array.from({ length: kept }, () => new StepWrites());
    this.ends = spans ? Array.from({ length: kept }, () => new StepWrites()) : [];
  }

  /** Start a step (a no-op within one): the oldest kept step's writes are dropped. */
  enter(step: number): void {
    if (step === this.step) return;
    this.step = step;
    for (const tables of [this.steps, this.ends]) {
      const oldest = tables.pop();
      if (oldest === undefined) continue;
      oldest.clear();
      tables.unshift(oldest);
    }
  }

  /** False when no range of `buffer` can have been written (an input, while no leg wrote one). */
  mayHold(buffer: BufferName): boolean {
    return buffer !== "input" || this.inputWritten;
  }

  /** True when a range starting at `elem` was written in a kept step; then {@link end}, {@link count}, {@link queue} read it. */
  find(rank: number, buffer: BufferName, elem: number): boolean {
    return this.lookUp(this.steps, rank, buffer, elem);
  }

  /** As {@link find}, for a range ending at `elem` (`spans` only). */
  findEnd(rank: number, buffer: BufferName, elem: number): boolean {
    return this.lookUp(this.ends, rank, buffer, elem);
  }

  private lookUp(tables: readonly StepWrites[], rank: number, buffer: BufferName, elem: number): boolean {
    if (buffer === "input" && !this.inputWritten) return false;
    const at = rank * 3 + bufferIndex(buffer);
    // Indexed: for-of made an iterator result a look-up (a leg's every source).
    for (let k = 0; k < tables.length; k++) {
      const s = tables[k] as StepWrites;
      const i = s.slot(at, elem);
      if (s.has(i)) {
        this.hit = s.data;
        this.at = STRIDE * i;
        this.hitAge = k;
        return true;
      }
    }
    return false;
  }

  /** Steps back the hit was written (0: this step). */
  age(): number {
    return this.hitAge;
  }

  end(): number {
    return this.hit[this.at]!;
  }
  count(): number {
    return this.hit[this.at + 1]!;
  }
  queue(): number {
    return this.hit[this.at + 2]!;
  }

  write(rank: number, buffer: BufferName, elem: number, end: number, count: number, queue: number): void {
    if (buffer === "input") this.inputWritten = true;
    (this.steps[0] as StepWrites).set(rank * 3 + bufferIndex(buffer), elem, end, count, queue);
    this.ends[0]?.set(rank * 3 + bufferIndex(buffer), elem + count, end, count, queue);
  }
}
