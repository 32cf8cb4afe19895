/**
 * Legs as planners emit them, and the builder that accumulates them and derives their
 * dependencies: a leg runs after the last leg that wrote each
 * range it reads. Ring, KangaRing and Mesh partition buffers identically at every step, so a read
 * matches a write exactly (same rank, buffer, first element and count). RDH halves and doubles
 * its ranges (rdh.ts), so a read may also be the first or the last part of one write, or cover
 * consecutive writes exactly ({@link spanWriters}); anything else is a planner bug and throws
 * rather than silently losing an ordering.
 *
 * MODEL: a reduce over a single source with unit scale (what a 1-rank all-reduce / reduce-scatter
 * plans) is built as a plain copy, as NCCL copies for one rank: a single-source CCE would pass the
 * data through FP32 (inexact for > 24-bit integers) and a 1-byte dtype through the u8 → u16 lane
 * promotion (seed 000 §4.2), which refuses an odd byte count.
 */
import type { Sub } from "./partition.js";
import {
  type BufferName,
  type BufRef,
  bufferIndex,
  type Leg,
  type LegSource,
  type MovableRef,
} from "./plan.js";

/** A leg as a planner states it: a {@link Leg} before the builder gives it an id and dependencies. */
export type LegSpec = Omit<Leg, "id" | "after">;

/**
 * Where a planner puts its legs, in plan order: a {@link PlanBuilder}, or a streaming schedule.
 * A leg is lent for the call: planners move the same objects on to the next leg (a timing-only
 * run's millions of legs allocate almost nothing), so a sink that keeps one keeps {@link ownLeg}'s copy.
 */
export interface LegSink {
  add(spec: LegSpec): void;
}

/**
 * One copy leg a planner lends to its sink again and again, its references moved along (see
 * {@link LegSink}): mesh, exchange and RDH pulls set `src`, `dst` and the leg's rank, queue and count,
 * then `add` it.
 */
export class MovableCopy {
  readonly src: MovableRef;
  readonly dst: MovableRef = { rank: 0, buffer: "output", elem: 0 };
  readonly leg: { step: number; readonly kind: "copy"; rank: number; queue: number; count: number } & Pick<
    LegSpec,
    "srcs" | "dsts"
  >;

  constructor(step: number, srcBuffer: BufferName) {
    this.src = { rank: 0, buffer: srcBuffer, elem: 0 };
    this.leg = {
      step,
      kind: "copy",
      rank: 0,
      queue: 0,
      srcs: [{ ref: this.src }],
      dsts: [this.dst],
      count: 0,
    };
  }

  /** Rank `rank` pulls each piece (a range of elements and its queue) from `srcBase + start` into `dstBase + start`. */
  addPieces(b: LegSink, rank: number, pieces: readonly Sub[], srcBase: number, dstBase: number): void {
    this.dst.rank = rank;
    this.leg.rank = rank;
    for (let i = 0; i < pieces.length; i++) {
      const { range, queue } = pieces[i] as Sub;
      this.src.elem = srcBase + range.start;
      this.dst.elem = dstBase + range.start;
      this.leg.queue = queue;
      this.leg.count = range.count;
      b.add(this.leg);
    }
  }
}

/** A copy of a reference, field by field (object spreads took half of an 8-rank ring plan's build). */
const ownRef = (r: BufRef): BufRef => ({ rank: r.rank, buffer: r.buffer, elem: r.elem });

/** A copy of a source (a scale only where it has one, as the planners state it). */
const ownSource = (s: LegSource): LegSource =>
  s.scale === undefined ? { ref: ownRef(s.ref) } : { ref: ownRef(s.ref), scale: s.scale };

/** A copy of a lent leg that a sink may keep: its sources and destinations copied too. */
export function ownLeg(spec: LegSpec): LegSpec {
  const { step, kind, rank, queue, count } = spec;
  return { step, kind, rank, queue, srcs: spec.srcs.map(ownSource), dsts: spec.dsts.map(ownRef), count };
}

/**
 * The sink a planner writes to: drops empty legs, applies `rewrite` (the SB2SB rule, when on), and
 * builds a single-source unit-scale reduce as a copy (the MODEL above), then passes the leg on.
 */
export function normalizingSink(inner: LegSink, rewrite?: (spec: LegSpec) => LegSpec): LegSink {
  const sink: LegSink = {
    add(given) {
      if (given.count === 0) return;
      const spec = rewrite === undefined ? given : rewrite(given);
      const only = spec.srcs.length === 1 ? spec.srcs[0] : undefined;
      if (spec.kind === "reduce-copy" && only !== undefined && (only.scale ?? 1) === 1) {
        sink.add({ ...spec, kind: "copy", srcs: [{ ref: only.ref }] });
        return;
      }
      inner.add(spec);
    },
  };
  return sink;
}

function key(ref: BufRef): string {
  return `${ref.rank}:${ref.buffer}:${ref.elem}`;
}

/** A write as the look-ups keep it: the writer (a later write has a larger one) and its range. */
export interface WriteEntry {
  readonly writer: number;
  readonly elem: number;
  readonly count: number;
}

/**
 * The writes a read of `count` elements at `ref` depends on, given the last write starting and the
 * last write ending at an element (`byStart`, `byEnd`, by element): the one write it matches
 * exactly, or whose first or last part it is, or the consecutive writes it covers exactly. The
 * newer of the write starting where the read starts and the one ending where it ends is the
 * range's last writer (an older one is a stale, coarser write). Undefined: never written.
 * @throws Error on any other overlap (a planner bug).
 */
export function spanWriters(
  ref: BufRef,
  count: number,
  byStart: ReadonlyMap<number, WriteEntry>,
  byEnd: ReadonlyMap<number, WriteEntry>,
): WriteEntry[] | undefined {
  const first = byStart.get(ref.elem);
  const last = byEnd.get(ref.elem + count);
  if (last !== undefined && last.elem <= ref.elem && (first === undefined || last.writer > first.writer))
    return [last];
  if (first === undefined && last !== undefined) throw inexact(ref, count);
  if (first === undefined) return undefined;
  const out = [first];
  for (let at = ref.elem + first.count; at < ref.elem + count; ) {
    const w = byStart.get(at);
    if (w === undefined) throw inexact(ref, count);
    out.push(w);
    at += w.count;
    if (at > ref.elem + count) throw inexact(ref, count);
  }
  return out;
}

/**
 * The planner bug a read not as written is. A function, not a closure per read: under tsx (the
 * bench, the tests), which names each closure it makes with an Object.defineProperty, a closure
 * made per source of every leg was two thirds of an 8-rank 64 MiB plan's build.
 */
function inexact(ref: BufRef, count: number): Error {
  return new Error(`planner: leg reads ${key(ref)}×${count}, not as written`);
}

/** Materialises legs (ids and dependencies): the plan the engine runs and the oracle schedule times. */
export class PlanBuilder implements LegSink {
  readonly legs: Leg[] = [];
  // The last write starting / ending at an element, one map per (rank, buffer) keyed by the
  // element: numeric keys, no string built per look-up (a `rank:buffer:elem` key per read and
  // write cost ≈ 60 % of a 32-rank 3 MiB plan's build, mostly in the collector).
  private readonly lastStart: Map<number, WriteEntry>[] = [];
  private readonly lastEnd: Map<number, WriteEntry>[] = [];

  private table(tables: Map<number, WriteEntry>[], ref: BufRef): Map<number, WriteEntry> {
    const i = ref.rank * 3 + bufferIndex(ref.buffer);
    let t = tables[i];
    if (t === undefined) {
      t = new Map();
      tables[i] = t;
    }
    return t;
  }

  /** Append a (normalized) leg. @throws Error when a read overlaps a write inexactly. */
  add(spec: LegSpec): void {
    let after: number[] = [];
    for (const { ref } of spec.srcs) {
      const starts = this.table(this.lastStart, ref);
      const ends = this.table(this.lastEnd, ref);
      const writes = spanWriters(ref, spec.count, starts, ends);
      for (const w of writes ?? []) if (!after.includes(w.writer)) after.push(w.writer);
    }
    if (after.length > 1) after = after.sort((a, b) => a - b);
    const id = this.legs.length;
    const { step, kind, rank, queue, count } = spec;
    const srcs = spec.srcs.map(ownSource);
    this.legs.push({ step, kind, rank, queue, srcs, dsts: spec.dsts.map(ownRef), count, id, after });
    for (const d of spec.dsts) {
      const entry = { writer: id, elem: d.elem, count: spec.count };
      this.table(this.lastStart, d).set(d.elem, entry);
      this.table(this.lastEnd, d).set(d.elem + spec.count, entry);
    }
  }
}
