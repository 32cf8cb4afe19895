import type { Leg } from "../../src/collectives/index.js";

/**
 * Every pair of legs that touch overlapping elements (a write after a read or a write, a read after
 * a write) is ordered through `after`: the later one runs after the earlier, transitively — what
 * the timing model and the device's batches rely on. The pairs that are not, as "leg i vs j".
 */
export function unorderedConflicts(legs: readonly Leg[]): string[] {
  const ancestors: Set<number>[] = [];
  const bad: string[] = [];
  type Span = { rank: number; buffer: string; lo: number; hi: number };
  const spans = (l: Leg) => ({
    reads: l.srcs.map((s) => ({ ...s.ref, lo: s.ref.elem, hi: s.ref.elem + l.count })),
    writes: l.dsts.map((d) => ({ ...d, lo: d.elem, hi: d.elem + l.count })),
  });
  const meet = (a: Span[], b: Span[]) =>
    a.some((x) => b.some((y) => x.rank === y.rank && x.buffer === y.buffer && x.lo < y.hi && y.lo < x.hi));
  const all = legs.map(spans);
  for (const leg of legs) {
    const anc = new Set<number>();
    for (const a of leg.after) {
      anc.add(a);
      for (const x of ancestors[a] as Set<number>) anc.add(x);
    }
    ancestors.push(anc);
    const me = all[leg.id]!;
    for (let e = 0; e < leg.id; e++) {
      if (anc.has(e)) continue;
      const them = all[e]!;
      if (meet(me.writes, them.reads) || meet(me.writes, them.writes) || meet(me.reads, them.writes))
        bad.push(`leg ${leg.id} vs ${e}`);
    }
  }
  return bad;
}
