/**
 * The timing model's numbers, pinned bit for bit (IEEE-754 bits of totalNs / timeUs, hex, big
 * endian) as the scheduler gave them before the timing-only speed work (issue 13): folding nodes,
 * reusing a repeating step's sharers, the touches cache, the typed-array tables and the candidate
 * pruning must not move a time by a bit. Regenerate only for a deliberate model change (and say so
 * in docs/FIDELITY.md).
 */
import { describe, expect, it } from "vitest";
import {
  type AlgorithmName,
  buildTopology,
  type CollectiveName,
  runSize,
  scheduleCollective,
} from "../../src/collectives/index.js";
import { type ArchName, archProfile } from "../../src/hal/index.js";
import type { Dtype } from "../../src/spec/index.js";

type Case = [
  ArchName,
  number,
  number,
  1 | 2,
  CollectiveName,
  AlgorithmName,
  number,
  number,
  boolean,
  boolean,
  string,
];

/** [arch, ranks, nodes, lnc, collective, algorithm, dtype, count, sr, sb2sb, totalNs bits]. */
const SCHEDULES: Case[] = [
  ["trn2", 64, 4, 2, "allr", "ring", 6, 262144, false, false, "4115e8fc00000000"],
  ["trn2", 64, 4, 2, "allr", "ring", 14, 263184, true, true, "41148f7cf8000000"],
  ["trn2", 64, 4, 2, "allr", "kangaring", 6, 262144, false, false, "4110bcc000000000"],
  ["trn2", 64, 4, 2, "allr", "kangaring", 14, 263184, true, true, "410d691ac0000000"],
  ["trn2", 64, 4, 2, "allr", "mesh", 6, 262144, false, false, "40f9ffd997962fc8"],
  ["trn2", 64, 4, 2, "allr", "mesh", 14, 263184, true, true, "40f2dc92b3b851eb"],
  ["trn2", 64, 4, 2, "redsct", "ring", 6, 262144, false, false, "4108880000000000"],
  ["trn2", 64, 4, 2, "redsct", "kangaring", 6, 262144, false, false, "410210a000000000"],
  ["trn2", 64, 4, 2, "redsct", "mesh", 6, 262144, false, false, "40f2f35d01666666"],
  ["trn2", 64, 4, 2, "allg", "ring", 6, 262144, false, false, "41045a0000000000"],
  ["trn2", 64, 4, 2, "allg", "kangaring", 6, 262144, false, false, "4100b96000000000"],
  ["trn2", 64, 4, 2, "allg", "mesh", 6, 262144, false, false, "40e1c497e4b17e4b"],
  ["trn2", 32, 2, 1, "allr", "ring", 6, 131072, false, false, "410592f800000000"],
  ["trn2", 32, 2, 1, "allr", "ring", 14, 131600, true, true, "410439b7f0000000"],
  ["trn2", 32, 2, 1, "allr", "kangaring", 6, 131072, false, false, "4100746000000000"],
  ["trn2", 32, 2, 1, "allr", "kangaring", 14, 131600, true, true, "40fce2ff80000000"],
  ["trn2", 32, 2, 1, "allr", "mesh", 6, 131072, false, false, "40f4eb5eb8888888"],
  ["trn2", 32, 2, 1, "allr", "mesh", 14, 131600, true, true, "40ee9fb84f6bd70b"],
  ["trn2", 32, 2, 1, "redsct", "ring", 6, 131072, false, false, "40f8ba0000000000"],
  ["trn2", 32, 2, 1, "redsct", "kangaring", 6, 131072, false, false, "40f2594000000000"],
  ["trn2", 32, 2, 1, "redsct", "mesh", 6, 131072, false, false, "40eff46147ae147b"],
  ["trn2", 32, 2, 1, "allg", "ring", 6, 131072, false, false, "40f48c0000000000"],
  ["trn2", 32, 2, 1, "allg", "kangaring", 6, 131072, false, false, "40f1308000000000"],
  ["trn2", 32, 2, 1, "allg", "mesh", 6, 131072, false, false, "40dba47e4b17e4b1"],
  ["trn1", 64, 4, 1, "allr", "ring", 6, 262144, false, false, "411859ecff65cc28"],
  ["trn1", 64, 4, 1, "allr", "ring", 14, 263184, true, true, "411677ba37cfcfe2"],
  ["trn1", 64, 4, 1, "allr", "kangaring", 6, 262144, false, false, "4111bfaf95fc62c4"],
  ["trn1", 64, 4, 1, "allr", "kangaring", 14, 263184, true, true, "4110592ca6666664"],
  ["trn1", 64, 4, 1, "allr", "mesh", 6, 262144, false, false, "4107dcde975f92c6"],
  ["trn1", 64, 4, 1, "allr", "mesh", 14, 263184, true, true, "40fd3534abd0369e"],
  ["trn1", 64, 4, 1, "redsct", "ring", 6, 262144, false, false, "410ba1d87878787f"],
  ["trn1", 64, 4, 1, "redsct", "kangaring", 6, 262144, false, false, "4104831c3c3c3c40"],
  ["trn1", 64, 4, 1, "redsct", "mesh", 6, 262144, false, false, "40ff10ba02cccccc"],
  ["trn1", 64, 4, 1, "allg", "ring", 6, 262144, false, false, "4105af1ef6f6f6f1"],
  ["trn1", 64, 4, 1, "allg", "kangaring", 6, 262144, false, false, "40ff1dc484848485"],
  ["trn1", 64, 4, 1, "allg", "mesh", 6, 262144, false, false, "40f139afc962fc96"],
  ["trn3", 48, 3, 2, "allr", "ring", 6, 196608, false, false, "410e19c1022c1015"],
  ["trn3", 48, 3, 2, "allr", "ring", 14, 197392, true, true, "410d856fe83e0f91"],
  ["trn3", 48, 3, 2, "allr", "kangaring", 6, 196608, false, false, "4105fe16528a652c"],
  ["trn3", 48, 3, 2, "allr", "kangaring", 14, 197392, true, true, "41051d66145d174b"],
  ["trn3", 48, 3, 2, "allr", "mesh", 6, 196608, false, false, "40fa10b5b5f5dd0b"],
  ["trn3", 48, 3, 2, "allr", "mesh", 14, 197392, true, true, "40f1e7c27bcce748"],
  ["trn3", 48, 3, 2, "redsct", "ring", 6, 196608, false, false, "40fff3f45d1745d8"],
  ["trn3", 48, 3, 2, "redsct", "kangaring", 6, 196608, false, false, "40f78dcb851eb855"],
  ["trn3", 48, 3, 2, "redsct", "mesh", 6, 196608, false, false, "40f44c1c28f5c290"],
  ["trn3", 48, 3, 2, "allg", "ring", 6, 196608, false, false, "40fe5d0b17e4b183"],
  ["trn3", 48, 3, 2, "allg", "kangaring", 6, 196608, false, false, "40f6c1dc013dc014"],
  ["trn3", 48, 3, 2, "allg", "mesh", 6, 196608, false, false, "40de84f227339d1e"],
  ["trn2", 16, 1, 2, "allr", "ring", 6, 65536, false, false, "40f09af000000000"],
  ["trn2", 16, 1, 2, "allr", "ring", 14, 65808, true, true, "40ee845bc0000000"],
  ["trn2", 16, 1, 2, "allr", "kangaring", 6, 65536, false, false, "40e6ac0000000000"],
  ["trn2", 16, 1, 2, "allr", "kangaring", 14, 65808, true, true, "40e2bfed80000000"],
  ["trn2", 16, 1, 2, "allr", "mesh", 6, 65536, false, false, "40d3143333333333"],
  ["trn2", 16, 1, 2, "allr", "mesh", 14, 65808, true, true, "40d3689e66666666"],
  ["trn2", 16, 1, 2, "redsct", "ring", 6, 65536, false, false, "40e4d20000000000"],
  ["trn2", 16, 1, 2, "redsct", "ring", 14, 65808, true, true, "40e2bb6298000000"],
  ["trn2", 16, 1, 2, "redsct", "kangaring", 6, 65536, false, false, "40dd3d0000000000"],
  ["trn2", 16, 1, 2, "redsct", "kangaring", 14, 65808, true, true, "40d99065f0000000"],
  ["trn2", 16, 1, 2, "redsct", "mesh", 6, 65536, false, false, "40cfda0000000000"],
  ["trn2", 16, 1, 2, "redsct", "mesh", 14, 65808, true, true, "40d086be80000000"],
  ["trn2", 16, 1, 2, "allg", "ring", 6, 65536, false, false, "40e0a40000000000"],
  ["trn2", 16, 1, 2, "allg", "ring", 14, 65808, true, true, "40dff0b14c000000"],
  ["trn2", 16, 1, 2, "allg", "kangaring", 6, 65536, false, false, "40da9f0000000000"],
  ["trn2", 16, 1, 2, "allg", "kangaring", 14, 65808, true, true, "40d515afa0000000"],
  ["trn2", 16, 1, 2, "allg", "mesh", 6, 65536, false, false, "40c6e86666666666"],
  ["trn2", 16, 1, 2, "allg", "mesh", 14, 65808, true, true, "40c5b6799999999a"],
];

/** [arch, ranks, nodes, collective, bytes, algorithm auto picks, timeUs bits] (timing-only, bf16 sum). */
const AUTO: [ArchName, number, number, CollectiveName, number, AlgorithmName, string][] = [
  ["trn2", 256, 16, "allr", 65536, "mesh", "404a2778c669057b"],
  ["trn2", 256, 16, "allr", 1073741824, "kangaring", "40d5c410e101c6b8"],
  ["trn2", 256, 16, "allg", 65536, "mesh", "4039f525460aa64e"],
  ["trn2", 256, 16, "allg", 1073741824, "ring", "40c17e2c9cbd8220"],
  ["trn1", 128, 8, "allr", 65536, "mesh", "405001f3d0a5966f"],
  ["trn1", 128, 8, "allr", 1073741824, "kangaring", "40f5a529fe16aa5d"],
  ["trn1", 128, 8, "allg", 65536, "mesh", "403b4d1d30da0436"],
  ["trn1", 128, 8, "allg", 1073741824, "ring", "40e17a6c9cbd8212"],
];

const bits = (x: number): string => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
};

describe("timing pinned bit for bit", () => {
  it.each(SCHEDULES)("%s %i ranks / %i nodes lnc %i %s %s dtype %i count %i sr %s sb2sb %s", (...c) => {
    const [arch, ranks, nodes, lnc, collective, algorithm, dtype, count, sr, sb2sb, want] = c;
    const topology = buildTopology(archProfile(arch), ranks, nodes, lnc);
    const req = { topology, collective, algorithm, dtype: dtype as Dtype, op: "sum" as const, count, sb2sb };
    expect(bits(scheduleCollective(req, { sr }).totalNs)).toBe(want);
  });

  it.each(AUTO)(
    "auto %s %i ranks / %i nodes %s %i B: %s",
    (arch, ranks, nodes, collective, size, algo, want) => {
      const r = runSize(
        {
          profile: archProfile(arch),
          ranks,
          nodes,
          collective,
          algorithm: "auto",
          dtype: 6 as Dtype,
          op: "sum",
          check: "none",
          timingOnly: true,
          dataSeed: 0,
        },
        size,
      );
      expect([r.row.algorithm, bits(r.row.timeUs)]).toEqual([algo, want]);
    },
  );
});
