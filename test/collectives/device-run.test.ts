import { describe, expect, it } from "vitest";
import { COLLECTIVE_DTYPES, type CollectiveName, runSize } from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";
import { smallRun } from "../helpers/collective-run.js";

const COLLECTIVES: CollectiveName[] = ["allr", "redsct", "allg", "sendrecv"];
const OPS = ["sum", "max", "min", "avg"] as const;
const RANKS = [2, 3, 4, 8, 16, 32];

const base = smallRun;

describe("on the engine: 0 wrong, guards intact, for collective × op × dtype (both checks)", () => {
  let k = 0;
  for (const collective of COLLECTIVES) {
    for (const dtype of COLLECTIVE_DTYPES) {
      it(`${collective} ${dtypeName(dtype)}`, () => {
        for (const op of OPS) {
          for (const check of ["exact", "reference"] as const) {
            k++;
            const ranks = RANKS[k % RANKS.length]!;
            const algorithm = (["ring", "kangaring", "mesh"] as const)[k % 3]!;
            const elems =
              [1, 37, 1001][k % 3]! * (collective === "redsct" || collective === "allg" ? ranks : 1);
            const r = runSize(
              base({ collective, dtype, op, check, ranks, algorithm }),
              elems * dtypeBytes(dtype),
            );
            const what = `${collective} ${dtypeName(dtype)} ${op} ${check} ${algorithm} n=${ranks} elems=${elems}`;
            expect(r.row.wrong, what).toBe(0);
            expect(r.row.guardErrors, what).toBe(0);
            if (r.check === "exact") expect(r.row.maxAbsErr, what).toBe(0);
          }
        }
      });
    }
  }
});

describe("every rank count, odd sizes, every algorithm (bf16 sum, exact)", () => {
  for (const ranks of RANKS) {
    it(`${ranks} ranks`, () => {
      for (const collective of COLLECTIVES) {
        for (const algorithm of ["ring", "kangaring", "mesh"] as const) {
          const per = ranks >= 16 ? 129 : 4097;
          const elems = per * (collective === "redsct" || collective === "allg" ? ranks : 1);
          const r = runSize(base({ collective, algorithm, ranks }), elems * 2);
          expect(r.row.wrong, `${collective} ${algorithm}`).toBe(0);
          expect(r.row.guardErrors).toBe(0);
        }
      }
    });
  }
});

describe("stochastic rounding", () => {
  it("matches the scalar reference bit for bit, and the seed changes the bits", () => {
    const run = base({ ranks: 8, algorithm: "kangaring", check: "reference", srSeed: 11 });
    const a = runSize(run, 3 * 4096 + 6, undefined, { keepOutputs: true });
    expect(a.row.wrong).toBe(0);
    expect(a.row.maxAbsErr).toBeGreaterThan(0);
    const b = runSize({ ...run, srSeed: 12 }, 3 * 4096 + 6, undefined, { keepOutputs: true });
    expect(b.row.wrong).toBe(0);
    const outA = a.outputs![0]!;
    const outB = b.outputs![0]!;
    expect(Buffer.compare(outA, outB)).not.toBe(0);
  });
  it("fp8 e4m3 average on Trn1 with SR over 3 ranks", () => {
    const r = runSize(
      base({
        profile: archProfile("trn1"),
        ranks: 3,
        dtype: Dtype.FP8_E4,
        op: "avg",
        check: "reference",
        srSeed: 5,
      }),
      5000,
    );
    expect(r.check).toBe("reference");
    expect(r.row.wrong).toBe(0);
  });
});

describe("multi-node and Trn3", () => {
  it("4 nodes × 8 ranks on Trn2, and 16 ranks on Trn3", () => {
    expect(runSize(base({ ranks: 32, nodes: 4 }), 65536).row.wrong).toBe(0);
    expect(
      runSize(base({ profile: archProfile("trn3"), ranks: 16, algorithm: "kangaring" }), 65536).row.wrong,
    ).toBe(0);
  });
});

describe("one rank: the collective is a copy", () => {
  it("every collective × op × dtype, odd byte counts (1-byte dtypes included), both checks", () => {
    for (const collective of COLLECTIVES) {
      for (const dtype of COLLECTIVE_DTYPES) {
        for (const op of OPS) {
          for (const check of ["exact", "reference"] as const) {
            const r = runSize(base({ collective, dtype, op, check, ranks: 1 }), 3 * dtypeBytes(dtype));
            const what = `${collective} ${dtypeName(dtype)} ${op} ${check}`;
            expect(
              r.plan.legs.every((l) => l.kind === "copy"),
              what,
            ).toBe(true);
            expect(r.row.wrong, what).toBe(0);
            expect(r.row.guardErrors, what).toBe(0);
          }
        }
      }
    }
  });
});
