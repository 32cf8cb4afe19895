/**
 * The scheduler's last-writer table: per written range (rank, buffer, first element), the end time,
 * element count and writer queue of its last write — kept for the last {@link KEPT_STEPS} steps
 * only. Planners read what the step before wrote (a ring's partial, a mesh's reduced chunk), or two
 * steps before (KangaRing's all-gather reads the reduce-scatter's result past the step that places
 * it in the partner's output), so older entries are dropped: the table holds a few steps' writes,
 * not the whole plan's (at 1024 ranks that was 1.1 GB). A read of an older range throws rather
 * than pass as never written.
 */
import type { BufferName } from "../plan/plan.js";

/** Steps whose writes are kept: the current one and the two before it. */
export const KEPT_STEPS = 3;

const BUFFER_INDEX: Readonly<Record<BufferName, number>> = { input: 0, output: 1, scratch: 2 };
/** Per entry: end time, element count, writer queue index. */
const STRIDE = 3;

/**
 * One step's writes: per (rank, buffer), element → entry (small-integer keys: a Map of doubles
 * hashes several times slower), the entries side by side in a growable Float64Array.
 */
class StepWrites {
  readonly index: (Map<number, number> | undefined)[] = [];
  private readonly used: Map<number, number>[] = [];
  data = new Float64Array(STRIDE * 1024);
  size = 0;

  clear(): void {
    for (const m of this.used) m.clear();
    this.used.length = 0;
    this.size = 0;
  }

  set(at: number, elem: number, end: number, count: number, queue: number): void {
    let index = this.index[at];
    if (index === undefined) {
      index = new Map();
      this.index[at] = index;
    }
    if (index.size === 0) this.used.push(index);
    let i = index.get(elem);
    if (i === undefined) {
      if (STRIDE * (this.size + 1) > this.data.length) {
        const grown = new Float64Array(2 * this.data.length);
        grown.set(this.data);
        this.data = grown;
      }
      i = STRIDE * this.size++;
      index.set(elem, i);
    }
    this.data[i] = end;
    this.data[i + 1] = count;
    this.data[i + 2] = queue;
  }
}

export class LastWrites {
  /** Newest first. */
  private readonly steps: StepWrites[] = Array.from({ length: KEPT_STEPS }, () => new StepWrites());
  private step = Number.NaN;
  /** Planners never write an input; while none has, a read of one needs no look-up. */
  private inputWritten = false;
  /** After a successful {@link find}: the entry's array and offset. */
  private hit: Float64Array = new Float64Array(0);
  private at = 0;

  /** Start a step (a no-op within one): the oldest kept step's writes are dropped. */
  enter(step: number): void {
    if (step === this.step) return;
    this.step = step;
    const oldest = this.steps.pop() as StepWrites;
    oldest.clear();
    this.steps.unshift(oldest);
  }

  /** True when the range was written in a kept step; then {@link end}, {@link count}, {@link queue} read it. */
  find(rank: number, buffer: BufferName, elem: number): boolean {
    if (buffer === "input" && !this.inputWritten) return false;
    const at = rank * 3 + BUFFER_INDEX[buffer];
    for (const s of this.steps) {
      const i = s.index[at]?.get(elem);
      if (i !== undefined) {
        this.hit = s.data;
        this.at = i;
        return true;
      }
    }
    return false;
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
    (this.steps[0] as StepWrites).set(rank * 3 + BUFFER_INDEX[buffer], elem, end, count, queue);
  }
}
