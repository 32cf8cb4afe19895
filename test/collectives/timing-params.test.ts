import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ARCH_WIRING,
  buildTopology,
  checkTimingProfile,
  parseTimingProfile,
  resolveTiming,
  runCollective,
  shippedTiming,
  TIMING_PARAMETERS,
} from "../../src/collectives/index.js";
import { archProfile, CAYMAN, MARIANA, SUNDA } from "../../src/hal/index.js";

const PROFILES = [SUNDA, CAYMAN, MARIANA];

import { guideTables, isTarget, MAPPINGS } from "../../tools/calibration.js";

// Every parameter of the timing model has a source or a named fit, one row in docs/FIDELITY.md,
// and nothing scales with LNC or the rank count (issue 25).
const fidelity = readFileSync(new URL("../../docs/FIDELITY.md", import.meta.url), "utf8");
const timingSection = fidelity.slice(fidelity.indexOf("### Collective timing parameters"));

describe("the timing parameter registry (timing-params.ts)", () => {
  it("lists every parameter the model reads, once", () => {
    const keys = TIMING_PARAMETERS.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(Object.keys(shippedTiming("trn2")).sort());
  });
  const targets = new Map(
    guideTables()
      .filter(isTarget)
      .map((t) => [t.name, t]),
  );
  for (const p of TIMING_PARAMETERS) {
    it(`${p.key}: a source or a named fit, and its row in docs/FIDELITY.md`, () => {
      expect(p.source.text.length, "source text").toBeGreaterThan(0);
      expect(timingSection).toContain(`| ${p.fidelityRow} |`);
      if (p.source.kind === "fitted") {
        expect(p.free, "a fitted parameter is free").toBe(true);
        // Named calibration tables, and never a single row.
        let rows = 0;
        for (const name of p.source.tables) {
          const t = targets.get(name);
          expect(t, `${name} is a calibration target`).toBeDefined();
          rows += t!.rows.filter((r) => r.size >= (MAPPINGS[name]?.minSize ?? 0)).length;
        }
        expect(rows).toBeGreaterThan(1);
      }
      const values = PROFILES.map((a) => shippedTiming(a.name)[p.key]);
      if (new Set(values).size > 1) expect(p.perArch, "why it differs by arch").toBeTruthy();
    });
  }
  it("no parameter depends on LNC, the rank count or the node count", () => {
    for (const a of PROFILES) {
      const base = buildTopology(a, 2, 1, { lnc: 1 }).timing;
      expect(base).toEqual(shippedTiming(a.name));
      const lncs = a.hasSb2sb ? [1, 2] : [1];
      for (const lnc of lncs)
        for (const [ranks, nodes] of [
          [8, 1],
          [32, 1],
          [64, 2],
        ] as const)
          expect(
            buildTopology(a, ranks, nodes, { lnc }).timing,
            `${a.name} lnc ${lnc} ${ranks}/${nodes}`,
          ).toEqual(base);
    }
  });
  it("a topology's links carry the parameters, and an override replaces one alone", () => {
    const t = buildTopology(archProfile("trn2"), 8, 1, { lnc: 2, timing: { hopChipToChipNs: 3000 } });
    expect(t.links.links["chip-to-chip"].latencyNs).toBe(3000);
    expect(t.timing).toEqual(resolveTiming("trn2", { hopChipToChipNs: 3000 }));
  });
  it("the link figures live in one place: the wiring has none, the HAL profile has none", () => {
    // Issue 28: the profile's chip-to-chip figure and links.ts' bandwidths and latencies were twins
    // that a topology never read (and had drifted: 320 vs 128 B/ns a Trn2 link).
    for (const a of PROFILES) {
      expect(Object.keys(ARCH_WIRING[a.name]).sort()).toEqual(["chipNetwork", "chipsPerNode", "nicsPerNode"]);
      expect(Object.keys(a).filter((k) => /chipToChip|link|nic|hop/i.test(k))).toEqual([]);
      const p = shippedTiming(a.name);
      expect(buildTopology(a, 2, 1, { lnc: 1 }).links.links).toEqual({
        "intra-chip": { bytesPerNs: p.hbmBytesPerNs, latencyNs: p.hopIntraChipNs },
        "chip-to-chip": { bytesPerNs: p.chipLinkBytesPerNs, latencyNs: p.hopChipToChipNs },
        "node-to-node": { bytesPerNs: p.nicBytesPerNs, latencyNs: p.hopNodeToNodeNs },
      });
    }
  });
});

describe("timing profiles (timing-profile.ts)", () => {
  const good = { format: "sdmakit-timing-profile", version: 1, archs: { trn2: { launchNs: 9000 } } };
  it("moves the time by its parameters, and only on its arch", () => {
    const run = { collective: "allg", ranks: 8, timingOnly: true, size: 1024 } as const;
    const base = runCollective(run).row.timeUs;
    const moved = runCollective({ ...run, timingProfile: checkTimingProfile(good) }).row.timeUs;
    expect(moved - base).toBeCloseTo((9000 - shippedTiming("trn2").launchNs) / 1000, 6);
    const trn1 = { ...run, arch: "trn1", ranks: 2 } as const;
    expect(runCollective({ ...trn1, timingProfile: checkTimingProfile(good) }).row.timeUs).toBe(
      runCollective(trn1).row.timeUs,
    );
  });
  it("refuses a bad file with the field, its value and the range", () => {
    const cases: [unknown, RegExp][] = [
      [{ ...good, format: "x" }, /format "x": expected "sdmakit-timing-profile"/],
      [{ ...good, version: 2 }, /version 2: expected 1/],
      [{ ...good, archs: { trn9: {} } }, /archs\.trn9 \{\}: expected an arch name/],
      [{ ...good, archs: { trn2: { launchNs: -1 } } }, /archs\.trn2\.launchNs -1: expected a number 0\.\./],
      [
        { ...good, archs: { trn2: { nicBytesPerNs: 0 } } },
        /archs\.trn2\.nicBytesPerNs 0: expected a number > 0/,
      ],
      [{ ...good, archs: { trn2: { launch: 1 } } }, /archs\.trn2\.launch 1: expected one of launchNs/],
      [{ ...good, extra: 1 }, /extra 1: expected no such field/],
      [[], /the document \[\]: expected a JSON object/],
    ];
    for (const [v, re] of cases) expect(() => checkTimingProfile(v, "p.json")).toThrow(re);
    expect(() => parseTimingProfile("{", "p.json")).toThrow(/p\.json: not JSON/);
    expect(() => runCollective({ collective: "allg", timingProfile: 3 as never })).toThrow(/timingProfile/);
  });
});
