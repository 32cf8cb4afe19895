/**
 * One read, several writes. Where the arch has CCE replication (num_dests > 1, arch > 2, seed 000
 * §4.3) and the dtype passes through the FP32 accumulator unchanged, this is one `duplicate` leg:
 * a single-source CCE ADD (−0 + x = x, exact for every value of such a dtype) into every
 * destination. Otherwise it is a copy to the first destination, then copies from there to the rest.
 * 1-byte dtypes are not duplicated: a single-source 1-byte CCE is promoted to a u16 lane (seed 000
 * §4.2), which cannot move an odd number of bytes.
 */
import { Dtype, dtypeBytes } from "../../spec/dtype.js";
import type { BufRef } from "./plan.js";
import type { LegSink, LegSpec } from "./plan-builder.js";
import type { PlanRequest } from "./plan-request.js";
import { sb2sbAllowed } from "./sb2sb-legs.js";

export interface FanOut {
  readonly step: number;
  readonly rank: number;
  readonly queue: number;
  readonly src: BufRef;
  readonly dsts: readonly BufRef[];
  readonly count: number;
}

/** True when a single-source CCE ADD carries every value of `dt` unchanged (2-byte dtypes, fp32). */
export function canDuplicate(dt: Dtype): boolean {
  return dtypeBytes(dt) === 2 || dt === Dtype.FP32;
}

/** A leg whose queue and count a planner sets for each slice it lends it for (see `LegSink`). */
export type SliceLeg = Omit<LegSpec, "queue" | "count"> & { queue: number; count: number };

/**
 * The legs that copy `src` to every destination, in order. They hold `src` and `dsts` themselves:
 * a planner moves those references and sets each leg's queue and count per slice, and lends them again.
 */
export function fanOutLegs(req: PlanRequest, f: FanOut): SliceLeg[] {
  const first = f.dsts[0];
  if (first === undefined) return [];
  const { step, rank, queue, count } = f;
  // With SB2SB on, the partner's copy is its own leg, so it can become an SB2SB leg.
  if (
    f.dsts.length > 1 &&
    req.topology.profile.hasCceReplication &&
    canDuplicate(req.dtype) &&
    !sb2sbAllowed(req)
  ) {
    return [{ step, kind: "duplicate", rank, queue, srcs: [{ ref: f.src }], dsts: f.dsts, count }];
  }
  // Literal legs (no spread) keep one object shape for the sinks' hot paths; a single destination's
  // array is the leg's own.
  const dsts = f.dsts.length === 1 ? f.dsts : [first];
  const legs: SliceLeg[] = [{ step, kind: "copy", rank, queue, srcs: [{ ref: f.src }], dsts, count }];
  for (let k = 1; k < f.dsts.length; k++)
    legs.push({
      step,
      kind: "copy",
      rank,
      queue,
      srcs: [{ ref: first }],
      dsts: [f.dsts[k] as BufRef],
      count,
    });
  return legs;
}

/** Add the legs that copy `src` to every destination. */
export function copyOrDuplicate(req: PlanRequest, b: LegSink, f: FanOut): void {
  for (const leg of fanOutLegs(req, f)) b.add(leg);
}
