import { describe, expect, it } from "vitest";
import type { AlgorithmName, CollectiveName } from "../../src/collectives/index.js";
import {
  buildPlan,
  buildTopology,
  exactResult,
  makeInputs,
  OUTPUT_FILL,
  runReference,
  splitRange,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { decodeToF32 } from "../../src/numerics/index.js";
import { Dtype } from "../../src/spec/index.js";
import { unorderedConflicts } from "../helpers/leg-conflicts.js";

const COLLECTIVES: CollectiveName[] = ["allr", "redsct", "allg", "sendrecv"];
const ALGOS: AlgorithmName[] = ["ring", "kangaring", "mesh"];

describe("plans carry the data where the collective says (exact data through the scalar reference)", () => {
  for (const [arch, ranks] of [
    ["trn1", [2, 3, 4, 8]],
    ["trn2", [1, 2, 3, 4, 8, 16, 32]],
  ] as const) {
    for (const n of ranks) {
      it(`${arch} ${n} ranks: every collective × algorithm × size`, () => {
        const profile = archProfile(arch);
        const t = buildTopology(profile, n);
        for (const collective of COLLECTIVES) {
          for (const algorithm of ALGOS) {
            for (const per of n >= 16 ? [1, 7, 333] : [1, 7, 1000, 4099]) {
              const count = collective === "redsct" || collective === "allg" ? per * n : per;
              const plan = buildPlan({
                topology: t,
                collective,
                algorithm,
                dtype: Dtype.BFLOAT16,
                op: "sum",
                count,
              });
              const inputs = makeInputs({
                kind: "exact",
                dtype: Dtype.BFLOAT16,
                ranks: n,
                count: plan.sizes.input,
                seed: 3,
              });
              const out = runReference(plan, profile, inputs.bytes, { fill: OUTPUT_FILL, overflow: "nan" });
              const exact = exactResult(collective, "sum", inputs.values);
              for (let r = 0; r < n; r++) {
                const v = new Float32Array(plan.sizes.output);
                decodeToF32(Dtype.BFLOAT16, out[r]!.output, 0, v.length, v);
                let wrong = 0;
                for (let i = 0; i < v.length; i++) if (v[i] !== exact[r]![i]) wrong++;
                expect(wrong, `${collective} ${algorithm} n=${n} count=${count} rank ${r}`).toBe(0);
              }
            }
          }
        }
      });
    }
  }
});

describe("plan shape", () => {
  const t = buildTopology(archProfile("trn2"), 8);
  it("Ring reduce-copies are 2R1W, KangaRing's 3R1W after its 4R1W first step", () => {
    const ring = buildPlan({
      topology: t,
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: 1 << 16,
    });
    const rs = ring.legs.filter((l) => l.kind === "reduce-copy");
    expect(new Set(rs.map((l) => l.srcs.length))).toEqual(new Set([2]));
    expect(Math.max(...ring.legs.map((l) => l.step)) + 1).toBe(2 * (8 - 1));
    const kanga = buildPlan({
      topology: t,
      collective: "allr",
      algorithm: "kangaring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: 1 << 16,
    });
    const ks = kanga.legs.filter((l) => l.kind === "reduce-copy");
    expect(new Set(ks.filter((l) => l.step === 0).map((l) => l.srcs.length))).toEqual(new Set([4]));
    expect(new Set(ks.filter((l) => l.step > 0).map((l) => l.srcs.length))).toEqual(new Set([3]));
    // 1R2W: the all-gather duplicates into the pair (trn2 has CCE replication).
    expect(kanga.legs.some((l) => l.kind === "duplicate" && l.dsts.length === 2)).toBe(true);
  });
  it("Trn1 has no CCE replication: the 1R2W becomes two copies", () => {
    const t1 = buildTopology(archProfile("trn1"), 4);
    const kanga = buildPlan({
      topology: t1,
      collective: "allr",
      algorithm: "kangaring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: 4096,
    });
    expect(kanga.legs.some((l) => l.kind === "duplicate")).toBe(false);
  });
  it("avg pre-multiplies inputs by fp32(1/n) and partials by 1 (PreMulSum)", () => {
    const t3 = buildTopology(archProfile("trn2"), 3);
    const plan = buildPlan({
      topology: t3,
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "avg",
      count: 999,
    });
    for (const l of plan.legs.filter((x) => x.kind === "reduce-copy")) {
      for (const s of l.srcs) expect(s.scale).toBe(s.ref.buffer === "input" ? Math.fround(1 / 3) : 1);
    }
  });
  it("Ring and KangaRing all-reduce partials go to the output (no scratch), ordered before it is overwritten", () => {
    // A cold process faults in every page a run touches: the output, written in full anyway, holds
    // the partials, so the scratch is never touched. A reduce-scatter's output is one chunk: its
    // partials stay in the scratch. Small counts leave chunks empty (live-chunks.ts).
    for (const algorithm of ["ring", "kangaring"] as const)
      for (const ranks of [2, 4, 6, 8, 16])
        for (const collective of ["allr", "redsct"] as const)
          for (const count of [ranks, 8 * 1000 + 40]) {
            const plan = buildPlan({
              topology: buildTopology(archProfile("trn2"), ranks),
              collective,
              algorithm,
              dtype: Dtype.BFLOAT16,
              op: "sum",
              count: collective === "allr" ? count : count * ranks,
            });
            const what = `${algorithm} ${collective} n=${ranks} count=${count}`;
            const scratch = plan.legs.filter(
              (l) =>
                l.dsts.some((d) => d.buffer === "scratch") || l.srcs.some((x) => x.ref.buffer === "scratch"),
            );
            if (collective === "allr") expect(scratch.length, what).toBe(0);
            else if (ranks > (algorithm === "ring" ? 2 : 4) && count > ranks)
              expect(scratch.length, what).toBeGreaterThan(0);
            expect(unorderedConflicts(plan.legs), what).toEqual([]);
          }
  });
  it("mesh folds more sources than the CCE takes through a partial", () => {
    const t32 = buildTopology(archProfile("trn2"), 32);
    const plan = buildPlan({
      topology: t32,
      collective: "redsct",
      algorithm: "mesh",
      dtype: Dtype.FP32,
      op: "sum",
      count: 32 * 64,
    });
    expect(Math.max(...plan.legs.map((l) => l.srcs.length))).toBeLessThanOrEqual(
      archProfile("trn2").maxCceSources,
    );
  });
  it("splitRange cuts on 32-byte granules and the last piece takes the remainder", () => {
    expect(splitRange({ start: 10, count: 100 }, 2, 2)).toEqual([
      { start: 10, count: 48 },
      { start: 58, count: 52 },
    ]);
    expect(splitRange({ start: 0, count: 3 }, 4, 2).map((r) => r.count)).toEqual([0, 0, 0, 3]);
  });
});
