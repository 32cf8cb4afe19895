import { describe, expect, it } from "vitest";
import {
  buildTopology,
  type CollectiveName,
  type CollectiveRun,
  defaultLnc,
  maxDeviceRanks,
  runSize,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { collectiveRun } from "../helpers/collective-run.js";

const run = (over: Partial<CollectiveRun>): CollectiveRun =>
  collectiveRun({ ranks: 4, dataSeed: 3, ...over });

describe("logical NeuronCores (--lnc)", () => {
  it("defaults as nccom-test: Trn1 1, Trn2 / Trn3 2; LNC 2 only where the arch has LNC pairs", () => {
    expect(defaultLnc(archProfile("trn1"))).toBe(1);
    expect(defaultLnc(archProfile("trn2"))).toBe(2);
    expect(defaultLnc(archProfile("trn3"))).toBe(2);
    expect(() => buildTopology(archProfile("trn1"), 2, 1, { lnc: 2 })).toThrow(/lnc 2: trn1 allows 1/);
    expect(() => buildTopology(archProfile("trn2"), 2, 1, { lnc: 3 })).toThrow(/lnc 3: trn2 allows 1 or 2/);
  });
  it("an LNC 2 rank is two physical cores: 4 ranks a Trn2 chip, 64 a node, 32 DMA channels a rank", () => {
    const t = buildTopology(archProfile("trn2"), 8, 1, { lnc: 2 });
    expect(t.places[4]).toEqual({ node: 0, chip: 1, core: 0 });
    expect(t.channelsPerRank).toBe(32);
    expect(buildTopology(archProfile("trn2"), 8, 1, { lnc: 1 }).places[4]).toEqual({
      node: 0,
      chip: 0,
      core: 4,
    });
    expect(() => buildTopology(archProfile("trn2"), 65, 1, { lnc: 2 })).toThrow(/LNC 2 has 16 chips × 4/);
    expect(maxDeviceRanks(archProfile("trn2"), 2)).toBe(64);
  });
  it("checked runs give 0 wrong at LNC 1 and 2 on all four collectives, and LNC 2 uses the second core's queues", () => {
    for (const lnc of [1, 2] as const) {
      for (const collective of ["allr", "allg", "redsct", "sendrecv"] as CollectiveName[]) {
        const r = runSize(run({ lnc, collective, ranks: 4, algorithm: "ring" }), 1 << 20);
        expect(r.row.wrong, `${collective} lnc ${lnc}`).toBe(0);
        expect(r.row.guardErrors).toBe(0);
        const top = Math.max(...r.plan.legs.map((l) => l.queue));
        expect(top >= 16, `${collective} lnc ${lnc}: highest channel ${top}`).toBe(lnc === 2);
      }
    }
  });
});
