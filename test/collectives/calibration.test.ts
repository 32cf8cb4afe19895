import { describe, expect, it } from "vitest";
import { bestAffine, fixedCostNeeded } from "../../tools/affine-bound.js";
import { allrR16Miss } from "../../tools/allr-r16-miss.js";
import { compare, geomeanError, guideTables, isTarget, MAPPINGS } from "../../tools/calibration.js";

// A deterministic accuracy test: the model against the nccom-test user guide's 2024+ runs and the
// bandwidth-bound rows (≥ 64 MiB) of its 2023 all-reduce tables (docs/TIMING.md shows the tables).
// The held-out public runs are not used here.
const targets = guideTables().filter(isTarget);

describe("calibration against nccom-test (test/data/nccom-test-user-guide.json)", () => {
  it("has the six calibration targets, each mapped onto a run", () => {
    expect(targets.map((t) => t.name)).toEqual([
      "sdk23-allr-r2-fp32",
      "sdk23-allr-r64-N2-fp32",
      "sdk25-allg-r32-fp32-ioSize",
      "sdk25-allg-r32-fp32-json",
      "sdk26-allg-r8-fp32-stats",
      "sdk26-allr-r16-fp32-algo",
    ]);
    for (const t of guideTables()) expect(MAPPINGS[t.name], t.name).toBeDefined();
  });
  for (const t of targets) {
    it(`${t.name}: geomean error ≤ 25 % (goal ≤ 10 %)`, () => {
      expect(geomeanError(compare(t))).toBeLessThanOrEqual(0.25);
    });
  }
  it("sdk26-allr-r16-fp32-algo: its 2 / 32 MiB rows a documented miss (docs/TIMING.md) that no fixed cost + size / bandwidth model can meet", () => {
    const miss = allrR16Miss();
    const rows = miss.model;
    // Why it is a known miss, pinned so that it is seen when the data or the model changes: the judged
    // rows (2, 32, 512 MiB) are concave in size, so the best α + size·u fit of them, over every α and
    // u, is 31 % off; with the RDH row exact, the KangaRing rows still need a fixed cost ≥ 0.85 ms —
    // ~100× the documented hop latencies our model (and every sourced mechanism tried) is built from.
    expect(miss.affine.error).toBeGreaterThan(0.3);
    expect(miss.kangaringFixedUs).toBeGreaterThan(850);
    for (const size of [2 << 20, 32 << 20]) {
      const row = rows.find((r) => r.size === size)!;
      expect(row.judged, `${size}`).toBe(false);
      expect(Math.abs(Math.log(row.modelUs / row.measuredUs)), `${size}`).toBeGreaterThan(Math.log(1.25));
    }
    for (const alt of miss.alternatives) expect(alt.error, alt.label).toBeGreaterThan(miss.affine.error);
  });
});

describe("the affine bound (tools/affine-bound.ts)", () => {
  it("finds an exact fit when the rows are fixed cost + size / bandwidth", () => {
    const rows = [1, 8, 64, 512].map((k) => ({ size: k << 20, us: 12 + (k << 20) / 50_000 }));
    const fit = bestAffine(rows);
    expect(fit.error).toBeLessThan(1e-3);
    expect(fit.fixedUs).toBeCloseTo(12, 0);
    expect(fit.bytesPerUs / 50_000).toBeCloseTo(1, 2);
    expect(fixedCostNeeded(rows, 1e-3)).toBeLessThanOrEqual(12);
  });
  it("is the same for sizes scaled by one factor (the half-size reading of the r16 table)", () => {
    const t = guideTables().find((x) => x.name === "sdk26-allr-r16-fp32-algo")!;
    const rows = t.rows.filter((r) => r.size >= 2 << 20).map((r) => ({ size: r.size, us: r.timeUs }));
    const scaled = rows.map((r) => ({ size: 2 * r.size, us: r.us }));
    expect(bestAffine(scaled).error).toBeCloseTo(bestAffine(rows).error, 3);
  });
  it("refuses rows it cannot fit, naming the value", () => {
    expect(() => bestAffine([])).toThrow(RangeError);
    expect(() => bestAffine([{ size: 0, us: 1 }])).toThrow(/size and us must be > 0/);
    expect(() => fixedCostNeeded([{ size: 1, us: 1 }], -1)).toThrow(/budget -1/);
  });
});
