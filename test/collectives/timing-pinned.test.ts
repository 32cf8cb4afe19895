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
  ["trn2", 64, 4, 2, "allr", "ring", 6, 262144, false, false, "41523c0f80000000"],
  ["trn2", 64, 4, 2, "allr", "ring", 14, 263184, true, true, "41521f268e400000"],
  ["trn2", 64, 4, 2, "allr", "kangaring", 6, 262144, false, false, "41427ba000000000"],
  ["trn2", 64, 4, 2, "allr", "kangaring", 14, 263184, true, true, "41427d8e53000000"],
  ["trn2", 64, 4, 2, "allr", "mesh", 6, 262144, false, false, "410e7fc06bf0a3d8"],
  ["trn2", 64, 4, 2, "allr", "mesh", 14, 263184, true, true, "41072cac709eb852"],
  ["trn2", 64, 4, 2, "redsct", "ring", 6, 262144, false, false, "414293d300000000"],
  ["trn2", 64, 4, 2, "redsct", "kangaring", 6, 262144, false, false, "4132cf6600000000"],
  ["trn2", 64, 4, 2, "redsct", "mesh", 6, 262144, false, false, "41002f58bddc28f6"],
  ["trn2", 64, 4, 2, "allg", "ring", 6, 262144, false, false, "4142102a00000000"],
  ["trn2", 64, 4, 2, "allg", "kangaring", 6, 262144, false, false, "413278c600000000"],
  ["trn2", 64, 4, 2, "allg", "mesh", 6, 262144, false, false, "40fe359eb851eb85"],
  ["trn2", 32, 2, 1, "allr", "ring", 6, 131072, false, false, "4142083f00000000"],
  ["trn2", 32, 2, 1, "allr", "ring", 14, 131600, true, true, "4141eb6f0c800000"],
  ["trn2", 32, 2, 1, "allr", "kangaring", 6, 131072, false, false, "4132154000000000"],
  ["trn2", 32, 2, 1, "allr", "kangaring", 14, 131600, true, true, "4132161fa6000000"],
  ["trn2", 32, 2, 1, "allr", "mesh", 6, 131072, false, false, "410317b8521ccccd"],
  ["trn2", 32, 2, 1, "allr", "mesh", 14, 131600, true, true, "40f9f60cc2ce147b"],
  ["trn2", 32, 2, 1, "redsct", "ring", 6, 131072, false, false, "413274e600000000"],
  ["trn2", 32, 2, 1, "redsct", "kangaring", 6, 131072, false, false, "4122918c00000000"],
  ["trn2", 32, 2, 1, "redsct", "mesh", 6, 131072, false, false, "40f40df0a3d70a3e"],
  ["trn2", 32, 2, 1, "allg", "ring", 6, 131072, false, false, "4131f35400000000"],
  ["trn2", 32, 2, 1, "allg", "kangaring", 6, 131072, false, false, "41223acc00000000"],
  ["trn2", 32, 2, 1, "allg", "mesh", 6, 131072, false, false, "40f3ba7851eb851f"],
  ["trn1", 64, 4, 1, "allr", "ring", 6, 262144, false, false, "4153352743c3c3db"],
  ["trn1", 64, 4, 1, "allr", "ring", 14, 263184, true, true, "41531317970b4b52"],
  ["trn1", 64, 4, 1, "allr", "kangaring", 6, 262144, false, false, "4143d70ac3c3c3d8"],
  ["trn1", 64, 4, 1, "allr", "kangaring", 14, 263184, true, true, "4143ad8d86e1e1fb"],
  ["trn1", 64, 4, 1, "allr", "mesh", 6, 262144, false, false, "4118b0ad6b216e3b"],
  ["trn1", 64, 4, 1, "allr", "mesh", 14, 263184, true, true, "410e2ce680268cf4"],
  ["trn1", 64, 4, 1, "redsct", "ring", 6, 262144, false, false, "41442157d2d2d2c7"],
  ["trn1", 64, 4, 1, "redsct", "kangaring", 6, 262144, false, false, "41346f281e1e1e1c"],
  ["trn1", 64, 4, 1, "redsct", "mesh", 6, 262144, false, false, "410684817bb851eb"],
  ["trn1", 64, 4, 1, "allg", "ring", 6, 262144, false, false, "41426b01b4b4b4ba"],
  ["trn1", 64, 4, 1, "allg", "kangaring", 6, 262144, false, false, "413379014b4b4b45"],
  ["trn1", 64, 4, 1, "allg", "mesh", 6, 262144, false, false, "410af41fa942dc76"],
  ["trn3", 48, 3, 2, "allr", "ring", 6, 196608, false, false, "414ae3c92e8ba2e0"],
  ["trn3", 48, 3, 2, "allr", "ring", 14, 197392, true, true, "414ae67cc4707c37"],
  ["trn3", 48, 3, 2, "allr", "kangaring", 6, 196608, false, false, "413ab98cba2e8bb4"],
  ["trn3", 48, 3, 2, "allr", "kangaring", 14, 197392, true, true, "413b40c8eeb26ca2"],
  ["trn3", 48, 3, 2, "allr", "mesh", 6, 196608, false, false, "41082289698d3018"],
  ["trn3", 48, 3, 2, "allr", "mesh", 14, 197392, true, true, "4100c4fb46d4de2e"],
  ["trn3", 48, 3, 2, "redsct", "ring", 6, 196608, false, false, "413b28ba3e0f83ec"],
  ["trn3", 48, 3, 2, "redsct", "kangaring", 6, 196608, false, false, "412b219d364d936a"],
  ["trn3", 48, 3, 2, "redsct", "mesh", 6, 196608, false, false, "40fcb49c28f5c290"],
  ["trn3", 48, 3, 2, "allg", "ring", 6, 196608, false, false, "413af6941f07c1e9"],
  ["trn3", 48, 3, 2, "allg", "kangaring", 6, 196608, false, false, "412af425f07c1f02"],
  ["trn3", 48, 3, 2, "allg", "mesh", 6, 196608, false, false, "40f52c19a6f16a6f"],
  ["trn2", 16, 1, 2, "allr", "ring", 6, 65536, false, false, "40f56cf000000000"],
  ["trn2", 16, 1, 2, "allr", "ring", 14, 65808, true, true, "40f67ecde0000000"],
  ["trn2", 16, 1, 2, "allr", "kangaring", 6, 65536, false, false, "40ec4f4000000000"],
  ["trn2", 16, 1, 2, "allr", "kangaring", 14, 65808, true, true, "40ecb0a300000000"],
  ["trn2", 16, 1, 2, "allr", "mesh", 6, 65536, false, false, "40d483c000000000"],
  ["trn2", 16, 1, 2, "allr", "mesh", 14, 65808, true, true, "40d5e8b800000000"],
  ["trn2", 16, 1, 2, "redsct", "ring", 6, 65536, false, false, "40e9a0c000000000"],
  ["trn2", 16, 1, 2, "redsct", "ring", 14, 65808, true, true, "40ec520298000000"],
  ["trn2", 16, 1, 2, "redsct", "kangaring", 6, 65536, false, false, "40e110c000000000"],
  ["trn2", 16, 1, 2, "redsct", "kangaring", 14, 65808, true, true, "40e128d2f8000000"],
  ["trn2", 16, 1, 2, "redsct", "mesh", 6, 65536, false, false, "40cf1f8000000000"],
  ["trn2", 16, 1, 2, "redsct", "mesh", 14, 65808, true, true, "40d176fe80000000"],
  ["trn2", 16, 1, 2, "allg", "ring", 6, 65536, false, false, "40e58f8000000000"],
  ["trn2", 16, 1, 2, "allg", "ring", 14, 65808, true, true, "40e4ce4fa0000000"],
  ["trn2", 16, 1, 2, "allg", "kangaring", 6, 65536, false, false, "40e01ea000000000"],
  ["trn2", 16, 1, 2, "allg", "kangaring", 14, 65808, true, true, "40e02c3fa0000000"],
  ["trn2", 16, 1, 2, "allg", "mesh", 6, 65536, false, false, "40c87a0000000000"],
  ["trn2", 16, 1, 2, "allg", "mesh", 14, 65808, true, true, "40c57d3000000000"],
];

/** [arch, ranks, nodes, collective, bytes, algorithm auto picks, timeUs bits] (timing-only, bf16 sum). */
const AUTO: [ArchName, number, number, CollectiveName, number, AlgorithmName, string][] = [
  ["trn2", 256, 16, "allr", 65536, "rdh", "4072a29b645a1cac"],
  ["trn2", 256, 16, "allr", 1073741824, "kangaring", "40ddb939a83e704a"],
  ["trn2", 256, 16, "allg", 65536, "rdh", "4063c0cea9e6eeb7"],
  ["trn2", 256, 16, "allg", 1073741824, "kangaring", "40cdb6e4e26d47cc"],
  ["trn1", 128, 8, "allr", 65536, "rdh", "406dc64f54732b7b"],
  ["trn1", 128, 8, "allr", 1073741824, "kangaring", "40e6c34b866b9d77"],
  ["trn1", 128, 8, "allg", 65536, "rdh", "40605da97eb1128e"],
  ["trn1", 128, 8, "allg", 1073741824, "kangaring", "40ce3e7f3f896277"],
];

const bits = (x: number): string => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
};

describe("timing pinned bit for bit", () => {
  it.each(SCHEDULES)("%s %i ranks / %i nodes lnc %i %s %s dtype %i count %i sr %s sb2sb %s", (...c) => {
    const [arch, ranks, nodes, lnc, collective, algorithm, dtype, count, sr, sb2sb, want] = c;
    const topology = buildTopology(archProfile(arch), ranks, nodes, { lnc });
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
