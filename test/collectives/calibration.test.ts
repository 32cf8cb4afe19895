import { describe, expect, it } from "vitest";
import { compare, geomeanError, guideTables, isTarget, MAPPINGS } from "../../tools/calibration.js";

// A deterministic accuracy test: the model against the nccom-test user guide's 2024+ runs
// (docs/TIMING.md shows the tables). The held-out public runs are not used here.
const targets = guideTables().filter(isTarget);

describe("calibration against nccom-test (test/data/nccom-test-user-guide.json)", () => {
  it("has the four calibration targets, each mapped onto a run", () => {
    expect(targets.map((t) => t.name)).toEqual([
      "sdk25-allg-r32-fp32-ioSize",
      "sdk25-allg-r32-fp32-json",
      "sdk26-allg-r8-fp32-stats",
      "sdk26-allr-r16-fp32-algo",
    ]);
    for (const t of guideTables()) expect(MAPPINGS[t.name], t.name).toBeDefined();
  });
  for (const t of targets) {
    if (t.name === "sdk26-allr-r16-fp32-algo") continue;
    it(`${t.name}: geomean error ≤ 25 % (goal ≤ 10 %)`, () => {
      expect(geomeanError(compare(t))).toBeLessThanOrEqual(0.25);
    });
  }
  it("sdk26-allr-r16-fp32-algo: the 512 MiB plateau within 25 %; the 2 and 32 MiB rows NOT met (see docs/TIMING.md)", () => {
    const rows = compare(targets.find((t) => t.name === "sdk26-allr-r16-fp32-algo")!);
    const plateau = rows.find((r) => r.size === 512 << 20)!;
    expect(Math.abs(Math.log(plateau.modelUs / plateau.measuredUs))).toBeLessThanOrEqual(Math.log(1.25));
    // Known miss, pinned so that it is seen when it changes: the same table's flat ~300 µs below
    // 2 MiB is unexplained and its 2 / 32 MiB rows sit 0.4–2.1 ms above any consistent floor.
    expect(geomeanError(rows)).toBeGreaterThan(0.25);
  });
});
