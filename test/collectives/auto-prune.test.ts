import { describe, expect, it } from "vitest";
import {
  ALGORITHMS,
  buildTopology,
  type CollectiveName,
  countForSize,
  type PlanRequest,
  prepareSchedule,
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

describe("auto prunes by lower bound and stops placements that cannot win", () => {
  it("picks what timing every algorithm in full picks (the fastest, first on a tie)", () => {
    for (const [arch, ranks, nodes] of SHAPES)
      for (const collective of ["allr", "redsct", "allg"] as CollectiveName[])
        for (const size of [1024, 1 << 20, 64 << 20]) {
          const profile = archProfile(arch);
          const run = {
            profile,
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
      const req: PlanRequest = {
        topology: buildTopology(archProfile("trn2"), 32, 4),
        collective: "allr",
        algorithm,
        dtype: Dtype.BFLOAT16,
        op: "sum",
        count: 1 << 22,
      };
      const prepared = prepareSchedule(req, { sr: false });
      const full = prepared.place() as { totalNs: number };
      expect(prepared.boundNs).toBeLessThanOrEqual(full.totalNs);
      expect(prepared.boundNs).toBeGreaterThan(0);
      expect(prepared.place(full.totalNs)?.totalNs).toBe(full.totalNs);
      // Half the time: the placement stops partway (or, past its last check, ends above it).
      const cut = prepared.place(full.totalNs / 2);
      if (cut !== undefined) expect(cut.totalNs).toBe(full.totalNs);
    }
    const req: PlanRequest = {
      topology: buildTopology(archProfile("trn2"), 32, 4),
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: 1 << 22,
    };
    expect(prepareSchedule(req, { sr: false }).place(1)).toBeUndefined();
  });
});
