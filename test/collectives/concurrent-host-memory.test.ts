// The host-memory estimate of a concurrent run (replica groups, streams) on one shared device,
// against the pages the run allocates, and its refusal over the budget before anything is built.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import {
  admitConcurrentSize,
  concurrentHostEstimate,
  formatBytes,
  runConcurrentSize,
  type StreamRun,
} from "../../src/collectives/index.js";
import { Dtype } from "../../src/spec/index.js";
import { collectiveRun } from "../helpers/collective-run.js";

const all = [0, 1, 2, 3, 4, 5, 6, 7];

function streams(check: "exact" | "reference"): StreamRun[] {
  const budget = { hostBudget: { bytes: 2 ** 34, source: "test" } };
  return [
    { run: collectiveRun({ check, ...budget }), groups: [all.slice(0, 4), all.slice(4)] },
    { run: collectiveRun({ check, collective: "allg", dtype: Dtype.FP32, ...budget }), groups: [all] },
  ];
}

describe("a concurrent run's host-memory estimate", () => {
  for (const check of ["exact", "reference"] as const) {
    it(`holds the shared device's pages (${check})`, () => {
      const s = streams(check);
      const sizes = [64 << 10, 16 << 10];
      const est = concurrentHostEstimate(s, sizes);
      const r = runConcurrentSize(s, sizes);
      expect(r.every((x) => x.row.wrong === 0)).toBe(true);
      const got = r[0]?.pageBytes as number;
      expect(got).toBeGreaterThan(0);
      expect(est.pageBytes).toBeGreaterThanOrEqual(got);
      expect(est.deviceBytes).toBeGreaterThan(est.pageBytes);
      // The reference holds the largest group's buffers (4 ranks × 3 buffers of 64 KiB + inputs).
      expect(est.checkBytes).toBe(check === "reference" ? 4 * 4 * (64 << 10) : 0);
    });
  }

  it("refuses a step over the budget with the estimate and the budget", () => {
    const s = streams("exact").map((x) => ({
      ...x,
      run: { ...x.run, hostBudget: { bytes: 100 << 20, source: "--max-memory" } },
    }));
    const est = concurrentHostEstimate(s, [1 << 20, 1024]);
    expect(() => admitConcurrentSize(s, [1 << 20, 1024])).toThrow(UsageError);
    expect(() => admitConcurrentSize(s, [1 << 20, 1024])).toThrow(
      new RegExp(
        `2 streams \\(3 groups\\) on 8 ranks needs ≈ ${formatBytes(est.totalBytes)}.*budget is 100 MiB \\(--max-memory\\).*--timing-only`,
      ),
    );
    const timing = s.map((x) => ({ ...x, run: { ...x.run, timingOnly: true } }));
    expect(() => admitConcurrentSize(timing, [1 << 20, 1024])).not.toThrow();
  });
});
