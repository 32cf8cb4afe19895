// A functional collective run for tests: 4 ranks of Trn2, Ring, bf16 sum, exact check, seed 7,
// with the fields a test cares about overridden.
import type { CollectiveRun } from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/arch-profile.js";
import { Dtype } from "../../src/spec/dtype.js";

export function collectiveRun(over: Partial<CollectiveRun> = {}): CollectiveRun {
  return {
    profile: archProfile("trn2"),
    ranks: 4,
    nodes: 1,
    collective: "allr",
    algorithm: "ring",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    check: "exact",
    timingOnly: false,
    dataSeed: 7,
    ...over,
  };
}
