// The die boundary of a Trn2 / Trn3 chip (issue 25): which ranks' traffic crosses it, by the die
// the public driver's address map puts each core and HBM stack on, and what it costs (timing-params.ts
// `dieLinkBytesPerNs`, a MODEL figure: one die's share of the chip's HBM bandwidth, each way).
import { describe, expect, it } from "vitest";
import { checkTimingProfile, runCollective, shippedTiming } from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { coreDie, dieOf, hbmStackOf } from "../../src/spec/index.js";
import { compare, geomeanError, guideTables, isTarget, MAPPINGS } from "../../tools/calibration.js";

describe("the dies of a chip, from the address map", () => {
  it("Trn2 / Trn3: cores 0–3 and HBM stacks 0–1 on die 0, the rest on die 1; a core's stack on its die", () => {
    for (const arch of ["trn2", "trn3"]) {
      const p = archProfile(arch);
      const cores = Array.from({ length: p.neuronCores }, (_, c) => coreDie(p, c));
      expect(cores).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
      const stacks = p.addressMap.hbmStacks.map((s) => dieOf(p, s.base));
      expect(stacks).toEqual([0, 0, 1, 1]);
      for (let c = 0; c < p.neuronCores; c++) expect(stacks[hbmStackOf(p, c)]).toBe(cores[c]);
    }
  });
  it("Trn1 is one die; an address past the last die is refused with its value", () => {
    const trn1 = archProfile("trn1");
    expect([0, 1].map((c) => coreDie(trn1, c))).toEqual([0, 0]);
    expect(() => dieOf(archProfile("trn2"), 0x1_0000_0000_0000n)).toThrow(
      /dieOf\(addr\): \d+n is out of range 0\.\./,
    );
  });
});

/** A Trn2 permute's time (64 MiB a pair), shipped or with the die boundary at 50 B/ns. */
function permuteUs(ranks: number, pairs: readonly (readonly [number, number])[], narrow: boolean): number {
  return runCollective({
    collective: "permute",
    arch: "trn2",
    ranks,
    lnc: 1,
    size: 64 << 20,
    timingOnly: true,
    pairs,
    ...(narrow ? { timingProfile: dieAt(50) } : {}),
  }).row.timeUs;
}

/** A profile with the Trn2 die boundary at `bytesPerNs`. */
function dieAt(bytesPerNs: number) {
  return checkTimingProfile({
    format: "sdmakit-timing-profile",
    version: 1,
    archs: { trn2: { dieLinkBytesPerNs: bytesPerNs } },
  });
}

describe("which transfers cross the boundary (resources.ts)", () => {
  // LNC 1: ranks 0–3 on die 0, 4–7 on die 1; ranks 8–15 on the second chip.
  it("a transfer between the two dies of one chip; none on one die, none between chips", () => {
    expect(permuteUs(8, [[0, 4]], true)).toBeGreaterThan(2 * permuteUs(8, [[0, 4]], false));
    expect(permuteUs(8, [[0, 3]], true)).toBe(permuteUs(8, [[0, 3]], false));
    expect(permuteUs(16, [[0, 12]], true)).toBe(permuteUs(16, [[0, 12]], false));
  });
  it("each direction is its own: two transfers the same way share it, opposite ways do not", () => {
    const one = permuteUs(8, [[0, 4]], true);
    const opposite = permuteUs(
      8,
      [
        [0, 4],
        [5, 1],
      ],
      true,
    );
    const same = permuteUs(
      8,
      [
        [0, 4],
        [1, 5],
      ],
      true,
    );
    expect(opposite / one).toBeCloseTo(1, 2);
    expect(same / one).toBeGreaterThan(1.8);
  });
  it("LNC 2: logical cores 0–1 on die 0, 2–3 on die 1", () => {
    const lnc2 = (pairs: [number, number][], narrow: boolean) =>
      runCollective({
        collective: "permute",
        arch: "trn2",
        ranks: 4,
        size: 64 << 20,
        timingOnly: true,
        pairs,
        ...(narrow ? { timingProfile: dieAt(50) } : {}),
      }).row.timeUs;
    expect(lnc2([[0, 1]], true)).toBe(lnc2([[0, 1]], false));
    expect(lnc2([[1, 2]], true)).toBeGreaterThan(2 * lnc2([[1, 2]], false));
  });
});

describe("what the boundary costs", () => {
  /** A 64 MiB Trn2 all-reduce's time, shipped or with the boundary at `bytesPerNs`. */
  const time = (ranks: number, lnc: 1 | 2, bytesPerNs?: number) =>
    runCollective({
      collective: "allr",
      arch: "trn2",
      ranks,
      lnc,
      size: 64 << 20,
      timingOnly: true,
      ...(bytesPerNs === undefined ? {} : { timingProfile: dieAt(bytesPerNs) }),
    }).row.timeUs;
  it("one die's share of the chip's HBM, each way: Trn2 1450 B/ns, Trn3 2450; it binds none of these runs", () => {
    expect(shippedTiming("trn2").dieLinkBytesPerNs).toBe(1450);
    expect(shippedTiming("trn3").dieLinkBytesPerNs).toBe(2450);
    expect(time(8, 1)).toBe(time(8, 1, 1e9));
  });
  it("a collective spanning both dies slows when the boundary narrows; one on a single die does not", () => {
    expect(time(8, 1, 100)).toBeGreaterThan(1.5 * time(8, 1));
    expect(time(4, 2, 100)).toBeGreaterThan(1.5 * time(4, 2));
    expect(time(4, 1, 100)).toBe(time(4, 1));
    expect(time(2, 2, 100)).toBe(time(2, 2));
  });
  it("no calibration table pins it: the Trn2 tables' errors do not move even at a tenth of it", () => {
    const tenth = dieAt(shippedTiming("trn2").dieLinkBytesPerNs / 10);
    const trn2 = guideTables().filter((t) => isTarget(t) && MAPPINGS[t.name]?.arch === "trn2");
    expect(trn2.map((t) => t.name)).toEqual(["sdk26-allg-r8-fp32-stats", "sdk26-allr-r16-fp32-algo"]);
    for (const t of trn2) {
      expect(geomeanError(compare(t, MAPPINGS[t.name], tenth)), t.name).toBe(geomeanError(compare(t)));
    }
  });
});
