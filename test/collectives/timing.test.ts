import { describe, expect, it } from "vitest";
import { parseSize } from "../../src/cli/index.js";
import {
  busFactor,
  CALIBRATION,
  type CollectiveName,
  calibratedEngineRate,
  checkTimingProfile,
  engineCostModel,
  formatTable,
  runSize,
  sweepSizes,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";
import { collectiveRun } from "../helpers/collective-run.js";

const run = collectiveRun;

describe("cost model", () => {
  it("reproduces the calibration figure: 32 KiB on one Trn2 engine in 1416 ns", () => {
    const p = archProfile("trn2");
    const ns = engineCostModel(p).durationNs({
      engine: 0,
      queue: 0,
      kind: "copy",
      descriptors: 2,
      bytesRead: 32768,
      bytesWritten: 32768,
      sources: 1,
      destinations: 1,
      barrier: false,
      txSlot: 0,
      rxSlot: 0,
    });
    expect(ns).toBeCloseTo(CALIBRATION.ns, 6);
    expect(calibratedEngineRate(p) / p.dmaBytesPerNs).toBeCloseTo(
      calibratedEngineRate(archProfile("trn1")) / 17,
      9,
    );
  });
  it("busbw = algbw × the nccl-tests factor", () => {
    for (const collective of ["allr", "redsct", "allg", "sendrecv"] as CollectiveName[]) {
      for (const ranks of [2, 3, 8]) {
        const r = runSize(run({ collective, ranks, timingOnly: true }), 1 << 20).row;
        expect(r.busbw).toBeCloseTo(r.algbw * busFactor(collective, ranks), 9);
        expect(r.algbw).toBeCloseTo(r.size / 1e9 / (r.timeUs * 1e-6), 9);
      }
    }
    expect(busFactor("allr", 8)).toBe(1.75);
    expect(busFactor("redsct", 8)).toBe(0.875);
  });
  it("timing-only gives the full run's time", () => {
    for (const collective of ["allr", "redsct", "allg", "sendrecv"] as CollectiveName[]) {
      for (const algorithm of ["ring", "kangaring", "mesh"] as const) {
        for (const srSeed of [undefined, 3]) {
          const spec = run({ collective, algorithm, ranks: 4, ...(srSeed === undefined ? {} : { srSeed }) });
          const full = runSize(spec, 100_000).row;
          const timing = runSize({ ...spec, timingOnly: true }, 100_000).row;
          expect(timing.timeUs).toBe(full.timeUs);
          expect(timing.wrong).toBe(-1);
        }
      }
    }
  });
  it("HBM is shared per stack: an LNC 1 pair of cores shares one of the chip's 4 stacks (issue 23)", () => {
    // HBM made the only binding resource: two LNC 1 ranks (cores 0, 1: one stack) move what two LNC 2
    // ranks (cores 0–3: two stacks) move through half the HBM (one chip-wide HBM: the same time).
    const slowHbm = checkTimingProfile({
      format: "sdmakit-timing-profile",
      version: 1,
      archs: { trn2: { hbmBytesPerNs: 4 } },
    });
    const time = (lnc: 1 | 2) =>
      runSize(run({ ranks: 2, lnc, timingOnly: true, algorithm: "ring", timingProfile: slowHbm }), 8 << 20)
        .row.timeUs;
    expect(time(1) / time(2)).toBeGreaterThan(1.5);
  });
  it("crossing nodes costs more than staying in a node; Trn3 is faster than Trn1", () => {
    // 8 LNC 2 ranks fill two chips either way (the chip's DMA is shared): one node, or two.
    const inNode = runSize(run({ ranks: 8, timingOnly: true, algorithm: "ring" }), 64 << 20).row.timeUs;
    const nodes = runSize(run({ ranks: 8, nodes: 2, timingOnly: true, algorithm: "ring" }), 64 << 20).row
      .timeUs;
    expect(nodes).toBeGreaterThan(inNode);
    const t1 = runSize(run({ profile: archProfile("trn1"), ranks: 2, timingOnly: true }), 64 << 20).row
      .timeUs;
    const t3 = runSize(run({ profile: archProfile("trn3"), ranks: 2, timingOnly: true }), 64 << 20).row
      .timeUs;
    expect(t3).toBeLessThan(t1);
  });
  it("auto picks what nccom-test --show-algorithm printed: 16 ranks fp32 all-reduce on Trn2", () => {
    // The guide's sdk26-allr-r16-fp32-algo: mesh up to 128 KiB, rdh at 2 MiB (sdmakit has no RDH),
    // kangaring at 32 and 512 MiB.
    const spec = run({ ranks: 16, dtype: Dtype.FP32, timingOnly: true });
    for (const size of [4, 32, 512, 8192, 131072]) expect(runSize(spec, size).row.algorithm).toBe("mesh");
    for (const size of [32 << 20, 512 << 20]) expect(runSize(spec, size).row.algorithm).toBe("kangaring");
  });
  it("timing-only at 32 TiB: every algorithm runs, auto picks one (issue 16: once 'rank 8: expected 0..7')", () => {
    for (const algorithm of ["auto", "ring", "kangaring", "mesh"] as const) {
      const r = runSize(run({ timingOnly: true, algorithm }), 2 ** 45).row;
      expect(r.timeUs, algorithm).toBeGreaterThan(0);
    }
  });
  it("timing-only reaches rank counts and sizes the device cannot hold", () => {
    const r = runSize(run({ ranks: 128, nodes: 2, timingOnly: true, algorithm: "ring" }), 1 << 20).row;
    expect(r.timeUs).toBeGreaterThan(0);
    expect(() => runSize(run({ ranks: 128, nodes: 2 }), 1024)).toThrow(/timing-only/);
  });
});

describe("report", () => {
  it("parses sizes with k/m/g suffixes (powers of 1024) and sweeps", () => {
    expect(parseSize("-e", "64MB")).toBe(64 << 20);
    expect(parseSize("-b", "4kb")).toBe(4096);
    expect(parseSize("-b", "1g")).toBe(1 << 30);
    expect(() => parseSize("-b", "12xb")).toThrow(/-b/);
    expect(sweepSizes({ min: 8, max: 64, factor: 2 })).toEqual([8, 16, 32, 64]);
    expect(sweepSizes({ min: 8, max: 30, step: 10 })).toEqual([8, 18, 28]);
  });
  it("prints the nccom-test columns and Avg bus bandwidth", () => {
    const text = formatTable([runSize(run({ timingOnly: true }), 1024).row]);
    expect(text).toMatch(
      /size\(B\)\s+count\(elems\)\s+type\s+time:avg\(us\)\s+algbw\(GB\/s\)\s+busbw\(GB\/s\)\s+algorithm\s+#wrong/,
    );
    expect(text).toMatch(/Avg bus bandwidth:/);
  });
});
