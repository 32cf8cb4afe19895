import { describe, expect, it } from "vitest";
import {
  buildPlan,
  buildTopology,
  type CollectiveName,
  candidateAlgorithms,
  exactResult,
  makeInputs,
  NodeFold,
  OUTPUT_FILL,
  type PlanRequest,
  runCollective,
  runReference,
  scheduleCollective,
} from "../../src/collectives/index.js";
import { type ArchName, archProfile } from "../../src/hal/index.js";
import { decodeToF32 } from "../../src/numerics/index.js";
import { Dtype } from "../../src/spec/index.js";
import { unorderedConflicts } from "../helpers/leg-conflicts.js";

const REDUCING: CollectiveName[] = ["allr", "redsct", "allg"];

function request(over: Partial<PlanRequest> & { ranks?: number; arch?: ArchName }): PlanRequest {
  const { ranks = 8, arch = "trn2", ...rest } = over;
  return {
    topology: buildTopology(archProfile(arch), ranks),
    collective: "allr",
    algorithm: "rdh",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    count: 1000,
    ...rest,
  };
}

describe("RDH (recursive halving / doubling)", () => {
  it("carries the data where each collective says, over 1 … 32 ranks and odd sizes", () => {
    for (const ranks of [1, 2, 4, 8, 16, 32])
      for (const collective of REDUCING)
        for (const per of ranks >= 16 ? [1, 333] : [1, 7, 4099]) {
          const count = collective === "allr" ? per : per * ranks;
          const req = request({ ranks, collective, count });
          const plan = buildPlan(req);
          const profile = req.topology.profile;
          const inputs = makeInputs({
            kind: "exact",
            dtype: Dtype.BFLOAT16,
            ranks,
            count: plan.sizes.input,
            seed: 3,
          });
          const out = runReference(plan, profile, inputs.bytes, { fill: OUTPUT_FILL, overflow: "nan" });
          const exact = exactResult(collective, "sum", inputs.values);
          for (let r = 0; r < ranks; r++) {
            const v = new Float32Array(plan.sizes.output);
            decodeToF32(Dtype.BFLOAT16, out[r]!.output, 0, v.length, v);
            let wrong = 0;
            for (let i = 0; i < v.length; i++) if (v[i] !== exact[r]![i]) wrong++;
            expect(wrong, `${collective} n=${ranks} count=${count} rank ${r}`).toBe(0);
          }
        }
  });

  it("orders every pair of legs that touch the same elements", () => {
    for (const ranks of [2, 4, 8, 16])
      for (const collective of REDUCING) {
        const count = collective === "allr" ? 3000 + 5 : 160 * ranks;
        const plan = buildPlan(request({ ranks, collective, count }));
        expect(unorderedConflicts(plan.legs), `${collective} n=${ranks}`).toEqual([]);
      }
  });

  it("is log2 n reduce steps of 2R1W reduce-copies, then log2 n steps of copies", () => {
    const plan = buildPlan(request({ ranks: 16, count: 1 << 16 }));
    const reduces = plan.legs.filter((l) => l.kind === "reduce-copy");
    expect(new Set(reduces.map((l) => l.srcs.length))).toEqual(new Set([2]));
    expect(new Set(reduces.map((l) => l.step))).toEqual(new Set([0, 1, 2, 3]));
    const copies = plan.legs.filter((l) => l.kind === "copy");
    expect(new Set(copies.map((l) => l.step))).toEqual(new Set([4, 5, 6, 7]));
    // Step 0 pairs rank r with r XOR 1, the all-gather's last step too (the nearest first).
    const peers = (step: number) =>
      new Set(plan.legs.filter((l) => l.step === step).map((l) => l.srcs.at(-1)!.ref.rank ^ l.rank));
    expect(peers(0)).toEqual(new Set([1]));
    expect(peers(7)).toEqual(new Set([1]));
    // No packet reads what it writes.
    for (const l of reduces)
      for (const s of l.srcs)
        expect(s.ref.rank === l.dsts[0]!.rank && s.ref.buffer === l.dsts[0]!.buffer).toBe(false);
  });

  it("refuses a rank count that is not a power of two; auto then leaves it out", () => {
    expect(() => buildPlan(request({ ranks: 12 }))).toThrow(/rdh: ranks 12 must be a power of two/);
    expect(candidateAlgorithms("allr")).toContain("rdh");
    expect(candidateAlgorithms("sendrecv")).not.toContain("rdh");
    const r = runCollective({
      collective: "allr",
      ranks: 12,
      algorithm: "auto",
      timingOnly: true,
      size: 1 << 20,
    });
    expect(r.algorithm).not.toBe("rdh");
    expect(() =>
      runCollective({ collective: "allr", ranks: 12, algorithm: "rdh", timingOnly: true }),
    ).toThrow(/power of two/);
  });

  it("is timed on one node for all when its blocks are alike (the XOR fold), else every rank placed", () => {
    const topology = buildTopology(archProfile("trn2"), 64, 2);
    const req = { ...request({ ranks: 64, count: 1 << 20 }), topology };
    // 2^20 elements: 64 blocks of 1024 granules; 16 more: the last block one granule larger.
    for (const [count, folds] of [
      [1 << 20, true],
      [(1 << 20) + 16, false],
    ] as const) {
      const two = { ...req, count };
      expect(NodeFold.of(two).nodes, `${count}`).toBe(folds ? 2 : 1);
      const fast = scheduleCollective(two, { sr: false });
      const full = scheduleCollective(two, { sr: false, record: true });
      expect(fast.totalNs, `${count}`).toBe(full.totalNs);
      expect(fast.totalNs).toBeGreaterThan(0);
    }
  });
});
