import { describe, expect, it } from "vitest";
import { COLLECTIVE_DTYPES, REDUCE_OPS, runCollective } from "../../src/collectives/index.js";
import { Dtype, dtypeName } from "../../src/spec/index.js";
import { ARCH_LNC_SHAPES } from "../helpers/collective-run.js";

const REDUCING = ["allr", "redsct", "allg"] as const;

describe("checked RDH runs (plan/rdh.ts)", () => {
  it("give 0 wrong and intact guards for every dtype × op (8 ranks of Trn2, LNC 2)", () => {
    for (const collective of REDUCING)
      for (const dtype of COLLECTIVE_DTYPES)
        for (const op of collective === "allg" ? (["sum"] as const) : REDUCE_OPS) {
          const r = runCollective({ collective, algorithm: "rdh", ranks: 8, dtype, op, size: 1000 });
          const what = `${collective} ${dtypeName(dtype)} ${op}`;
          expect([r.row.wrong, r.row.guardErrors], what).toEqual([0, 0]);
          expect(r.algorithm, what).toBe("rdh");
        }
  });
  it("give 0 wrong on Trn1, Trn2 and Trn3, at LNC 1 and 2, on one node and two", () => {
    for (const shape of ARCH_LNC_SHAPES)
      for (const nodes of [1, 2])
        for (const collective of REDUCING)
          for (const [dtype, op] of [
            [Dtype.BFLOAT16, "sum"],
            [Dtype.FP8_E4, "avg"],
            [Dtype.INT32, "max"],
          ] as const) {
            const r = runCollective({
              collective,
              algorithm: "rdh",
              ...shape,
              ranks: 8,
              nodes,
              dtype,
              op,
              size: 65536 + 96,
            });
            const what = `${collective} ${shape.arch} lnc ${shape.lnc} nodes ${nodes} ${dtypeName(dtype)} ${op}`;
            expect([r.row.wrong, r.row.guardErrors], what).toEqual([0, 0]);
          }
  });
});
