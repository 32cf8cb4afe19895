// Large collectives on the engine: the 64 MiB end of issue 8's --check matrix and the largest
// timing-only run. The slowest file of `npm test` (a few minutes on a 2-core machine), in its own
// file so a layer's tests can be run without it: npx vitest run test/collectives --exclude '**/large*'
import { describe, expect, it } from "vitest";
import { type CollectiveRun, runSize } from "../../src/collectives/index.js";
import { smallRun } from "../helpers/collective-run.js";

const spec: CollectiveRun = smallRun({ ranks: 8, dataSeed: 2 });

describe("large", () => {
  it("8-rank bf16 all-reduce: 0 wrong, guards intact, same time as timing-only", () => {
    const full = runSize(spec, 64 << 20).row;
    expect(full.wrong).toBe(0);
    expect(full.guardErrors).toBe(0);
    expect(runSize({ ...spec, timingOnly: true }, 64 << 20).row.timeUs).toBe(full.timeUs);
  }, 600_000);
  it("timing-only 512 ranks on 32 nodes at 1 GiB, every algorithm (auto): 16.7 M ring legs streamed", () => {
    const r = runSize(
      { ...spec, ranks: 512, nodes: 32, algorithm: "auto", check: "none", timingOnly: true },
      1 << 30,
    );
    expect(r.row.timeUs).toBeGreaterThan(0);
    expect(Object.values(r.legKinds).reduce((a, b) => a + b, 0)).toBeGreaterThan(1e6);
  }, 600_000);
});
