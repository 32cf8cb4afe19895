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
 *
 * Flat typed arrays and plain loops throughout: this runs once a split execution, often in code
 * not yet optimised (a process's first run), and closures and objects a leg made it 4–15 µs a leg.
 */
import { dtypeBytes } from "../../spec/dtype.js";
import type { BufferLayout } from "../device/buffer-layout.js";
import type { Leg, Plan } from "../plan/plan.js";

/** The thread that runs a leg: by its rank, so a device queue (legQueue) has one thread. */
export const legThread = (leg: Leg, threads: number): number => leg.rank % threads;

/**
 * The legs' bytes as address spans [lo, hi): `spans` flat pairs, leg i's from span `first[i]` to
 * `first[i + 1]`, those it reads before `writes[i]`, those it writes after.
 */
interface LegSpans {
  readonly spans: Float64Array;
  readonly first: Int32Array;
  readonly writes: Int32Array;
}

/** Each leg's spans, from the layout's addresses. */
function legSpans(plan: Plan, layout: BufferLayout): LegSpans {
  const eb = dtypeBytes(plan.dtype);
  const legs = plan.legs;
  let n = 0;
  for (const leg of legs) n += leg.srcs.length + leg.dsts.length;
  const spans = new Float64Array(2 * n);
  const first = new Int32Array(legs.length + 1);
  const writes = new Int32Array(legs.length);
  let s = 0;
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i] as Leg;
    const bytes = leg.count * eb;
    first[i] = s;
    for (const src of leg.srcs) {
      const lo = layout.byteAddr(src.ref);
      spans[2 * s] = lo;
      spans[2 * s + 1] = lo + bytes;
      s++;
    }
    writes[i] = s;
    for (const dst of leg.dsts) {
      const lo = layout.byteAddr(dst);
      spans[2 * s] = lo;
      spans[2 * s + 1] = lo + bytes;
      s++;
    }
  }
  first[legs.length] = s;
  return { spans, first, writes };
}

/**
 * The spans as pieces of memory (flat pairs [first, end) of piece indices): the pieces lie between
 * two neighbours of the spans' ends, sorted and distinct, so no span starts or ends inside one.
 * The number of pieces after.
 */
function pieces(spans: Float64Array): { readonly at: Int32Array; readonly count: number } {
  const ends = Float64Array.from(spans).sort();
  let n = 0;
  for (let i = 0; i < ends.length; i++) if (n === 0 || ends[i] !== ends[n - 1]) ends[n++] = ends[i] as number;
  const at = new Int32Array(spans.length);
  for (let i = 0; i < spans.length; i++) at[i] = indexOf(ends, n, spans[i] as number);
  return { at, count: n };
}

/** The index of `x` in the first `n` of the sorted `ends` (it is one of them). */
function indexOf(ends: Float64Array, n: number, x: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ends[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Raise row `row` of `waits` (a leg's, one entry a thread) to the legs of `table` at `from`. */
function raise(waits: Int32Array, row: number, table: Int32Array, from: number, threads: number): void {
  for (let k = 0; k < threads; k++) {
    const j = table[from + k] as number;
    if (j > (waits[row + k] as number)) waits[row + k] = j;
  }
}

/**
 * For each leg i and thread k, at [i × threads + k], the plan index of the last earlier leg of
 * thread k that leg i waits for (above), −1 for none (always −1 for the leg's own thread).
 */
export function legWaits(plan: Plan, layout: BufferLayout, threads: number): Int32Array {
  const legs = plan.legs;
  const { spans, first, writes } = legSpans(plan, layout);
  const { at, count } = pieces(spans);
  // Per piece and thread: the last leg of the thread that wrote it, and that read it.
  const lastWrite = new Int32Array(count * threads).fill(-1);
  const lastRead = new Int32Array(count * threads).fill(-1);
  const waits = new Int32Array(legs.length * threads).fill(-1);
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i] as Leg;
    const t = legThread(leg, threads);
    const row = i * threads;
    const w = writes[i] as number;
    const end = first[i + 1] as number;
    for (let s = first[i] as number; s < w; s++)
      for (let p = at[2 * s] as number; p < (at[2 * s + 1] as number); p++)
        raise(waits, row, lastWrite, p * threads, threads);
    for (let s = w; s < end; s++)
      for (let p = at[2 * s] as number; p < (at[2 * s + 1] as number); p++) {
        raise(waits, row, lastWrite, p * threads, threads);
        raise(waits, row, lastRead, p * threads, threads);
      }
    for (const a of leg.after) {
      const k = legThread(legs[a] as Leg, threads);
      if (a > (waits[row + k] as number)) waits[row + k] = a;
    }
    // A leg waits for no leg of its own thread: it runs after them.
    waits[row + t] = -1;
    for (let s = first[i] as number; s < w; s++)
      for (let p = at[2 * s] as number; p < (at[2 * s + 1] as number); p++) lastRead[p * threads + t] = i;
    for (let s = w; s < end; s++)
      for (let p = at[2 * s] as number; p < (at[2 * s + 1] as number); p++) lastWrite[p * threads + t] = i;
  }
  return waits;
}
