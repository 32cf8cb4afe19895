// Admission control (issue 16 item 1): the host-memory estimate against the bytes a run allocates,
// and the refusal of runs over the budget before any buffer is built.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import {
  buildTopology,
  type CollectiveName,
  type CollectiveRun,
  countForSize,
  deviceLayout,
  estimateHostMemory,
  lazyPlan,
  runSize,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype, dtypeBytes } from "../../src/spec/index.js";
import { smallRun } from "../helpers/collective-run.js";

function base(over: Partial<CollectiveRun>): CollectiveRun {
  return smallRun({ dataSeed: 3, ...over });
}

function estimateOf(run: CollectiveRun, size: number, check: "exact" | "reference") {
  const algorithm = run.algorithm === "auto" ? "ring" : run.algorithm;
  const req = {
    topology: buildTopology(run.profile, run.ranks, run.nodes),
    collective: run.collective,
    algorithm,
    dtype: run.dtype,
    op: run.op,
    count: countForSize(run, run.ranks, size),
  };
  return estimateHostMemory(deviceLayout(lazyPlan(req), run.profile), run.profile, check, {
    legs: 0,
    packets: 0,
  });
}

describe("the host-memory estimate holds the bytes a run allocates", () => {
  const cases: [CollectiveName, number, Dtype, "exact" | "reference", number][] = [
    ["allr", 8, Dtype.BFLOAT16, "exact", 8 << 20],
    ["allr", 3, Dtype.FP32, "reference", 1 << 20],
    ["redsct", 4, Dtype.FP8_E4, "exact", 4 << 20],
    ["allg", 8, Dtype.FP16, "reference", 2 << 20],
    ["sendrecv", 2, Dtype.INT32, "exact", 3 << 20],
    ["allr", 16, Dtype.BFLOAT16, "exact", 64 << 10],
  ];
  for (const [collective, ranks, dtype, check, size] of cases) {
    it(`${collective} ${ranks} ranks ${size} B ${check}`, () => {
      const run = base({ collective, ranks, dtype, check });
      const est = estimateOf(run, size, check);
      const r = runSize(run, size);
      expect(r.row.wrong).toBe(0);
      const got = r.hostBytes!;
      // Device pages: the estimate counts every channel's ring (an upper bound) and every buffer,
      // though a pre-filled page takes memory only once written (scratch a plan never uses).
      const ringSlack = ranks * r.plan.lnc * archProfile("trn2").dmaEnginesPerCore * 2 * (1 << 20);
      const s = r.plan.sizes;
      const usesScratch = r.plan.legs.some(
        (l) => l.dsts.some((d) => d.buffer === "scratch") || l.srcs.some((x) => x.ref.buffer === "scratch"),
      );
      const unused = usesScratch ? 0 : ranks * s.scratch * dtypeBytes(dtype);
      expect(est.pageBytes).toBeGreaterThanOrEqual(got.pages);
      expect(est.pageBytes - got.pages).toBeLessThanOrEqual(ringSlack + unused + 2 * ranks * (1 << 20));
      // The buffers alone: what the layout spans, every byte the plan uses written.
      const data = ranks * (s.input + s.output + s.scratch) * dtypeBytes(dtype) - unused;
      expect(got.pages).toBeGreaterThanOrEqual(data);
      expect(est.checkBytes).toBe(got.check);
    }, 120_000);
  }
});

describe("admission: refused before any buffer is built", () => {
  it("a run over the budget names the estimate, the budget and what to do instead", () => {
    const run = base({ ranks: 8, hostBudget: { bytes: 64 << 20, source: "--max-memory" } });
    expect(() => runSize(run, 64 << 20)).toThrow(UsageError);
    expect(() => runSize(run, 64 << 20)).toThrow(
      /allr of 8 ranks × 33554432 bf16 elements needs ≈ 1\.\d+ GiB of host memory .*the budget is 64\.0 MiB \(--max-memory\): use --timing-only, fewer ranks/,
    );
  });
  it("64 ranks × 1 GiB with --check is refused at once (building it would need ≈ 192 GiB)", () => {
    const run = base({ ranks: 64, hostBudget: { bytes: 8 * 2 ** 30, source: "test" } });
    expect(() => runSize(run, 2 ** 30)).toThrow(
      /needs ≈ 2\d\d GiB of host memory \(device buffers 192 GiB\)/,
    );
  });
  it("the 96 GiB HBM check comes before inputs: a budget that would allow it still refuses", () => {
    const run = base({ ranks: 8, hostBudget: { bytes: 2 ** 50, source: "test" } });
    expect(() => runSize(run, 100 * 2 ** 30)).toThrow(
      /the buffers need \d+ GiB of HBM; trn2 has 96\.0 GiB: use --timing-only/,
    );
  });
  it("timing-only is not admitted (it builds no buffer)", () => {
    const run = base({ ranks: 64, timingOnly: true, hostBudget: { bytes: 1, source: "test" } });
    expect(runSize(run, 2 ** 20).row.timeUs).toBeGreaterThan(0);
  });
  it("the reference check is counted: a budget between the exact and the reference estimate splits them", () => {
    const ex = estimateOf(base({ ranks: 4 }), 4 << 20, "exact");
    const ref = estimateOf(base({ ranks: 4 }), 4 << 20, "reference");
    const bytes = Math.floor((ex.totalBytes + ref.totalBytes) / 2);
    const budget = { bytes, source: "test" };
    expect(runSize(base({ ranks: 4, check: "exact", hostBudget: budget }), 4 << 20).row.wrong).toBe(0);
    expect(() => runSize(base({ ranks: 4, check: "reference", hostBudget: budget }), 4 << 20)).toThrow(
      /check \d/,
    );
  });
});

describe("per-size freeing", () => {
  it("a result holds no device: outputs only when asked, as copies", () => {
    const r = runSize(base({}), 4096);
    expect("machine" in r).toBe(false);
    expect(r.outputs).toBeUndefined();
    const k = runSize(base({}), 4096, undefined, { keepOutputs: true });
    expect(k.outputs).toHaveLength(4);
    // A later run reuses the released arenas: the kept outputs are copies, still intact.
    const again = k.outputs!.map((o) => o.slice());
    runSize(base({ dataSeed: 99 }), 4096);
    expect(k.outputs).toEqual(again);
  });
  it("the check reads nothing but typed arrays (no Node Buffer: the library runs in a browser)", () => {
    const src = readFileSync(new URL("../../src/collectives/check/verify.ts", import.meta.url), "utf8");
    expect(src).not.toMatch(/\bBuffer\./);
  });
});
