/**
 * The pre-pass's per-queue least busy times at its checkpoints (step-users.ts), what a placement's
 * cutoff reads (placer.ts), kept as the queues that changed since the checkpoint before: a sparse
 * plan (a few bytes over thousands of ranks, most queues idle) changes a handful of queues between
 * checkpoints, and a copy of every queue's time per checkpoint was 4 GB at 16384 ranks × 64 B.
 * Where most queues changed, the checkpoint is a full copy (smaller than the pairs).
 */
import { Numbers } from "./step-shape.js";

/** One checkpoint: the changed queues and their times, or (queues undefined) every queue's time. */
interface Change {
  readonly queues: Int32Array | undefined;
  readonly values: Float64Array;
}

export class Checkpoints {
  private readonly changed: Uint8Array;
  private readonly list = new Numbers();
  private readonly at = new Map<number, Change>();

  constructor(private readonly queues: number) {
    this.changed = new Uint8Array(queues);
  }

  /** Bytes the checkpoints hold. */
  get bytes(): number {
    let n = 0;
    for (const { queues, values } of this.at.values()) n += values.byteLength + (queues?.byteLength ?? 0);
    return n;
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
    // A pair costs 12 bytes, a queue of the full copy 8.
    if (3 * n >= 2 * this.queues) {
      this.at.set(step, { queues: undefined, values: busy.slice() });
      return;
    }
    const queues = new Int32Array(n);
    const values = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      queues[k] = ids[k]!;
      values[k] = busy[ids[k]!]!;
    }
    this.at.set(step, { queues, values });
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
