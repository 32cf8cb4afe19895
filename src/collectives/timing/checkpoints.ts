/**
 * The pre-pass's per-queue least busy times at its checkpoints (step-users.ts), what a placement's
 * cutoff reads (placer.ts), kept as the queues that changed since the checkpoint before: a sparse
 * plan (a few bytes over thousands of ranks, most queues idle) changes a handful of queues between
 * checkpoints, and a copy of every queue's time per checkpoint was 4 GB at 16384 ranks × 64 B.
 * Where most queues changed, the checkpoint is a full copy (smaller than the pairs). Past
 * {@link CHECKPOINT_BYTES} every other checkpoint is merged into the next and they come half as
 * often: a dense plan of thousands of steps over all ranks' queues (16384 ranks × 1 MB: 8 GB of
 * copies) keeps a bounded few. Fewer checkpoints only check the cutoff less often: a placement
 * stops later, never with another result.
 */
import { Numbers } from "./step-shape.js";

/** Steps between checkpoints at first. */
export const CHECKPOINT_STEPS = 16;

/** The most bytes the checkpoints hold before they are thinned. */
export const CHECKPOINT_BYTES = 64 << 20;

/** One checkpoint: the changed queues and their times, or (queues undefined) every queue's time. */
interface Change {
  readonly step: number;
  readonly queues: Int32Array | undefined;
  readonly values: Float64Array;
}

const bytesOf = (c: Change) => c.values.byteLength + (c.queues?.byteLength ?? 0);

export class Checkpoints {
  private readonly changed: Uint8Array;
  private readonly list = new Numbers();
  private readonly taken: Change[] = [];
  private readonly at = new Map<number, Change>();
  private held = 0;
  /** Steps between checkpoints now (doubled at each thinning). */
  every = CHECKPOINT_STEPS;

  constructor(
    private readonly queues: number,
    private readonly budget = CHECKPOINT_BYTES,
  ) {
    this.changed = new Uint8Array(queues);
  }

  /** Bytes the checkpoints hold. */
  get bytes(): number {
    return this.held;
  }

  /** Checkpoints held. */
  get size(): number {
    return this.taken.length;
  }

  /** Queue `qi`'s busy time changed. */
  touch(qi: number): void {
    if (this.changed[qi] === 1) return;
    this.changed[qi] = 1;
    this.list.push(qi);
  }

  /** A checkpoint at `step`: `busy` as it is now (what changed since the last one). */
  take(step: number, busy: Float64Array): void {
    const n = this.list.length;
    const ids = this.list.data;
    for (let k = 0; k < n; k++) this.changed[ids[k]!] = 0;
    this.list.length = 0;
    let c: Change;
    // A pair costs 12 bytes, a queue of the full copy 8.
    if (3 * n >= 2 * this.queues) c = { step, queues: undefined, values: busy.slice() };
    else {
      const queues = new Int32Array(n);
      const values = new Float64Array(n);
      for (let k = 0; k < n; k++) {
        queues[k] = ids[k]!;
        values[k] = busy[ids[k]!]!;
      }
      c = { step, queues, values };
    }
    this.taken.push(c);
    this.at.set(step, c);
    this.held += bytesOf(c);
    if (this.held > this.budget && this.taken.length > 1) this.thin();
  }

  /** Merge every other checkpoint into the one after it; take them half as often from now on. */
  private thin(): void {
    const kept: Change[] = [];
    for (let k = 0; k < this.taken.length; k += 2) {
      const a = this.taken[k] as Change;
      const b = this.taken[k + 1];
      kept.push(b === undefined ? a : this.merged(a, b));
    }
    this.taken.length = 0;
    this.at.clear();
    this.held = 0;
    for (const c of kept) {
      this.taken.push(c);
      this.at.set(c.step, c);
      this.held += bytesOf(c);
    }
    this.every *= 2;
  }

  /** One checkpoint at b's step with what changed since the one before a. */
  private merged(a: Change, b: Change): Change {
    if (b.queues === undefined) return b;
    if (a.queues === undefined) {
      const values = a.values.slice();
      for (let k = 0; k < b.queues.length; k++) values[b.queues[k]!] = b.values[k]!;
      return { step: b.step, queues: undefined, values };
    }
    const times = new Map<number, number>();
    for (const c of [a, b]) for (let k = 0; k < c.values.length; k++) times.set(c.queues![k]!, c.values[k]!);
    return { step: b.step, queues: Int32Array.from(times.keys()), values: Float64Array.from(times.values()) };
  }

  /**
   * At a checkpoint step, bring `before` (per queue, the times of the checkpoint before; zeros at
   * the start) to this one's and return true; else false. Steps must come in the pre-pass's order.
   */
  advance(step: number, before: Float64Array): boolean {
    const c = this.at.get(step);
    if (c === undefined) return false;
    const { queues, values } = c;
    if (queues === undefined) before.set(values);
    else for (let k = 0; k < queues.length; k++) before[queues[k]!] = values[k]!;
    return true;
  }
}
