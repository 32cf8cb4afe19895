/**
 * One read, several writes. Where the arch has CCE replication (num_dests > 1, arch > 2, seed 000
 * §4.3) and the dtype passes through the FP32 accumulator unchanged, this is one `duplicate` leg:
 * a single-source CCE ADD (−0 + x = x, exact for every value of such a dtype) into every
 * destination. Otherwise it is a copy to the first destination, then copies from there to the rest.
 * 1-byte dtypes are not duplicated: a single-source 1-byte CCE is promoted to a u16 lane (seed 000
 * §4.2), which cannot move an odd number of bytes.
 */
import { Dtype, dtypeBytes } from "../spec/dtype.js";
import type { BufRef } from "./plan.js";
import type { PlanBuilder } from "./plan-builder.js";
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

/** Add the legs that copy `src` to every destination. */
export function copyOrDuplicate(req: PlanRequest, b: PlanBuilder, f: FanOut): void {
  const [first, ...rest] = f.dsts;
  if (first === undefined) return;
  const common = { step: f.step, rank: f.rank, queue: f.queue, count: f.count };
  // With SB2SB on, the partner's copy is its own leg, so it can become an SB2SB leg.
  if (
    rest.length > 0 &&
    req.topology.profile.hasCceReplication &&
    canDuplicate(req.dtype) &&
    !sb2sbAllowed(req)
  ) {
    b.add({ ...common, kind: "duplicate", srcs: [{ ref: f.src }], dsts: f.dsts });
    return;
  }
  b.add({ ...common, kind: "copy", srcs: [{ ref: f.src }], dsts: [first] });
  for (const d of rest) b.add({ ...common, kind: "copy", srcs: [{ ref: first }], dsts: [d] });
}
