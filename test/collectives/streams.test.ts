/**
 * The front door's replica groups and streams (nccom-test --custom-replica-groups,
 * --data-parallel-dimension, --streams-json): what runCollective / sweep take, checked, and the
 * typed errors naming the field.
 */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import { dataParallelGroups, runCollective, sweep } from "../../src/collectives/index.js";

describe("replica groups and streams in runCollective / sweep", () => {
  it("--data-parallel-dimension groups are strided: one rank per node when D is the node count", () => {
    expect(dataParallelGroups(8, 2)).toEqual([
      [0, 4],
      [1, 5],
      [2, 6],
      [3, 7],
    ]);
  });

  it("runCollective over replica groups: every group checked, bus factor of the group", () => {
    const r = runCollective({ collective: "allr", ranks: 4, dataParallelDimension: 2, size: 4096 });
    expect(r.row.wrong).toBe(0);
    expect(r.row.busbw).toBeCloseTo(r.row.algbw * 1, 12); // 2(n−1)/n with n = 2
    const whole = runCollective({ collective: "allr", ranks: 4, size: 4096 });
    expect(whole.row.busbw).toBeCloseTo(whole.row.algbw * 1.5, 12);
  });

  it("sweep with streams: a result per stream per step; a shorter stream repeats its last size", () => {
    const results = [
      ...sweep({
        collective: "allr",
        ranks: 4,
        streams: [
          {
            collective: "allr",
            minBytes: 1024,
            maxBytes: 4096,
            replicaGroups: [
              [0, 1],
              [2, 3],
            ],
          },
          { collective: "allg", dtype: "fp32", minBytes: 1024, maxBytes: 1024 },
        ],
      }),
    ];
    expect(results.map((r) => [r.stream, r.row.size])).toEqual([
      [0, 1024],
      [1, 1024],
      [0, 2048],
      [1, 1024],
      [0, 4096],
      [1, 1024],
    ]);
    expect(results.every((r) => r.row.wrong === 0 && r.row.guardErrors === 0)).toBe(true);
    expect(results[1]?.row.type).toBe("fp32");
  });

  it("bad groups and streams are typed errors naming the field", () => {
    const bad = (options: Parameters<typeof runCollective>[0], message: RegExp) => {
      expect(() => runCollective({ ...options, timingOnly: true })).toThrow(UsageError);
      expect(() => runCollective({ ...options, timingOnly: true })).toThrow(message);
    };
    bad(
      {
        collective: "allr",
        ranks: 4,
        replicaGroups: [
          [0, 1],
          [1, 2],
        ],
      },
      /replicaGroups\[1\]: rank 1 is in group 0/,
    );
    bad({ collective: "allr", ranks: 4, replicaGroups: [[0, 1], [2]] }, /replicaGroups\[1\]: 1 ranks/);
    bad(
      { collective: "allr", ranks: 4, replicaGroups: [[0, 9]] },
      /replicaGroups\[0\]\[1\] 9: expected a rank 0\.\.3/,
    );
    bad({ collective: "allr", ranks: 4, dataParallelDimension: 3 }, /dataParallelDimension 3/);
    bad(
      { collective: "allr", ranks: 4, dataParallelDimension: 2, replicaGroups: [[0]] },
      /give one of the two/,
    );
    const streams = [{ collective: "allreduce" }] as unknown as [];
    bad({ collective: "allr", ranks: 4, streams }, /streams\[0\]\.collective "allreduce": expected one of/);
    bad(
      { collective: "allr", ranks: 4, streams: [{ collective: "allg", dtype: "bf61" }] },
      /^streams\[0\]: /,
    );
  });
});
