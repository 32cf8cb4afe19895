/**
 * Legs as planners emit them, and the builder that accumulates them and derives their
 * dependencies: a leg runs after the last leg that wrote each
 * range it reads. Algorithms partition buffers identically at every step, so a read matches a
 * write exactly (same rank, buffer, first element and count); anything else is a planner bug and
 * throws rather than silently losing an ordering.
 *
 * MODEL: a reduce over a single source with unit scale (what a 1-rank all-reduce / reduce-scatter
 * plans) is built as a plain copy, as NCCL copies for one rank: a single-source CCE would pass the
 * data through FP32 (inexact for > 24-bit integers) and a 1-byte dtype through the u8 → u16 lane
 * promotion (seed 000 §4.2), which refuses an odd byte count.
 */
import type { BufRef, Leg } from "./plan.js";

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

/** A copy of a lent leg that a sink may keep: its sources and destinations copied too. */
export function ownLeg(spec: LegSpec): LegSpec {
  const srcs = spec.srcs.map((s) => ({ ...s, ref: { ...s.ref } }));
  return { ...spec, srcs, dsts: spec.dsts.map((d) => ({ ...d })) };
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

/** Materialises legs (ids and dependencies): the plan the engine runs and the oracle schedule times. */
export class PlanBuilder implements LegSink {
  readonly legs: Leg[] = [];
  private readonly lastWriter = new Map<string, { id: number; count: number }>();

  /** Append a (normalized) leg. @throws Error when a read overlaps a write inexactly. */
  add(spec: LegSpec): void {
    const after = new Set<number>();
    for (const { ref } of spec.srcs) {
      const w = this.lastWriter.get(key(ref));
      if (w === undefined) continue;
      if (w.count !== spec.count) {
        throw new Error(`planner: leg reads ${key(ref)}×${spec.count} but it was written ×${w.count}`);
      }
      after.add(w.id);
    }
    const id = this.legs.length;
    this.legs.push({ ...ownLeg(spec), id, after: [...after].sort((a, b) => a - b) });
    for (const d of spec.dsts) this.lastWriter.set(key(d), { id, count: spec.count });
  }
}
