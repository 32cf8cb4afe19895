// Issue 29 point 4: a timing-only run weighs its plan before scheduling it (plan/leg-estimate.ts):
// the estimate follows the legs the planners emit (counted, not timed), and a plan past the bound
// (Ring over 16384 ranks × 1 MB does not fold onto a node: ≈ 1 G legs) is refused at once with the
// estimate and the bound, for an explicit algorithm and for auto, instead of running for hours.
import { describe, expect, it } from "vitest";
import {
  type AlgorithmName,
  buildTopology,
  type CollectiveName,
  collectiveRun,
  emitPlan,
  estimateLegs,
  MAX_SCHEDULE_LEGS,
  NodeFold,
  type PlanRequest,
  prepareSize,
  ScheduleTooLargeError,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";

const COLLECTIVES: CollectiveName[] = ["allr", "redsct", "allg", "sendrecv", "alltoall"];
const ALGORITHMS: AlgorithmName[] = ["ring", "kangaring", "mesh", "rdh"];

function* requests(): Generator<PlanRequest> {
  for (const [ranks, nodes] of [
    [8, 1],
    [32, 2],
    [128, 8],
  ] as const)
    for (const collective of COLLECTIVES)
      for (const algorithm of ALGORITHMS)
        for (const per of [16, 1000, 65536]) {
          if (collective === "sendrecv" && algorithm !== "ring") continue;
          if (collective === "alltoall" && algorithm !== "mesh") continue;
          const topology = buildTopology(archProfile("trn2"), ranks, nodes);
          yield { topology, collective, algorithm, dtype: Dtype.BFLOAT16, op: "sum", count: per * ranks };
        }
}

describe("the legs a plan emits, estimated from its shape (plan/leg-estimate.ts)", () => {
  it("is within 1× and 2.5× of the legs emitted, for every rank and for one node's", () => {
    let n = 0;
    for (const req of requests()) {
      const fold = NodeFold.of(req);
      for (const issuers of new Set([req.topology.ranks, fold.perNode])) {
        let legs = 0;
        emitPlan(req, { add: () => legs++ }, issuers);
        const what = `${req.topology.ranks} ${req.collective} ${req.algorithm} ${req.count} issuers ${issuers}`;
        expect(estimateLegs(req, issuers), what).toBeGreaterThanOrEqual(legs);
        expect(estimateLegs(req, issuers), what).toBeLessThanOrEqual(2.5 * legs);
        n++;
      }
    }
    expect(n).toBeGreaterThan(100);
  });

  it("at 16384 ranks: 1 GiB folds within the bound for every algorithm; unfolded 1 MB Ring is past it", () => {
    const topology = buildTopology(archProfile("trn2"), 16384, 256);
    const req = (algorithm: AlgorithmName, bytes: number): PlanRequest => ({
      topology,
      collective: "allr",
      algorithm,
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: bytes / 2,
    });
    for (const a of ALGORITHMS) {
      const r = req(a, 2 ** 30);
      expect(estimateLegs(r, NodeFold.of(r).perNode), a).toBeLessThan(MAX_SCHEDULE_LEGS);
      const tiny = req(a, 64);
      expect(estimateLegs(tiny, NodeFold.of(tiny).perNode), `${a} 64 B`).toBeLessThan(1e6);
    }
    const ring = req("ring", 1e6);
    expect(NodeFold.of(ring).nodes).toBe(1);
    expect(estimateLegs(ring)).toBeGreaterThan(MAX_SCHEDULE_LEGS);
  });
});

describe("a timing-only run past the bound is refused before it schedules", () => {
  const run = (algorithm: AlgorithmName | "auto") =>
    collectiveRun({ collective: "allr", ranks: 16384, nodes: 256, algorithm, timingOnly: true });

  it("an explicit --algo: a ScheduleTooLargeError with the estimate and the bound", () => {
    let e: unknown;
    try {
      prepareSize(run("ring"), 1_000_000);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(ScheduleTooLargeError);
    const err = e as ScheduleTooLargeError;
    expect(err.legs).toBeGreaterThan(MAX_SCHEDULE_LEGS);
    expect(err.bound).toBe(MAX_SCHEDULE_LEGS);
    expect(err.message).toContain(`at most ${MAX_SCHEDULE_LEGS}`);
    expect(err.message).toContain("does not fold onto one node");
  });

  it("auto: refused as well, not answered by the candidates that fit (it would name the wrong winner)", () => {
    expect(() => prepareSize(run("auto"), 1_000_000)).toThrow(ScheduleTooLargeError);
  });
});
