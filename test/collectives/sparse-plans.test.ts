// Issue 29 point 4, small messages over many ranks: a count of fewer granules than ranks leaves most
// chunks empty, so the planners walk only the chunks with elements (plan/live-chunks.ts) and the
// pre-pass keeps only the queues a checkpoint changed (timing/checkpoints.ts). Counted, not timed:
// the planners' per-(rank, step) and per-(rank, peer) helpers are wrapped to count their calls.
import { describe, expect, it, vi } from "vitest";

vi.mock("../../src/collectives/plan/duplicate.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/collectives/plan/duplicate.js")>();
  const { counted } = await import("../helpers/call-counts.js");
  return { ...real, fanOutLegs: counted("fanOut", real.fanOutLegs) };
});
vi.mock("../../src/collectives/plan/plan-request.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/collectives/plan/plan-request.js")>();
  const { counted } = await import("../helpers/call-counts.js");
  return { ...real, channelsFor: counted("channels", real.channelsFor) };
});

const { callCounts } = await import("../helpers/call-counts.js");
const { buildPlan, buildTopology, Checkpoints, emitPlan, meshUnreadStep, scheduleCollective } = await import(
  "../../src/collectives/index.js"
);
const { archProfile } = await import("../../src/hal/index.js");
const { Dtype } = await import("../../src/spec/index.js");

const RANKS = 1024;

function request(algorithm: "ring" | "kangaring" | "mesh", bytes: number) {
  return {
    topology: buildTopology(archProfile("trn2"), RANKS, 16),
    collective: "allr" as const,
    algorithm,
    dtype: Dtype.BFLOAT16,
    op: "sum" as const,
    count: bytes / 2,
  };
}

/** The legs a plan emits, and the planner's helper calls while emitting them. */
function emitted(req: ReturnType<typeof request>) {
  callCounts.fanOut = callCounts.channels = 0;
  let legs = 0;
  emitPlan(req, { add: () => legs++ });
  return { legs, fanOut: callCounts.fanOut ?? 0, channels: callCounts.channels ?? 0 };
}

describe("a 64-byte all-reduce over 1024 ranks walks only the chunks with elements", () => {
  it("ring and KangaRing: all-gather fan-outs in proportion to the legs, not to ranks × steps", () => {
    for (const algorithm of ["ring", "kangaring"] as const) {
      const e = emitted(request(algorithm, 64));
      expect(e.legs, algorithm).toBeGreaterThan(0);
      // Two chunks hold the 2 granules: a fan-out per (step, chunk member), ≈ 2 · 2 · steps.
      expect(e.fanOut, algorithm).toBeLessThanOrEqual(2 * e.legs);
      expect(e.fanOut, algorithm).toBeLessThan(RANKS * 8);
    }
  });

  it("mesh: a rank's pulls walk the two ranks with elements, not its 1023 peers", () => {
    const e = emitted(request("mesh", 64));
    expect(e.legs).toBeGreaterThan(0);
    // One channel count per chunk in the reduce-scatter, then two per pull of a chunk with elements
    // (≈ 5 a rank; a walk of every peer makes ≈ 2 · 1023 a rank).
    expect(e.channels).toBeLessThan(8 * RANKS);
  });

  it("where every chunk has elements the walk is the full one (as many fan-outs as before)", () => {
    const e = emitted(request("ring", RANKS * 64));
    expect(e.fanOut).toBe(RANKS * (RANKS - 1));
  });

  it("times a sparse all-reduce as a dense walk would (the legs are the same)", () => {
    // 64 B over 1024 ranks: 32 elements in 2 granules; the full schedule is what `record` places.
    for (const algorithm of ["ring", "kangaring", "mesh"] as const) {
      const req = request(algorithm, 64);
      const fast = scheduleCollective(req, { sr: false });
      const full = scheduleCollective(req, { sr: false, record: true });
      expect(fast.totalNs, algorithm).toBe(full.totalNs);
      expect(fast.legKinds, algorithm).toEqual(full.legKinds);
    }
  });
});

describe("checkpoints keep the queues that changed (timing/checkpoints.ts)", () => {
  it("a checkpoint of 3 changed queues out of a million holds 3 pairs; advancing rebuilds the times", () => {
    const queues = 1 << 20;
    const c = new Checkpoints(queues);
    const busy = new Float64Array(queues);
    for (const [qi, ns] of [
      [5, 10],
      [70_000, 2.5],
      [5, 11],
      [1 << 19, 7],
    ] as const) {
      busy[qi] = ns;
      c.touch(qi);
    }
    c.take(16, busy);
    busy[70_000] = 4;
    c.touch(70_000);
    c.take(32, busy);
    expect(c.bytes).toBe(3 * 12 + 12);
    const before = new Float64Array(queues);
    expect(c.advance(8, before)).toBe(false);
    expect(c.advance(16, before)).toBe(true);
    expect([before[5], before[70_000], before[1 << 19]]).toEqual([11, 2.5, 7]);
    expect(c.advance(32, before)).toBe(true);
    expect(before.every((ns, qi) => ns === busy[qi])).toBe(true);
  });

  it("where most queues changed, a checkpoint is the full copy", () => {
    const c = new Checkpoints(8);
    const busy = Float64Array.from({ length: 8 }, (_, k) => k + 1);
    for (let qi = 0; qi < 8; qi++) c.touch(qi);
    c.take(16, busy);
    expect(c.bytes).toBe(8 * 8);
    const before = new Float64Array(8);
    c.advance(16, before);
    expect(before).toEqual(busy);
  });
});

describe("a mesh's final pulls are never read (mesh.ts meshUnreadStep: the placement keeps none)", () => {
  it("no leg of an all-reduce or all-gather waits for a leg of the unread step or later", () => {
    for (const collective of ["allr", "allg"] as const)
      for (const [ranks, nodes] of [
        [8, 1],
        [32, 2],
        [64, 4],
      ] as const)
        for (const count of [ranks * 16, ranks * 4096 + (collective === "allr" ? 7 : 0)]) {
          const req = { ...request("mesh", 2 * count), collective, count };
          const t = buildTopology(archProfile("trn2"), ranks, nodes);
          const plan = buildPlan({ ...req, topology: t });
          const unread = meshUnreadStep({ ...req, topology: t }) as number;
          const late = new Set(plan.legs.filter((l) => l.step >= unread).map((l) => l.id));
          expect(late.size, `${collective} ${ranks}`).toBeGreaterThan(0);
          expect(plan.legs.filter((l) => l.after.some((id) => late.has(id))).length).toBe(0);
        }
  });

  it("a reduce-scatter's batches read their own step's partials: none is unread", () => {
    const req = { ...request("mesh", 64), collective: "redsct" as const, count: RANKS };
    expect(meshUnreadStep(req)).toBeUndefined();
  });
});

describe("checkpoints past their budget are thinned (timing/checkpoints.ts)", () => {
  it("full copies of many queues: bounded bytes, half as often, each kept one still exact", () => {
    const queues = 1000;
    const budget = 10 * queues * 8;
    const c = new Checkpoints(queues, budget);
    const busy = new Float64Array(queues);
    const snapshots = new Map<number, Float64Array>();
    for (let step = 16; step <= 16 * 100; step += 16) {
      for (let qi = 0; qi < queues; qi++) {
        busy[qi] = (busy[qi] as number) + ((qi * step) % 7) + 1;
        c.touch(qi);
      }
      c.take(step, busy);
      snapshots.set(step, busy.slice());
    }
    expect(c.bytes).toBeLessThanOrEqual(budget);
    expect(c.size).toBeGreaterThan(1);
    expect(c.every).toBeGreaterThan(16);
    const before = new Float64Array(queues);
    let seen = 0;
    for (const [step, snap] of snapshots) {
      if (!c.advance(step, before)) continue;
      seen++;
      expect(
        before.every((ns, qi) => ns === snap[qi]),
        `step ${step}`,
      ).toBe(true);
    }
    expect(seen).toBe(c.size);
  });

  it("sparse changes merged into the next checkpoint keep the later time of each queue", () => {
    const c = new Checkpoints(1 << 16, 24);
    const busy = new Float64Array(1 << 16);
    const steps: [number, number, number][] = [
      [16, 3, 1],
      [32, 9, 2],
      [48, 3, 5],
      [64, 12, 4],
    ];
    const snapshots = new Map<number, Float64Array>();
    for (const [step, qi, ns] of steps) {
      busy[qi] = ns;
      c.touch(qi);
      c.take(step, busy);
      snapshots.set(step, busy.slice());
    }
    const before = new Float64Array(1 << 16);
    for (const [step, snap] of snapshots)
      if (c.advance(step, before))
        expect([before[3], before[9], before[12]]).toEqual([snap[3], snap[9], snap[12]]);
    expect(c.size).toBeLessThan(steps.length);
  });
});
