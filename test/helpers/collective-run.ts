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

/** Every arch at each LNC it runs: Trn1 at 1, Trn2 at 1 and 2, Trn3 at 2 (library option values). */
export const ARCH_LNC_SHAPES = [
  { arch: "trn1", lnc: 1 },
  { arch: "trn2", lnc: 1 },
  { arch: "trn2", lnc: 2 },
  { arch: "trn3", lnc: 2 },
] as const;
