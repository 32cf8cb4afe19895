// The library front door: runCollective and sweep with defaults from one table (the CLI's too).
import { describe, expect, it } from "vitest";
import { COLLECTIVE_DEFAULTS, collectiveRun, runCollective, sweep } from "../../src/collectives/index.js";
import { decode, encode } from "../../src/index.js";
import { Dtype } from "../../src/spec/index.js";

describe("runCollective / sweep", () => {
  it("runCollective({ collective, ranks }) fills every other setting from COLLECTIVE_DEFAULTS", () => {
    const run = collectiveRun({ collective: "allr", ranks: 8 });
    expect(run).toMatchObject({
      nodes: 1,
      algorithm: "auto",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      check: "exact",
    });
    expect(run.profile.name).toBe(COLLECTIVE_DEFAULTS.arch);
    const r = runCollective({ collective: "allr", ranks: 8, size: 4096 });
    expect(r.row).toMatchObject({ size: 4096, count: 2048, type: "bf16", wrong: 0, guardErrors: 0 });
    expect(r).not.toHaveProperty("machine");
  });
  it("sweep yields one result per size, lazily, in order", () => {
    const it = sweep({ collective: "allg", ranks: 4, minBytes: 64, maxBytes: 256, timingOnly: true });
    const first = it.next();
    expect(first.value?.row.size).toBe(64);
    expect([...it].map((r) => r.row.size)).toEqual([128, 256]);
  });
  it("refuses a bad seed and a sweep past the cap", () => {
    expect(() => collectiveRun({ collective: "allr", seed: -1 })).toThrow(
      /collectiveRun\(seed\): -1 is out of range: an integer 0\.\.4294967295/,
    );
    // In the library's own option names: the CLI's flags are the CLI's (cli/sizes.ts).
    expect(() => [...sweep({ collective: "allr", minBytes: 8, maxBytes: 2 ** 30, step: 8 })]).toThrow(
      /^minBytes 8 maxBytes 1073741824 step 8: more than 1000 sizes; use a larger factor or step/,
    );
    expect(() => [...sweep({ collective: "allr", minBytes: 64, maxBytes: 8 })]).toThrow(
      /^minBytes 64 is larger than maxBytes 8$/,
    );
  });
  it("encode / decode by layout name round-trip", () => {
    const bytes = encode("fma-desc", { a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 });
    expect(decode("fma-desc", bytes)).toMatchObject({ a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 });
    expect(() => decode("nope", bytes)).toThrow(/unknown layout "nope"/);
  });
});
