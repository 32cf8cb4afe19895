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
  ["trn2", 64, 4, 2, "allr", "ring", 6, 262144, false, false, "415360e980000000"],
  ["trn2", 64, 4, 2, "allr", "ring", 14, 263184, true, true, "415344008e400000"],
  ["trn2", 64, 4, 2, "allr", "kangaring", 6, 262144, false, false, "41439bd400000000"],
  ["trn2", 64, 4, 2, "allr", "kangaring", 14, 263184, true, true, "41439dc253000000"],
  ["trn2", 64, 4, 2, "allr", "mesh", 6, 262144, false, false, "410607a800000000"],
  ["trn2", 64, 4, 2, "allr", "mesh", 14, 263184, true, true, "4103e5a000000000"],
  ["trn2", 64, 4, 2, "redsct", "ring", 6, 262144, false, false, "4143b8ad00000000"],
  ["trn2", 64, 4, 2, "redsct", "kangaring", 6, 262144, false, false, "4133ef9a00000000"],
  ["trn2", 64, 4, 2, "redsct", "mesh", 6, 262144, false, false, "40f9ae7000000000"],
  ["trn2", 64, 4, 2, "allg", "ring", 6, 262144, false, false, "4143350400000000"],
  ["trn2", 64, 4, 2, "allg", "kangaring", 6, 262144, false, false, "413398fa00000000"],
  ["trn2", 64, 4, 2, "allg", "mesh", 6, 262144, false, false, "40f4332000000000"],
  ["trn2", 32, 2, 1, "allr", "ring", 6, 131072, false, false, "4143287300000000"],
  ["trn2", 32, 2, 1, "allr", "ring", 14, 131600, true, true, "41430ba30c800000"],
  ["trn2", 32, 2, 1, "allr", "kangaring", 6, 131072, false, false, "41332c2800000000"],
  ["trn2", 32, 2, 1, "allr", "kangaring", 14, 131600, true, true, "41332d07a6000000"],
  ["trn2", 32, 2, 1, "allr", "mesh", 6, 131072, false, false, "40fd871b4e770a3e"],
  ["trn2", 32, 2, 1, "allr", "mesh", 14, 131600, true, true, "40f684fc70000000"],
  ["trn2", 32, 2, 1, "redsct", "ring", 6, 131072, false, false, "4133951a00000000"],
  ["trn2", 32, 2, 1, "redsct", "kangaring", 6, 131072, false, false, "4123a87400000000"],
  ["trn2", 32, 2, 1, "redsct", "mesh", 6, 131072, false, false, "40ef726147ae147b"],
  ["trn2", 32, 2, 1, "allg", "ring", 6, 131072, false, false, "4133138800000000"],
  ["trn2", 32, 2, 1, "allg", "kangaring", 6, 131072, false, false, "412351b400000000"],
  ["trn2", 32, 2, 1, "allg", "mesh", 6, 131072, false, false, "40ef3b0000000000"],
  ["trn1", 64, 4, 1, "allr", "ring", 6, 262144, false, false, "41545a0143c3c3db"],
  ["trn1", 64, 4, 1, "allr", "ring", 14, 263184, true, true, "415437f1970b4b50"],
  ["trn1", 64, 4, 1, "allr", "kangaring", 6, 262144, false, false, "4144f73ec3c3c3dd"],
  ["trn1", 64, 4, 1, "allr", "kangaring", 14, 263184, true, true, "4144cdc186e1e1fb"],
  ["trn1", 64, 4, 1, "allr", "mesh", 6, 262144, false, false, "411123ba2e3e57f0"],
  ["trn1", 64, 4, 1, "allr", "mesh", 14, 263184, true, true, "4108450ffffffffe"],
  ["trn1", 64, 4, 1, "redsct", "ring", 6, 262144, false, false, "41454631d2d2d2c7"],
  ["trn1", 64, 4, 1, "redsct", "kangaring", 6, 262144, false, false, "41358f5c1e1e1e1b"],
  ["trn1", 64, 4, 1, "redsct", "mesh", 6, 262144, false, false, "4101551098b8ec1f"],
  ["trn1", 64, 4, 1, "allg", "ring", 6, 262144, false, false, "41438fdbb4b4b4bd"],
  ["trn1", 64, 4, 1, "allg", "kangaring", 6, 262144, false, false, "413499354b4b4b45"],
  ["trn1", 64, 4, 1, "allg", "mesh", 6, 262144, false, false, "41013e53c3c3c3c3"],
  ["trn3", 48, 3, 2, "allr", "ring", 6, 196608, false, false, "414c98bd2e8ba2e1"],
  ["trn3", 48, 3, 2, "allr", "ring", 14, 197392, true, true, "414c9b70c4707c39"],
  ["trn3", 48, 3, 2, "allr", "kangaring", 6, 196608, false, false, "413c6534ba2e8bb5"],
  ["trn3", 48, 3, 2, "allr", "kangaring", 14, 197392, true, true, "413cec70eeb26ca4"],
  ["trn3", 48, 3, 2, "allr", "mesh", 6, 196608, false, false, "41010832133d2134"],
  ["trn3", 48, 3, 2, "allr", "mesh", 14, 197392, true, true, "40facd0700f83e0f"],
  ["trn3", 48, 3, 2, "redsct", "ring", 6, 196608, false, false, "413cddae3e0f83ee"],
  ["trn3", 48, 3, 2, "redsct", "kangaring", 6, 196608, false, false, "412ccd45364d936a"],
  ["trn3", 48, 3, 2, "redsct", "mesh", 6, 196608, false, false, "40f4c231b9df1b9e"],
  ["trn3", 48, 3, 2, "allg", "ring", 6, 196608, false, false, "413cab881f07c1e8"],
  ["trn3", 48, 3, 2, "allg", "kangaring", 6, 196608, false, false, "412c9fcdf07c1f01"],
  ["trn3", 48, 3, 2, "allg", "mesh", 6, 196608, false, false, "40eea75745d1745e"],
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
  ["trn2", 256, 16, "allr", 65536, "rdh", "40733aed4fdf3b64"],
  ["trn2", 256, 16, "allr", 1073741824, "kangaring", "40d63993614d1a4c"],
  ["trn2", 256, 16, "allg", 65536, "rdh", "4063873ced916873"],
  ["trn2", 256, 16, "allg", 1073741824, "kangaring", "40c4e9ea012599d6"],
  ["trn1", 128, 8, "allr", 65536, "rdh", "406eaaca35bad98f"],
  ["trn1", 128, 8, "allr", 1073741824, "kangaring", "40e5e0b9c6457777"],
  ["trn1", 128, 8, "allg", 65536, "rdh", "405dff5cc3298ff7"],
  ["trn1", 128, 8, "allg", 1073741824, "kangaring", "40cabd13f954cac7"],
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
