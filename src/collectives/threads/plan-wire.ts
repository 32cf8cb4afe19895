/**
 * A plan as it crosses to a worker (tasks.ts ExecuteTask): its legs as numbers in one shared
 * Float64Array (no copy, no text), the rest as JSON. As JSON the 3584 legs of the 8-rank 64 MiB
 * all-reduce were 1 MB of text, ≈ 10–30 ms to write on the calling thread and as long to read on
 * the worker, before either ran a leg.
 *
 * A leg is its id, step, kind, rank, queue, count, number of sources, of destinations and of legs
 * it is after; then per source its rank, buffer, element, and 1 and its scale or 0 and 0; per
 * destination its rank, buffer and element; then the legs it is after. A kind or a buffer is its
 * index in `names`.
 */
import type { BufferName, BufRef, Leg, LegKind, LegSource, Plan } from "../plan/plan.js";

export interface PlanWire {
  /** The plan but its legs, as JSON. */
  readonly rest: string;
  /** The kinds and buffer names the legs use, by the index a leg gives. */
  readonly names: readonly string[];
  readonly legs: Float64Array;
}

/**
 * Where each number of a leg's head, a source and a reference lies (above), for both directions;
 * each table names every field of its type (a field added to Leg, LegSource or BufRef fails the
 * typecheck here until it is wired). A source is its reference first (SOURCE.ref 0: `ref` writes
 * and reads at a source's start), then its scale as two numbers: whether, and what.
 */
const HEAD = {
  id: 0,
  step: 1,
  kind: 2,
  rank: 3,
  queue: 4,
  count: 5,
  srcs: 6,
  dsts: 7,
  after: 8,
} as const satisfies Record<keyof Leg, number>;
const REF = { rank: 0, buffer: 1, elem: 2 } as const satisfies Record<keyof BufRef, number>;
const REF_WORDS = Object.keys(REF).length;
const SOURCE = { ref: 0, scale: REF_WORDS } as const satisfies Record<keyof LegSource, number>;
const HEAD_WORDS = Object.keys(HEAD).length;
const SOURCE_WORDS = SOURCE.scale + 2;

/** Numbers a leg takes. */
function legWords(leg: Leg): number {
  return HEAD_WORDS + SOURCE_WORDS * leg.srcs.length + REF_WORDS * leg.dsts.length + leg.after.length;
}

/** A plan for a worker: its legs written into shared memory. */
export function encodePlan(plan: Plan): PlanWire {
  const names: string[] = [];
  const index = new Map<string, number>();
  const name = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = names.push(s) - 1;
      index.set(s, i);
    }
    return i;
  };
  let words = 0;
  for (const leg of plan.legs) words += legWords(leg);
  const w = new Float64Array(new SharedArrayBuffer(8 * words));
  let at = 0;
  const ref = (r: BufRef) => {
    w[at + REF.rank] = r.rank;
    w[at + REF.buffer] = name(r.buffer);
    w[at + REF.elem] = r.elem;
    at += REF_WORDS;
  };
  for (const leg of plan.legs) {
    w[at + HEAD.id] = leg.id;
    w[at + HEAD.step] = leg.step;
    w[at + HEAD.kind] = name(leg.kind);
    w[at + HEAD.rank] = leg.rank;
    w[at + HEAD.queue] = leg.queue;
    w[at + HEAD.count] = leg.count;
    w[at + HEAD.srcs] = leg.srcs.length;
    w[at + HEAD.dsts] = leg.dsts.length;
    w[at + HEAD.after] = leg.after.length;
    at += HEAD_WORDS;
    for (const s of leg.srcs) {
      const scale = at + SOURCE.scale;
      ref(s.ref);
      w[scale] = s.scale === undefined ? 0 : 1;
      w[scale + 1] = s.scale ?? 0;
      at = scale + 2;
    }
    for (const d of leg.dsts) ref(d);
    for (const a of leg.after) w[at++] = a;
  }
  return { rest: JSON.stringify({ ...plan, legs: [] }), names, legs: w };
}

/** The plan {@link encodePlan} was given, equal to it in every field. */
export function decodePlan(wire: PlanWire): Plan {
  const { names } = wire;
  const w = wire.legs;
  const legs: Leg[] = [];
  let at = 0;
  const ref = (): BufRef => {
    const r = {
      rank: w[at + REF.rank] as number,
      buffer: names[w[at + REF.buffer] as number] as BufferName,
      elem: w[at + REF.elem] as number,
    };
    at += REF_WORDS;
    return r;
  };
  while (at < w.length) {
    const head = at;
    at += HEAD_WORDS;
    const srcs: LegSource[] = [];
    for (let k = 0; k < (w[head + HEAD.srcs] as number); k++) {
      const scale = at + SOURCE.scale;
      const r = ref();
      srcs.push(w[scale] === 1 ? { ref: r, scale: w[scale + 1] as number } : { ref: r });
      at = scale + 2;
    }
    const dsts: BufRef[] = [];
    for (let k = 0; k < (w[head + HEAD.dsts] as number); k++) dsts.push(ref());
    const after: number[] = [];
    for (let k = 0; k < (w[head + HEAD.after] as number); k++) after.push(w[at++] as number);
    legs.push({
      id: w[head + HEAD.id] as number,
      step: w[head + HEAD.step] as number,
      kind: names[w[head + HEAD.kind] as number] as LegKind,
      rank: w[head + HEAD.rank] as number,
      queue: w[head + HEAD.queue] as number,
      srcs,
      dsts,
      count: w[head + HEAD.count] as number,
      after,
    });
  }
  return { ...(JSON.parse(wire.rest) as Plan), legs };
}
