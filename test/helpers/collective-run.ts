import type { CollectiveRun } from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";

/** A CollectiveRun on the CLI's defaults (trn2, 8 ranks, auto, bf16 sum, exact check), with overrides. */
export function collectiveRun(over: Partial<CollectiveRun> = {}): CollectiveRun {
  return {
    profile: archProfile("trn2"),
    ranks: 8,
    nodes: 1,
    collective: "allr",
    algorithm: "auto",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    check: "exact",
    timingOnly: false,
    dataSeed: 1,
    ...over,
  };
}

/** A small functional run (4 ranks of Trn2, Ring, bf16 sum, exact check, seed 7), with overrides. */
export function smallRun(over: Partial<CollectiveRun> = {}): CollectiveRun {
  return collectiveRun({ ranks: 4, algorithm: "ring", dataSeed: 7, ...over });
}
