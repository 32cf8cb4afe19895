/**
 * The chunks that hold elements, visited in a rotated order. A count of fewer granules than ranks
 * leaves most chunks empty (64 bytes over 16384 ranks: 2 of them), and a planner that walks every
 * (rank, step) or (rank, peer) pair to emit legs the sink drops as empty spends its time there — a
 * quarter of a billion pairs a pass at 16384 ranks. Walking the chunks that hold elements, in the
 * order the full walk meets them, emits the same legs in the same order.
 */
import type { ElemRange } from "./partition.js";

export class LiveChunks {
  /** The chunks with elements, ascending. */
  private readonly live: Int32Array;
  /** True when every chunk has elements (the walk is the full one). */
  readonly all: boolean;

  constructor(chunks: readonly ElemRange[]) {
    const live: number[] = [];
    for (let c = 0; c < chunks.length; c++) if ((chunks[c] as ElemRange).count > 0) live.push(c);
    this.live = Int32Array.from(live);
    this.all = live.length === chunks.length;
  }

  /**
   * Visit each chunk c with elements as (j, c), j = (c − from) mod n, in ascending j below `below`:
   * the order a walk of j = 0, 1, … over chunk (from + j) mod n meets them.
   */
  visit(n: number, from: number, below: number, fn: (j: number, c: number) => void): void {
    const live = this.live;
    const start = ((from % n) + n) % n;
    // The chunks at or past `start` come first (j = c − start), then those before it (j = c + n − start).
    let i = 0;
    for (let hi = live.length; i < hi; ) {
      const mid = (i + hi) >>> 1;
      if (live[mid]! < start) i = mid + 1;
      else hi = mid;
    }
    for (let k = i; k < live.length; k++) {
      const j = live[k]! - start;
      if (j >= below) return;
      fn(j, live[k]!);
    }
    for (let k = 0; k < i; k++) {
      const j = live[k]! + n - start;
      if (j >= below) return;
      fn(j, live[k]!);
    }
  }
}
