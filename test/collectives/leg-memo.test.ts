import { describe, expect, it } from "vitest";
import {
  buildTopology,
  type CollectiveRun,
  groupTopology,
  prepareSize,
  shippedTiming,
} from "../../src/collectives/index.js";
import { LegMemo } from "../../src/collectives/timing/leg-memo.js";
import { scheduleWeight } from "../../src/collectives/timing/schedule.js";
import { type ArchName, archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";

// A calibration's memo (timing/leg-memo.ts) plans each candidate once and replays its legs at every
// parameter set: the times, the winner and the counts must be the ones planning each time gives.
const RUNS: [ArchName, number, number, CollectiveRun["collective"], boolean][] = [
  ["trn2", 8, 1, "allg", false],
  ["trn2", 8, 1, "allr", true],
  ["trn1", 16, 2, "allr", false],
  ["trn1", 32, 2, "redsct", false],
];

function run(
  arch: ArchName,
  ranks: number,
  nodes: number,
  collective: CollectiveRun["collective"],
  sb2sb: boolean,
  scale: number,
): CollectiveRun {
  const shipped = shippedTiming(arch);
  const params = {
    launchNs: shipped.launchNs * scale,
    packetNs: shipped.packetNs / scale,
    nodeMessageNs: shipped.nodeMessageNs * scale,
  };
  return {
    profile: archProfile(arch),
    ...(sb2sb ? { lnc: 1 as const, sb2sb } : {}),
    ranks,
    nodes,
    collective,
    algorithm: "auto",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    check: "none",
    timingOnly: true,
    dataSeed: 0,
    timingProfile: { format: "sdmakit-timing-profile", version: 1, archs: { [arch]: params } },
  };
}

describe("the leg memo", () => {
  it.each(RUNS)(
    "times %s %i ranks on %i nodes (%s) as planning each time does, at every parameter set",
    (arch, ranks, nodes, collective, sb2sb) => {
      const memo = new LegMemo();
      for (const scale of [1, 2]) {
        for (const size of [4096, 4 << 20]) {
          const r = run(arch, ranks, nodes, collective, sb2sb, scale);
          const planned = prepareSize(r, size);
          const replayed = prepareSize(r, size, { weigh: memo.weigh });
          expect(replayed.req.algorithm, `${scale} ${size}`).toBe(planned.req.algorithm);
          expect(replayed.timing, `${scale} ${size}`).toEqual(planned.timing);
        }
      }
    },
  );
  it("plans a request once, whatever the timing parameters, and weighs it as scheduleWeight does", () => {
    const memo = new LegMemo();
    const [a, b] = [1, 2].map(
      (scale) => prepareSize(run("trn2", 8, 1, "allg", false, scale), 1 << 20).candidates,
    );
    for (const [k, req] of a!.entries()) {
      const first = memo.weigh(req)!;
      const again = memo.weigh(b![k]!)!;
      expect(first.recorded?.complete).toBe(true);
      expect(again.recorded).toBe(first.recorded);
      expect(again.legs).toBe(scheduleWeight(req)!.legs);
    }
  });
});

describe("the leg memo's key", () => {
  it("tells apart groups of as many ranks, nodes and LNC on other places", () => {
    // Ranks 0..3 and 4..7 of a 2-node trn2 run of 8 on 4 each: the same counts, other places.
    const t = buildTopology(archProfile("trn2"), 8, 2, { lnc: 2 });
    const reqOf = (ranks: number[]) => ({
      topology: groupTopology(t, ranks),
      collective: "allr" as const,
      algorithm: "ring" as const,
      dtype: Dtype.BFLOAT16,
      op: "sum" as const,
      count: 4096,
    });
    const memo = new LegMemo();
    const [low, high] = [reqOf([0, 1, 2, 3]), reqOf([4, 5, 6, 7])].map((req) => memo.weigh(req)!.recorded);
    expect(low).toBeDefined();
    expect(high).toBeDefined();
    expect(high).not.toBe(low);
  });
});
