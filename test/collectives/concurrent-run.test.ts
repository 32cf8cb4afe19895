/**
 * Replica groups and streams end to end: every group of every stream on one simulated device,
 * each checked element by element (0 wrong, no guard byte touched), timed together.
 */
import { describe, expect, it } from "vitest";
import { runConcurrentSize, type StreamRun } from "../../src/collectives/index.js";
import { Dtype } from "../../src/spec/index.js";
import { collectiveRun } from "../helpers/collective-run.js";

const run4 = collectiveRun({ ranks: 4, algorithm: "ring", dataSeed: 5 });

describe("concurrent runs on one device", () => {
  it("two replica groups of an all-reduce: each checked, 0 wrong", () => {
    const s: StreamRun = {
      run: run4,
      groups: [
        [0, 1],
        [2, 3],
      ],
    };
    const [r] = runConcurrentSize([s], [65536]);
    expect(r?.row.wrong).toBe(0);
    expect(r?.row.guardErrors).toBe(0);
    expect(r?.groupTimesUs).toHaveLength(2);
    expect(r?.row.count).toBe(32768);
  });

  it("two streams over the same ranks, different collectives and dtypes: 0 wrong each", () => {
    const a: StreamRun = { run: run4, groups: [[0, 1, 2, 3]] };
    const b: StreamRun = {
      run: { ...run4, collective: "allg", dtype: Dtype.FP32, algorithm: "auto" },
      groups: [[0, 1, 2, 3]],
    };
    const rows = runConcurrentSize([a, b], [8192, 4096]).map((r) => r.row);
    expect(rows.map((r) => r.wrong)).toEqual([0, 0]);
    expect(rows.map((r) => r.guardErrors)).toEqual([0, 0]);
    expect(rows[1]?.type).toBe("fp32");
  });

  it("with the scalar reference and SR: 0 wrong", () => {
    const s: StreamRun = {
      run: { ...run4, check: "reference", srSeed: 9 },
      groups: [
        [0, 2],
        [1, 3],
      ],
    };
    const [r] = runConcurrentSize([s], [4096]);
    expect(r?.check).toBe("reference");
    expect(r?.row.wrong).toBe(0);
  });

  it("timing-only gives the functional run's times", () => {
    const s: StreamRun = {
      run: run4,
      groups: [
        [0, 1],
        [2, 3],
      ],
    };
    const full = runConcurrentSize([s], [65536])[0]?.row.timeUs;
    const timing = runConcurrentSize(
      [{ ...s, run: { ...run4, timingOnly: true, check: "none" } }],
      [65536],
    )[0];
    expect(timing?.row.timeUs).toBe(full);
    expect(timing?.row.wrong).toBe(-1);
  });
});
