// The sensitivity section of docs/TIMING.md (tools/timing-sensitivity.ts), on a made-up table: which
// parameter pins a table, and per table which mechanism sets its floor and its plateau.
import { describe, expect, it } from "vitest";
import { TIMING_PARAMETERS, type TimingKey } from "../../src/collectives/index.js";
import { sensitivityMarkdown, type TableSensitivity } from "../../tools/timing-sensitivity.js";

/** Every parameter at `value` for both moves, but `key` at `moved`. */
function each(value: number, key: TimingKey, moved: readonly number[]) {
  return Object.fromEntries(
    TIMING_PARAMETERS.map((p) => [p.key, p.key === key ? moved : [value, value]]),
  ) as Record<TimingKey, readonly number[]>;
}

describe("the sensitivity section (tools/timing-sensitivity.ts)", () => {
  const table: TableSensitivity = {
    table: "made-up",
    target: true,
    baseError: 0.1,
    error: each(0.1, "chipLinkBytesPerNs", [0.05, 0.2]),
    floor: each(0, "launchNs", [-0.1, 0.1]),
    plateau: each(0, "dieLinkBytesPerNs", [0.2, 0]),
  };
  const md = sensitivityMarkdown([table]).join("\n");
  it("bolds the parameter that moves the table's error, and has a row for every parameter", () => {
    expect(md).toContain("| chipLinkBytesPerNs | **5.0 / 20.0** |");
    expect(md).toContain("| dieLinkBytesPerNs | 10.0 / 10.0 |");
    for (const p of TIMING_PARAMETERS) expect(md).toContain(`| ${p.key} |`);
  });
  it("names, per table, what sets its floor and its plateau with the mechanism's FIDELITY row", () => {
    expect(md).toContain("| made-up | launchNs (Launch) 11 % | dieLinkBytesPerNs (Die boundary) 22 % |");
  });
});
