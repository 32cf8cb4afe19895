// The library's front door from plain JavaScript: every wrong option is a FieldError naming the
// option (review N7's probes), and a run above the host budget — the library's default when none is
// given — is refused before any device is built (N5).
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import { collectiveRun, prepareSize, runCollective, sweep } from "../../src/collectives/index.js";

const base = { collective: "allr", ranks: 4, size: 4096 };

describe("library options", () => {
  it("wrong values from plain JavaScript are FieldErrors naming the option", () => {
    const probes: [Record<string, unknown>, RegExp][] = [
      [{ algorithm: "__proto__" }, /runCollective\(algorithm\): "__proto__" is out of range auto \| ring/],
      [{ algorithm: "constructor" }, /\(algorithm\)/],
      [{ op: "constructor" }, /\(op\): "constructor" is out of range sum \| max \| min \| avg/],
      [{ op: "prod" }, /\(op\)/],
      [{ op: 1 }, /\(op\)/],
      [{ check: "bogus" }, /\(check\): "bogus" is out of range exact \| reference \| none/],
      [{ sr: "no" }, /\(sr\): "no" is out of range true \| false/],
      [{ timingOnly: "yes" }, /\(timingOnly\)/],
      [{ size: -1 }, /\(size\): -1 is out of range: an integer 1\.\./],
      [{ size: 0 }, /\(size\)/],
      [{ size: 1.5 }, /\(size\)/],
      [{ hostBudget: {} }, /\(hostBudget\): "\{\}" is out of range \{ bytes/],
      [{ collective: "all_reduce" }, /\(collective\): "all_reduce" is out of range allr \| allg/],
      [{ arch: {} }, /\(arch\)/],
      [{ arch: 2 }, /\(arch\)/],
      [{ ranks: "8" }, /\(ranks\): "8" is out of range: an integer 1\.\.16384/],
      [{ lnc: 3 }, /\(lnc\)/],
      [{ factor: 1 }, /\(factor\)/],
      [{ rnaks: 8 }, /unknown option "rnaks"; did you mean "ranks"\?; expected one of collective, ranks/],
    ];
    for (const [wrong, why] of probes) {
      const call = () => runCollective({ ...base, ...wrong } as never);
      expect(call).toThrow(FieldError);
      expect(call).toThrow(why);
    }
  });

  it("own keys only: an inherited option, a missing collective, a non-object are refused", () => {
    const inherited = Object.assign(Object.create({ algorithm: "mesh" }), { collective: "allr" });
    expect(() => collectiveRun(inherited)).toThrow(/collectiveRun\(algorithm\): inherited/);
    expect(() => collectiveRun({} as never)).toThrow(/collectiveRun\(collective\): missing/);
    expect(() => collectiveRun(null as never)).toThrow(FieldError);
    expect(() => sweep({ collective: "allg", maxBytes: -4 }).next()).toThrow(/sweep\(maxBytes\)/);
  });

  it("a run above the default host budget is refused before a device is built (runCollective, sweep)", () => {
    const big = { collective: "allr", ranks: 8, size: 2 ** 30 } as const;
    const refused =
      /needs ≈ .* of host memory .*the budget is 4.00 GiB \(the library's default; give hostBudget\)/;
    expect(() => runCollective(big)).toThrow(refused);
    expect(() =>
      sweep({ collective: "allr", ranks: 8, minBytes: 2 ** 30, maxBytes: 2 ** 30 }).next(),
    ).toThrow(refused);
    // A budget of its own lifts the default (prepared only: admitted, nothing allocated).
    const lifted = collectiveRun({
      collective: "allr",
      ranks: 8,
      hostBudget: { bytes: Infinity, source: "test" },
    });
    expect(prepareSize(lifted, 2 ** 30).count).toBe(2 ** 29);
  });
});
