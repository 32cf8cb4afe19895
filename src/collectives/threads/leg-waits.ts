/**
 * Which legs of a plan split over threads wait for which: a leg runs after every earlier leg of
 * another thread whose bytes clash with its own (that writes what it reads, or reads or writes what
 * it writes) and every leg it is `after`. Two legs that clash then run in plan order whatever the
 * threads' interleaving (a thread runs its own legs in plan order), so every byte ends as the run
 * on one thread leaves it; legs that do not clash overlap freely, with no step where all threads
 * meet.
 *
 * Only the last such leg of each other thread is kept: a thread's legs finish in plan order, so
 * waiting for it waits for the ones before it.
 */
import { dtypeBytes } from "../../spec/dtype.js";
import type { BufferLayout } from "../device/buffer-layout.js";
import type { BufRef, Leg, Plan } from "../plan/plan.js";

/** The thread that runs a leg: by its rank, so a device queue (legQueue) has one thread. */
export const legThread = (leg: Leg, threads: number): number => leg.rank % threads;

/** A leg's bytes as address spans [lo, hi), flat pairs: those it reads, then those it writes. */
interface LegBytes {
  readonly reads: number[];
  readonly writes: number[];
}

/** Each leg's spans, from the layout's addresses. */
function legBytes(plan: Plan, layout: BufferLayout): LegBytes[] {
  const eb = dtypeBytes(plan.dtype);
  const spans = (refs: readonly BufRef[], count: number): number[] => {
    const out: number[] = [];
    for (const r of refs) {
      const at = Number(layout.addr(r, 0));
      out.push(at, at + count * eb);
    }
    return out;
  };
  return plan.legs.map((leg) => ({
    reads: spans(
      leg.srcs.map((s) => s.ref),
      leg.count,
    ),
    writes: spans(leg.dsts, leg.count),
  }));
}

/**
 * The spans' ends, sorted and distinct: the pieces between two neighbours are the units of memory
 * tracked (no span starts or ends inside one).
 */
function pieceEnds(bytes: readonly LegBytes[]): Float64Array {
  const all: number[] = [];
  for (const b of bytes) all.push(...b.reads, ...b.writes);
  const sorted = Float64Array.from(all).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++)
    if (n === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i] as number;
  return sorted.subarray(0, n);
}

/** The index of `at` in the sorted `ends` (it is one of them). */
function indexOf(ends: Float64Array, at: number): number {
  let lo = 0;
  let hi = ends.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ends[mid] as number) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * For each leg i and thread k, at [i × threads + k], the plan index of the last earlier leg of
 * thread k that leg i waits for (above), −1 for none (always −1 for the leg's own thread).
 */
export function legWaits(plan: Plan, layout: BufferLayout, threads: number): Int32Array {
  const legs = plan.legs;
  const bytes = legBytes(plan, layout);
  const ends = pieceEnds(bytes);
  // Per piece and thread: the last leg of the thread that wrote it, and that read it.
  const lastWrite = new Int32Array(ends.length * threads).fill(-1);
  const lastRead = new Int32Array(ends.length * threads).fill(-1);
  const waits = new Int32Array(legs.length * threads).fill(-1);
  legs.forEach((leg, i) => {
    const t = legThread(leg, threads);
    const row = i * threads;
    const wait = (k: number, j: number) => {
      if (k !== t && j > (waits[row + k] as number)) waits[row + k] = j;
    };
    /** Each piece of the spans `s`, by its first index into the per-thread tables. */
    const eachPiece = (s: readonly number[], f: (at: number) => void) => {
      for (let j = 0; j < s.length; j += 2)
        for (let p = indexOf(ends, s[j] as number); (ends[p] as number) < (s[j + 1] as number); p++)
          f(p * threads);
    };
    const { reads, writes } = bytes[i] as LegBytes;
    eachPiece(reads, (at) => {
      for (let k = 0; k < threads; k++) wait(k, lastWrite[at + k] as number);
    });
    eachPiece(writes, (at) => {
      for (let k = 0; k < threads; k++) {
        wait(k, lastWrite[at + k] as number);
        wait(k, lastRead[at + k] as number);
      }
    });
    for (const a of leg.after) wait(legThread(legs[a] as Leg, threads), a);
    eachPiece(reads, (at) => {
      lastRead[at + t] = i;
    });
    eachPiece(writes, (at) => {
      lastWrite[at + t] = i;
    });
  });
  return waits;
}
