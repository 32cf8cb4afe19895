/**
 * The pre-pass's legs, kept compactly so the placing pass replays them instead of asking the
 * planner again (the planner runs once per candidate, not twice). Numbers in one typed array, a
 * leg as: step, kind, rank, queue, count, sources, destinations, then (rank, buffer, elem, scale)
 * per source and (rank, buffer, elem) per destination. Past {@link MAX_RECORD_NUMBERS} the record
 * is dropped and the placement streams the planner's emission as before: memory stays bounded.
 */
import {
  type BufferName,
  type BufRef,
  LEG_KINDS,
  type LegKind,
  type LegSource,
  type MovableRef,
} from "../plan/plan.js";
import type { LegSink, LegSpec } from "../plan/plan-builder.js";
import { Numbers } from "./step-shape.js";

/** The most numbers a record holds (8 bytes each: 16 MiB; a ring of 64 ranks at 1 MiB needs ≈ 0.1 M). */
export const MAX_RECORD_NUMBERS = 1 << 21;

const BUFFERS: readonly BufferName[] = ["input", "output", "scratch"];
const HEAD = 7;

type MutableSource = { ref: MovableRef; scale?: number };

/** A reusable leg the replay lends to the sink (as planners lend theirs). */
class LentLeg {
  step = 0;
  kind: LegKind = "copy";
  rank = 0;
  queue = 0;
  count = 0;
  srcs: LegSource[] = [];
  dsts: BufRef[] = [];
  private readonly scaled: MutableSource[] = [];
  private readonly plain: MutableSource[] = [];
  private readonly refs: MovableRef[] = [];
  private readonly srcList: LegSource[][] = [];
  private readonly dstList: BufRef[][] = [];

  source(k: number, scaled: boolean): MutableSource {
    const pool = scaled ? this.scaled : this.plain;
    let s = pool[k];
    if (s === undefined) {
      s = scaled
        ? { ref: { rank: 0, buffer: "input", elem: 0 }, scale: 1 }
        : { ref: { rank: 0, buffer: "input", elem: 0 } };
      pool[k] = s;
    }
    return s;
  }

  dest(k: number): MovableRef {
    let d = this.refs[k];
    if (d === undefined) {
      d = { rank: 0, buffer: "input", elem: 0 };
      this.refs[k] = d;
    }
    return d;
  }

  /** The arrays of `n` sources and `m` destinations (reused per length). */
  lists(n: number, m: number): void {
    this.srcs = this.srcList[n] ??= new Array<LegSource>(n);
    this.dsts = this.dstList[m] ??= new Array<BufRef>(m);
  }
}

/** The fewest numbers a leg takes: the head, one source and one destination. */
const LEAST_LEG = HEAD + 4 + 3;

export class LegRecord implements LegSink {
  private readonly numbers = new Numbers();
  private dropped = false;

  /**
   * `expectedLegs`: about how many legs will come (plan/leg-estimate.ts: within a factor of 2 of
   * the count), to make room once rather than doubling from 256 — the copies were ≈ 5 % of a
   * node-fold grid's time. A record that cannot fit even at half that many legs is dropped at once.
   */
  constructor(expectedLegs = 0) {
    const room = expectedLegs * LEAST_LEG;
    if (room / 2 > MAX_RECORD_NUMBERS) {
      this.dropped = true;
      this.numbers.data = new Float64Array(0);
    } else if (room > this.numbers.data.length)
      this.numbers.data = new Float64Array(Math.min(MAX_RECORD_NUMBERS, Math.ceil(room)));
  }

  /** False once the record outgrew its bound (the placement then emits again). */
  get complete(): boolean {
    return !this.dropped;
  }

  /** The numbers the record holds room for (8 bytes each): what keeping it costs. */
  get capacity(): number {
    return this.numbers.data.length;
  }

  /** Give back the room past the recorded numbers (a record kept for long: leg-memo.ts). */
  trim(): void {
    this.numbers.data = this.numbers.data.slice(0, this.numbers.length);
  }

  add(leg: LegSpec): void {
    if (this.dropped) return;
    const { srcs, dsts } = leg;
    const size = HEAD + 4 * srcs.length + 3 * dsts.length;
    const at = this.numbers.length;
    if (at + size > MAX_RECORD_NUMBERS) {
      this.dropped = true;
      this.numbers.data = new Float64Array(0);
      this.numbers.length = 0;
      return;
    }
    const a = this.numbers.reserve(size);
    a[at] = leg.step;
    a[at + 1] = LEG_KINDS.indexOf(leg.kind);
    a[at + 2] = leg.rank;
    a[at + 3] = leg.queue;
    a[at + 4] = leg.count;
    a[at + 5] = srcs.length;
    a[at + 6] = dsts.length;
    let k = at + HEAD;
    for (let i = 0; i < srcs.length; i++, k += 4) {
      const s = srcs[i] as LegSource;
      a[k] = s.ref.rank;
      a[k + 1] = BUFFERS.indexOf(s.ref.buffer);
      a[k + 2] = s.ref.elem;
      a[k + 3] = s.scale ?? Number.NaN;
    }
    for (let i = 0; i < dsts.length; i++, k += 3) {
      const d = dsts[i] as BufRef;
      a[k] = d.rank;
      a[k + 1] = BUFFERS.indexOf(d.buffer);
      a[k + 2] = d.elem;
    }
  }

  /** Lend every recorded leg to `sink`, in the order recorded. @throws Error on a dropped record. */
  replay(sink: LegSink): void {
    if (this.dropped) throw new Error("timing: replay of a record past its bound");
    const a = this.numbers.data;
    const end = this.numbers.length;
    const leg = new LentLeg();
    for (let at = 0; at < end; ) {
      const n = a[at + 5]!;
      const m = a[at + 6]!;
      leg.step = a[at]!;
      leg.kind = LEG_KINDS[a[at + 1]!] as LegKind;
      leg.rank = a[at + 2]!;
      leg.queue = a[at + 3]!;
      leg.count = a[at + 4]!;
      leg.lists(n, m);
      let k = at + HEAD;
      for (let i = 0; i < n; i++, k += 4) {
        const scale = a[k + 3]!;
        const s = leg.source(i, !Number.isNaN(scale));
        s.ref.rank = a[k]!;
        s.ref.buffer = BUFFERS[a[k + 1]!] as BufferName;
        s.ref.elem = a[k + 2]!;
        if (s.scale !== undefined) s.scale = scale;
        leg.srcs[i] = s;
      }
      for (let i = 0; i < m; i++, k += 3) {
        const d = leg.dest(i);
        d.rank = a[k]!;
        d.buffer = BUFFERS[a[k + 1]!] as BufferName;
        d.elem = a[k + 2]!;
        leg.dsts[i] = d;
      }
      sink.add(leg);
      at = k;
    }
  }
}
