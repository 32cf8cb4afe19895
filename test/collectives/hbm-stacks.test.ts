// A collective's buffers sit in the HBM stack of their rank's NeuronCore, in the arch's own map
// (the public driver's v2 / v3 / v4 HBM stacks: spec/address-map.ts).
import { describe, expect, it } from "vitest";
import {
  buildTopology,
  countForSize,
  DeviceMachine,
  deviceLayout,
  lazyPlan,
  ringBaseOf,
  runSize,
} from "../../src/collectives/index.js";
import { describeAddress, MemoryBudgetError, PAGE_BYTES } from "../../src/engine/index.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";
import { collectiveRun } from "../helpers/collective-run.js";

function planOf(arch: string, ranks: number, lnc: 1 | 2, bytes: number) {
  const run = collectiveRun({ profile: archProfile(arch), ranks, algorithm: "ring", lnc });
  const req = {
    topology: buildTopology(run.profile, run.ranks, run.nodes, { lnc }),
    collective: run.collective,
    algorithm: "ring" as const,
    dtype: Dtype.BFLOAT16,
    op: "sum" as const,
    count: countForSize(run, ranks, bytes),
  };
  return { run, plan: lazyPlan(req) };
}

describe("allr on trn1 places each rank's buffers in Trn1's own HBM stacks", () => {
  it("rank 0 in stack 0, rank 1 in stack 1 (0x10_0000_0000), each after its core's rings", () => {
    const { run, plan } = planOf("trn1", 2, 1, 4096);
    const layout = deviceLayout(plan, run.profile);
    // A core's rings: 16 engines × 16 queues × a TX and an RX ring of 1024 16-byte slots = 8 MiB.
    const rings = 16n * 16n * 2n * 1024n * 16n;
    expect(ringBaseOf(run.profile, { engine: 0, queue: 0 })).toBe(0n);
    expect(ringBaseOf(run.profile, { engine: 16, queue: 0 })).toBe(0x10_0000_0000n);
    expect(ringBaseOf(run.profile, { engine: 31, queue: 15 })).toBe(
      0x10_0000_0000n + rings - 2n * 1024n * 16n,
    );
    expect(layout.rankBase(0)).toBe(rings);
    expect(layout.rankBase(1)).toBe(0x10_0000_0000n + rings);
    expect(describeAddress(run.profile, layout.buffer(1, "output").addr)).toMatch(/^HBM stack 1 \+ 0x/);
    expect(describeAddress(run.profile, layout.buffer(0, "input").addr)).toMatch(/^HBM stack 0 \+ 0x/);
  });
  it("the run moves its bytes there: rank 1's output in stack 1 holds the sum, 0 wrong", () => {
    const { run, plan } = planOf("trn1", 2, 1, 4096);
    const m = new DeviceMachine(plan, run.profile, { overflow: "nan" });
    try {
      m.prefill();
      const out = m.layout.buffer(1, "output");
      const before = m.device.memory.read(out.addr, 16).slice();
      const input = new Uint8Array(plan.sizes.input * 2).fill(0x3f); // bf16 0x3f3f on every rank
      for (let r = 0; r < 2; r++) m.writeInput(r, 0, input);
      m.execute();
      const after = m.device.memory.read(out.addr, 16);
      expect(out.addr >= 0x10_0000_0000n && out.addr < 0x14_0000_0000n).toBe(true);
      expect(after).not.toEqual(before);
    } finally {
      m.release();
    }
    expect(
      runSize(collectiveRun({ profile: run.profile, ranks: 2, algorithm: "ring" }), 4096).row.wrong,
    ).toBe(0);
  });
});

describe("every rank in its core's stack on trn2 / trn3", () => {
  it.each([
    ["trn2", 8, 1, [0, 0, 1, 1, 2, 2, 3, 3]],
    ["trn2", 4, 2, [0, 1, 2, 3]],
    ["trn3", 4, 2, [0, 1, 2, 3]],
  ] as const)("%s, %i ranks at LNC %i: stacks %j", (arch, ranks, lnc, stacks) => {
    const { run, plan } = planOf(arch, ranks, lnc, 4096);
    const layout = deviceLayout(plan, run.profile);
    const bases = run.profile.addressMap.hbmStacks.map((s) => s.base);
    expect(bases).toEqual([0n, 0x40_0000_0000n, 0x8000_0000_0000n, 0x8040_0000_0000n]);
    for (let r = 0; r < ranks; r++) {
      const stack = run.profile.addressMap.hbmStacks[stacks[r] as number]!;
      const engine = (r % (8 / lnc)) * lnc * 16;
      const ring = ringBaseOf(run.profile, { engine, queue: 0 });
      expect(ring >= stack.base && ring < stack.base + stack.bytes, `rank ${r}'s rings`).toBe(true);
      const at = layout.rankBase(r);
      expect(at >= stack.base && at < stack.base + stack.bytes, `rank ${r}`).toBe(true);
    }
  });
});

describe("a stack that overflows is refused, naming it", () => {
  it("3 ranks of Trn2 at LNC 1: ranks 0 and 1 share stack 0 (24 GiB), so 2 × 18 GiB (6 GiB each of input, output, scratch) does not fit there", () => {
    const run = collectiveRun({
      ranks: 3,
      lnc: 1,
      algorithm: "ring",
      hostBudget: { bytes: 2 ** 50, source: "test" },
    });
    expect(() => runSize(run, 6 * 2 ** 30)).toThrow(
      /the buffers of the ranks in HBM stack 0 need 36\.\d GiB; a trn2 stack holds 24\.0 GiB/,
    );
  });
});

describe("the device machine passes its host budget to the engine's Device (issue 27)", () => {
  it("a budget of one page stops prefill with MemoryBudgetError; none allocated past it", () => {
    const { run, plan } = planOf("trn2", 2, 1, 4096);
    const m = new DeviceMachine(plan, run.profile, { overflow: "nan", memoryBudget: PAGE_BYTES });
    try {
      expect(() => m.prefill()).toThrow(MemoryBudgetError);
      expect(m.pageBytes).toBeLessThanOrEqual(PAGE_BYTES);
    } finally {
      m.release();
    }
  });
  it("runSize gives the device the run's hostBudget: a run estimated under it completes", () => {
    const run = collectiveRun({ profile: archProfile("trn2"), ranks: 2, algorithm: "ring" });
    const budget = { bytes: 512 * 2 ** 20, source: "test" };
    expect(runSize({ ...run, hostBudget: budget }, 4096).row.wrong).toBe(0);
  });
});
