import { describe, expect, it, vi } from "vitest";
import {
  ALGORITHMS,
  type AlgorithmName,
  buildTopology,
  type CollectiveName,
  candidateAlgorithms,
  countForSize,
  NodeFold,
  type PlanRequest,
  prepareSchedule,
  prepareWithin,
  runSize,
  scheduleCollective,
} from "../../src/collectives/index.js";
import { type ArchName, archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";

const SHAPES: [ArchName, number, number][] = [
  ["trn2", 8, 1],
  ["trn2", 32, 4],
  ["trn1", 16, 2],
];

/** A bf16 sum all-reduce of `count` elements over `ranks` Trn2 ranks on `nodes` nodes. */
function allReduce(ranks: number, nodes: number, algorithm: AlgorithmName, count: number): PlanRequest {
  return {
    topology: buildTopology(archProfile("trn2"), ranks, nodes),
    collective: "allr",
    algorithm,
    dtype: Dtype.BFLOAT16,
    op: "sum",
    count,
  };
}

/** A timing-only bf16 sum `collective` over `ranks` ranks of `arch` on `nodes` nodes, algorithm auto. */
function autoRun(arch: ArchName, ranks: number, nodes: number, collective: CollectiveName) {
  return {
    profile: archProfile(arch),
    ranks,
    nodes,
    collective,
    algorithm: "auto" as const,
    dtype: Dtype.BFLOAT16,
    op: "sum" as const,
    check: "none" as const,
    timingOnly: true,
    dataSeed: 0,
  };
}

describe("auto prunes by lower bound and stops placements that cannot win", () => {
  it("picks what timing every algorithm in full picks (the fastest, first on a tie)", () => {
    for (const [arch, ranks, nodes] of SHAPES)
      for (const collective of ["allr", "redsct", "allg"] as CollectiveName[])
        for (const size of [1024, 1 << 20, 64 << 20]) {
          const run = autoRun(arch, ranks, nodes, collective);
          const profile = run.profile;
          const count = countForSize({ collective, dtype: Dtype.BFLOAT16 }, ranks, size);
          const topology = buildTopology(profile, ranks, nodes);
          const times = ALGORITHMS.map(
            (algorithm) =>
              scheduleCollective(
                { topology, collective, algorithm, dtype: Dtype.BFLOAT16, op: "sum", count },
                { sr: false },
              ).totalNs,
          );
          const best = times.indexOf(Math.min(...times));
          const row = runSize(run, size).row;
          const what = `${arch} ${ranks}/${nodes} ${collective} ${size}`;
          expect(row.algorithm, what).toBe(ALGORITHMS[best]);
          expect(row.timeUs, what).toBe((times[best] as number) / 1000);
        }
  }, 300_000);

  it("a bound never exceeds the time; a cut-off placement is one that would have ended later", () => {
    for (const algorithm of ALGORITHMS) {
      const prepared = prepareSchedule(allReduce(32, 4, algorithm, 1 << 22), { sr: false });
      const full = prepared.place() as { totalNs: number };
      expect(prepared.boundNs).toBeLessThanOrEqual(full.totalNs);
      expect(prepared.boundNs).toBeGreaterThan(0);
      // With auto's margin (run-collective.ts PRUNE_MARGIN): where the bound is the time itself (a
      // ring queue busy without a gap) the cutoff's sum rounds an ulp either side of it.
      expect(prepared.place(full.totalNs * (1 + 1e-9))?.totalNs).toBe(full.totalNs);
      // Half the time: the placement stops partway (or, past its last check, ends above it).
      const cut = prepared.place(full.totalNs / 2);
      if (cut !== undefined) expect(cut.totalNs).toBe(full.totalNs);
    }
    expect(prepareSchedule(allReduce(32, 4, "ring", 1 << 22), { sr: false }).place(1)).toBeUndefined();
  });

  it("counts the node messages: on 8 nodes a Ring's and a KangaRing's bound are within 5 % of the time", () => {
    // A leg that crosses nodes waits its node message on top of its transfer (placer.ts): at 16 MiB
    // over 8 nodes those are most of a ring's time, and a bound without them was 0.13 of it.
    for (const algorithm of ["ring", "kangaring"] as const) {
      const prepared = prepareSchedule(allReduce(64, 8, algorithm, 1 << 23), { sr: false });
      const full = prepared.place() as { totalNs: number };
      expect(prepared.boundNs, algorithm).toBeLessThanOrEqual(full.totalNs);
      expect(prepared.boundNs, algorithm).toBeGreaterThan(0.95 * full.totalNs);
    }
  });
  it("a pre-pass with a cutoff stops below its bound, and above it prepares what the plain one does", () => {
    for (const algorithm of ALGORITHMS) {
      const req = allReduce(64, 8, algorithm, 1 << 23);
      const plain = prepareSchedule(req, { sr: false });
      const full = plain.place() as { totalNs: number };
      expect(prepareWithin(req, { sr: false }, plain.boundNs / 2), algorithm).toBeUndefined();
      const within = prepareWithin(req, { sr: false }, full.totalNs * (1 + 1e-9));
      expect(within?.boundNs, algorithm).toBe(plain.boundNs);
      expect(within?.place()?.totalNs, algorithm).toBe(full.totalNs);
    }
  });
});

describe("auto weighs each candidate once", () => {
  it("folds every candidate once: the fold its legs were counted on is the one it is placed on", () => {
    const run = autoRun("trn2", 32, 4, "allr");
    const of = vi.spyOn(NodeFold, "of");
    try {
      runSize(run, 1 << 20);
      expect(of).toHaveBeenCalledTimes(candidateAlgorithms("allr").length);
    } finally {
      of.mockRestore();
    }
  });
});
