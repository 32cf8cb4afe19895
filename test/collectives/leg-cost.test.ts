import { describe, expect, it } from "vitest";
import { type CollectiveRun, DeviceMachine, LegCoster, runSize } from "../../src/collectives/index.js";
import { Dtype } from "../../src/spec/index.js";
import { collectiveRun } from "../helpers/collective-run.js";

const run = (over: Partial<CollectiveRun>): CollectiveRun =>
  collectiveRun({ ranks: 4, lnc: 1, algorithm: "ring", check: "none", dataSeed: 2, ...over });

/** Per leg: descriptors the engine executed (from its events) and what the timing model counts. */
function counts(spec: CollectiveRun, size: number) {
  const r = runSize({ ...spec, timingOnly: true }, size);
  const seed = spec.srSeed === undefined ? {} : { srSeed: spec.srSeed };
  const machine = new DeviceMachine(r.plan, spec.profile, { overflow: "nan", ...seed });
  const executed = new Map<number, number>();
  try {
    machine.prefill();
    machine.execute();
    for (const { leg, event } of machine.events)
      executed.set(leg, (executed.get(leg) ?? 0) + event.descriptors);
  } finally {
    machine.release();
  }
  const coster = new LegCoster(spec.profile, {
    dtype: spec.dtype,
    op: spec.op,
    sr: spec.srSeed !== undefined,
  });
  return r.plan.legs.map((leg) => ({
    kind: leg.kind,
    srcs: leg.srcs.length,
    dsts: leg.dsts.length,
    executed: executed.get(leg.id) ?? 0,
    timed: coster.cost(leg).descriptors,
  }));
}

describe("the timing model counts the descriptors the engine executes (leg-cost.ts)", () => {
  const cases: [string, Partial<CollectiveRun>, (k: { kind: string; dsts: number }) => boolean][] = [
    ["copy", { collective: "allg" }, (k) => k.kind === "copy"],
    ["ADD reduce", {}, (k) => k.kind === "reduce-copy"],
    ["FMA (avg)", { op: "avg" }, (k) => k.kind === "reduce-copy"],
    ["MIN", { op: "min" }, (k) => k.kind === "reduce-copy"],
    ["MAX, fp32", { op: "max", dtype: Dtype.FP32 }, (k) => k.kind === "reduce-copy"],
    ["SR", { srSeed: 9 }, (k) => k.kind === "reduce-copy"],
    [
      "duplicate / combo (1R2W)",
      { algorithm: "kangaring", collective: "allg" },
      (k) => k.kind === "duplicate" && k.dsts > 1,
    ],
    ["duplicate with SR", { algorithm: "kangaring", srSeed: 4 }, (k) => k.kind === "duplicate"],
    ["SB2SB copy and reduce", { sb2sb: true, ranks: 8 }, (k) => k.kind.startsWith("sb2sb")],
    ["SB2SB with SR", { sb2sb: true, ranks: 8, srSeed: 1 }, (k) => k.kind === "sb2sb-reduce"],
    ["RDH reduce (2R1W) and gather", { algorithm: "rdh", ranks: 8 }, (k) => k.kind === "reduce-copy"],
    ["RDH avg, SR", { algorithm: "rdh", op: "avg", srSeed: 3 }, (k) => k.kind === "reduce-copy"],
    ["alltoall", { collective: "alltoall", algorithm: "mesh" }, (k) => k.kind === "copy"],
    [
      "alltoallv (metadata)",
      {
        collective: "alltoallv",
        algorithm: "mesh",
        exchange: { metadata: [{ send_counts: [9000, 1, 0, 33], send_displs: [0, 9000, 9001, 9001] }] },
      },
      (k) => k.kind === "copy",
    ],
    ["allgv", { collective: "allgv", algorithm: "mesh", dtype: Dtype.FP8_E4 }, (k) => k.kind === "copy"],
    [
      "permute",
      {
        collective: "permute",
        algorithm: "mesh",
        exchange: {
          pairs: [
            [0, 2],
            [2, 0],
            [1, 1],
          ],
        },
      },
      (k) => k.kind === "copy",
    ],
  ];
  for (const [name, over, wanted] of cases) {
    it(name, () => {
      const legs = counts(run(over), 100_000);
      expect(legs.some(wanted), `${name}: the plan has such legs`).toBe(true);
      for (const l of legs) expect(l.timed, JSON.stringify(l)).toBe(l.executed);
    });
  }
});
