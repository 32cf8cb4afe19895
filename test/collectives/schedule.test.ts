import { describe, expect, it } from "vitest";
import {
  type AlgorithmName,
  ARCH_TIMING,
  buildPlan,
  buildTopology,
  type CollectiveName,
  LegCoster,
  type PlanRequest,
  type ReduceOp,
  scheduleCollective,
} from "../../src/collectives/index.js";
import { type ArchName, archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";

interface Case {
  arch: ArchName;
  ranks: number;
  nodes: number;
  lnc: 1 | 2 | undefined;
  collective: CollectiveName;
  algorithm: AlgorithmName;
  dtype: Dtype;
  op: ReduceOp;
  count: number;
  sb2sb: boolean;
  sr: boolean;
}

function* cases(): Generator<Case> {
  // undefined: the arch's default LNC (trn1 1, trn2 / trn3 2); LNC 1 on trn2 lets SB2SB legs in.
  const shapes: [ArchName, number, number, 1 | 2 | undefined][] = [
    ["trn2", 1, 1, undefined],
    ["trn2", 2, 1, 1],
    ["trn2", 3, 1, undefined],
    ["trn2", 8, 1, 1],
    ["trn2", 8, 1, undefined],
    ["trn3", 16, 1, undefined],
    ["trn2", 32, 2, undefined],
    ["trn1", 8, 2, undefined],
    ["trn1", 6, 1, undefined],
  ];
  const sizes = [1, 33, 1000, 65536, 3 << 20];
  let k = 0;
  for (const [arch, ranks, nodes, lnc] of shapes)
    for (const collective of ["allr", "redsct", "allg", "sendrecv"] as const)
      for (const algorithm of ["ring", "kangaring", "mesh"] as const)
        for (const size of sizes) {
          k++;
          const dtype = [Dtype.BFLOAT16, Dtype.FP32, Dtype.FP8_E4, Dtype.INT32][k % 4]!;
          const op = (["sum", "avg", "max", "min"] as const)[k % 4]!;
          const unit = collective === "redsct" || collective === "allg" ? ranks : 1;
          yield {
            arch,
            ranks,
            nodes,
            lnc,
            collective,
            algorithm,
            dtype,
            op,
            count: Math.max(unit, Math.floor(size / unit) * unit),
            sb2sb: k % 3 === 0,
            sr: k % 5 === 0,
          };
        }
}

describe("the one scheduler", () => {
  it("keeps every dependency and queue order of the materialised plan; recording changes nothing", () => {
    let n = 0;
    for (const c of cases()) {
      const req: PlanRequest = {
        topology: buildTopology(archProfile(c.arch), c.ranks, c.nodes, { lnc: c.lnc }),
        collective: c.collective,
        algorithm: c.algorithm,
        dtype: c.dtype,
        op: c.op,
        count: c.count,
        sb2sb: c.sb2sb,
      };
      const what = JSON.stringify(c);
      const plan = buildPlan(req);
      const timing = scheduleCollective(req, { sr: c.sr, record: true });
      const s = timing.schedule!;
      if (n % 4 === 0) expect(scheduleCollective(req, { sr: c.sr }).totalNs, what).toBe(timing.totalNs);
      expect(Object.values(timing.legKinds).reduce((a, b) => a + b, 0)).toBe(plan.legs.length);
      expect(s.start.length).toBe(plan.legs.length);
      // Dependencies come from PlanBuilder (the plan's `after`), independently of the scheduler.
      const coster = new LegCoster(req.topology.profile, { dtype: c.dtype, op: c.op, sr: c.sr });
      const queueEnd = new Map<string, number>();
      let last = 0;
      // Checked in plain JS, one expect per case: an expect per leg (≈ 1 M of them) was most of
      // this test's time. The first broken leg is named with the rule it breaks.
      const broken: string[] = [];
      for (const leg of plan.legs) {
        const start = s.start[leg.id]!;
        for (const a of leg.after)
          if (!(start >= s.end[a]!))
            broken.push(`leg ${leg.id} starts ${start} before its dependency ${a} ends`);
        const q = `${leg.rank}:${leg.queue}`;
        if (!(start >= (queueEnd.get(q) ?? 0))) broken.push(`leg ${leg.id} starts before queue ${q} is free`);
        queueEnd.set(q, s.end[leg.id]!);
        if (!(s.end[leg.id]! - start >= coster.cost(leg).ns * (1 - 1e-12)))
          broken.push(`leg ${leg.id} lasts less than its cost`);
        last = Math.max(last, s.end[leg.id]!);
        if (broken.length > 0) break;
      }
      expect(broken, what).toEqual([]);
      expect(timing.totalNs).toBe(ARCH_TIMING[c.arch].launchNs + last);
      n++;
    }
    expect(n).toBeGreaterThan(400);
  }, 300_000);
  it("SB2SB legs are counted as such", () => {
    const req: PlanRequest = {
      topology: buildTopology(archProfile("trn2"), 8, 1, { lnc: 1 }),
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: 65536,
      sb2sb: true,
    };
    const kinds = scheduleCollective(req, { sr: false }).legKinds;
    const plan = buildPlan(req);
    expect(kinds["sb2sb-copy"]).toBe(plan.legs.filter((l) => l.kind === "sb2sb-copy").length);
    expect(kinds["sb2sb-reduce"]).toBeGreaterThan(0);
  });
  it("times a plan far too big to materialise: 256 ranks on 16 nodes, 1 GiB, 4.2 M legs", () => {
    // Materialised, ~2.3 KB a leg: ~9 GB, beyond the default heap; streamed, only written ranges are kept.
    const req: PlanRequest = {
      topology: buildTopology(archProfile("trn2"), 256, 16, { lnc: 1 }),
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: 1 << 29,
    };
    const t = scheduleCollective(req, { sr: false });
    expect(t.legKinds["reduce-copy"] + t.legKinds.copy).toBe(256 * 2 * 255 * 32);
    expect(t.totalNs).toBeGreaterThan(0);
  }, 300_000);
});
