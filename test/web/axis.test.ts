/** The explorer's axis arithmetic (web/src/axis.ts): tick labels and the size axis's span. */
import { describe, expect, it } from "vitest";
import { log2Span, niceStep, tickLabel } from "../../web/src/axis.js";

describe("plot axes", () => {
  it("labels each tick with the decimals its step needs, so no two ticks read the same", () => {
    // The empty plot's axis: 0 … 0.011 GB/s in steps of 0.005 once read "0, 0.01, 0.01".
    const step = niceStep(0.011, 5);
    expect(step).toBe(0.005);
    expect([0, 1, 2].map((k) => tickLabel(k * step, step))).toEqual(["0", "0.005", "0.01"]);
    expect([0, 1, 2].map((k) => tickLabel(k * 20, 20))).toEqual(["0", "20", "40"]);
    expect(tickLabel(0.1 + 0.2, 0.1)).toBe("0.3");
  });

  it("puts a single size mid-axis, an octave either side; spans several sizes edge to edge", () => {
    expect(log2Span([4 << 20])).toEqual({ lo: 21, hi: 23 });
    expect(log2Span([8, 1024])).toEqual({ lo: 3, hi: 10 });
    expect(log2Span([])).toEqual({ lo: 3, hi: 10 });
  });
});
