import { describe, expect, it } from "vitest";
import {
  type CollectiveName,
  type CollectiveRun,
  runSize,
  type SizeResult,
  traceOf,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";
import { expectSameBytes } from "../helpers/bytes.js";
import { smallRun } from "../helpers/collective-run.js";

function base(over: Partial<CollectiveRun>): CollectiveRun {
  return smallRun({ check: "reference", dataSeed: 11, lnc: 1, ...over });
}

const sb2sbLegs = (r: SizeResult) => r.plan.legs.filter((l) => l.kind.startsWith("sb2sb"));

function outputs(r: SizeResult): readonly Uint8Array[] {
  return r.outputs!;
}

describe("SB2SB legs between LNC2 partners", () => {
  const COLLECTIVES: CollectiveName[] = ["allr", "redsct", "allg", "sendrecv"];
  let k = 0;
  for (const arch of ["trn2", "trn3"] as const) {
    for (const collective of COLLECTIVES) {
      it(`${arch} ${collective}: same bits as the plain legs, SB2SB legs used, 0 wrong`, () => {
        let used = 0;
        for (const algorithm of ["ring", "kangaring", "mesh"] as const) {
          for (const op of ["sum", "max", "min", "avg"] as const) {
            k++;
            const ranks = [2, 4, 8, 16][k % 4]!;
            const dtype = [Dtype.BFLOAT16, Dtype.FP8_E4, Dtype.FP32, Dtype.INT8, Dtype.FP16][k % 5]!;
            const unit = collective === "redsct" || collective === "allg" ? ranks : 1;
            const elems = [1, 37, 1001, 2100][k % 4]! * unit;
            const spec = { profile: archProfile(arch), collective, algorithm, op, ranks, dtype };
            const keep = { keepOutputs: true };
            const plain = runSize(base(spec), elems * dtypeBytes(dtype), undefined, keep);
            const sb = runSize(base({ ...spec, sb2sb: true }), elems * dtypeBytes(dtype), undefined, keep);
            const what = `${collective} ${algorithm} ${op} ${dtypeName(dtype)} n=${ranks} elems=${elems}`;
            expect(sb.row.wrong, what).toBe(0);
            expect(sb.row.guardErrors, what).toBe(0);
            expectSameBytes(outputs(sb), outputs(plain), what);
            used += sb2sbLegs(sb).length;
            expect(sb2sbLegs(plain), what).toEqual([]);
          }
        }
        expect(used).toBeGreaterThan(0);
      });
    }
  }

  it("reduce legs: sources [incoming, local], issued by the partner; avg stays on plain legs", () => {
    const r = runSize(base({ sb2sb: true, ranks: 2, check: "exact" }), 4096);
    const reduces = r.plan.legs.filter((l) => l.kind === "sb2sb-reduce");
    expect(reduces.length).toBeGreaterThan(0);
    for (const l of reduces) {
      expect(l.srcs[0]!.ref.rank).toBe(l.rank);
      expect(l.srcs[1]!.ref.rank).toBe(l.dsts[0]!.rank);
      expect(l.rank ^ 1).toBe(l.dsts[0]!.rank);
    }
    const avg = runSize(base({ sb2sb: true, ranks: 2, op: "avg" }), 4096);
    expect(avg.plan.legs.some((l) => l.kind === "sb2sb-reduce")).toBe(false);
  });

  it("stochastic rounding through SB2SB reduce packets matches the scalar reference bit for bit", () => {
    for (const dtype of [Dtype.BFLOAT16, Dtype.FP8_E5]) {
      const r = runSize(base({ sb2sb: true, ranks: 8, dtype, srSeed: 5 }), 3001 * dtypeBytes(dtype));
      expect(sb2sbLegs(r).some((l) => l.kind === "sb2sb-reduce")).toBe(true);
      expect(r.row.wrong).toBe(0);
    }
  });

  it("never on Trn1, never across nodes, never at LNC 2 (the pair is one rank), never when not asked", () => {
    const none = [
      runSize(base({ sb2sb: true, lnc: 2, algorithm: "kangaring" }), 8192),
      runSize(base({ sb2sb: true, profile: archProfile("trn1"), algorithm: "kangaring" }), 8192),
      runSize(base({ sb2sb: true, ranks: 16, nodes: 2, algorithm: "kangaring" }), 8192),
      runSize(base({ algorithm: "kangaring" }), 8192),
    ];
    for (const r of none) expect(sb2sbLegs(r)).toEqual([]);
  });

  it("timing-only gives the full run's time, and the trace names the SB2SB slices", () => {
    const spec = base({ sb2sb: true, ranks: 8, check: "exact" });
    const full = runSize(spec, 65536);
    const timing = runSize({ ...spec, timingOnly: true }, 65536);
    expect(timing.row.timeUs).toBe(full.row.timeUs);
    const names = new Set(traceOf(full.plan, full.schedule, spec.profile).traceEvents.map((e) => e.name));
    expect(names.has("sb2sb-copy")).toBe(true);
    expect(names.has("sb2sb-reduce add")).toBe(true);
  });
});
