// A plan crosses to a worker as numbers (threads/plan-wire.ts): the worker's plan must be the
// calling thread's in every field, or its legs would write other bytes.
import { describe, expect, it } from "vitest";
import {
  ALGORITHMS,
  buildPlan,
  buildTopology,
  type CollectiveName,
  type ReduceOp,
} from "../../src/collectives/index.js";
import { decodePlan, encodePlan } from "../../src/collectives/threads/plan-wire.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";

describe("a plan sent to a worker", () => {
  const profile = archProfile("trn2");
  const cases: [CollectiveName, ReduceOp, number][] = [
    ["allr", "sum", 8],
    ["allr", "avg", 4], // sources with a scale
    ["allg", "sum", 8],
    ["redsct", "max", 4],
  ];
  for (const [collective, op, ranks] of cases)
    for (const algorithm of ALGORITHMS)
      it(`${collective} ${op} ${algorithm} × ${ranks} ranks: comes back equal`, () => {
        const plan = buildPlan({
          topology: buildTopology(profile, ranks, 1),
          collective,
          algorithm,
          dtype: Dtype.FP32,
          op,
          count: ranks * 4096,
        });
        expect(decodePlan(encodePlan(plan))).toStrictEqual(plan);
      });
});
