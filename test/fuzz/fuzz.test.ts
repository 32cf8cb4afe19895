/**
 * The fuzz suite in `npm test` (issue 16 item 7): every target on a short, fixed budget of cases
 * (counts, never a clock) from a fixed seed. `npm run fuzz` runs the same targets for longer.
 */
import { describe, expect, it } from "vitest";
import { TARGETS } from "./targets/index.js";

/** Cases per target in npm test: a few seconds each on the shared 2-core machine. */
const BUDGET: Readonly<Record<string, number>> = {
  decode: 3000,
  validators: 2000,
  "engine-chains": 600,
  hal: 3000,
  "cli-args": 80,
};

describe("fuzz (short budget)", () => {
  for (const t of TARGETS) {
    it(`${t.name}: ${BUDGET[t.name]} cases`, async () => {
      const r = await t.run(16, BUDGET[t.name] ?? 100);
      expect(r.failures).toEqual([]);
      expect(r.cases).toBe(BUDGET[t.name]);
    });
  }

  it("every target has a budget", () => {
    expect(TARGETS.map((t) => t.name).sort()).toEqual(Object.keys(BUDGET).sort());
  });
});
