import { describe, expect, it } from "vitest";
import {
  type AlgorithmName,
  buildTopology,
  type CollectiveName,
  NodeFold,
  type PlanRequest,
  scheduleCollective,
} from "../../src/collectives/index.js";
import { type ArchName, archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";

// [arch, ranks, nodes, lnc]: one rank per node, pairs, chips, a node of 64 ranks, Trn1's hypercube.
const SHAPES: [ArchName, number, number, 1 | 2][] = [
  ["trn2", 4, 4, 1],
  ["trn2", 8, 2, 1],
  ["trn2", 8, 2, 2],
  ["trn2", 24, 3, 2],
  ["trn2", 96, 2, 1],
  ["trn3", 32, 4, 2],
  ["trn1", 12, 3, 1],
  ["trn1", 64, 2, 1],
];
const COLLECTIVES: CollectiveName[] = ["allr", "redsct", "allg", "sendrecv"];
const ALGORITHMS: AlgorithmName[] = ["ring", "kangaring", "mesh"];
/** Elements per rank-unit: equal chunks (a multiple of ranks × 32 B) and not (the fold steps aside). */
const PER_RANK = [16, 1000, 65536 + 16];

function* requests(): Generator<{ req: PlanRequest; sr: boolean }> {
  let k = 0;
  for (const [arch, ranks, nodes, lnc] of SHAPES)
    for (const collective of COLLECTIVES)
      for (const algorithm of ALGORITHMS)
        for (const per of PER_RANK) {
          k++;
          const dtype = [Dtype.BFLOAT16, Dtype.FP32, Dtype.FP8_E4][k % 3]!;
          yield {
            req: {
              topology: buildTopology(archProfile(arch), ranks, nodes, { lnc }),
              collective,
              algorithm,
              dtype,
              op: (["sum", "avg", "max"] as const)[k % 3]!,
              count: per * ranks + (collective === "allr" && k % 2 === 0 ? 7 : 0),
            },
            sr: k % 4 === 0,
          };
        }
}

/** `req`'s fast schedule against the full (recording) one: the total, leg kinds, descriptors, packets. */
function expectFullTimes(req: PlanRequest, sr: boolean, what: string): void {
  const fast = scheduleCollective(req, { sr });
  const full = scheduleCollective(req, { sr, record: true });
  expect(fast.totalNs, what).toBe(full.totalNs);
  expect(fast.legKinds, what).toEqual(full.legKinds);
  expect(fast.descriptors, what).toBe(full.descriptors);
  expect(fast.packets, what).toBe(full.packets);
}

/** Whether `req` folds; where it does, its times checked against the full schedule's. */
function foldsExactly(req: PlanRequest, sr: boolean, what: string): boolean {
  if (NodeFold.of(req).nodes === 1) return false;
  expectFullTimes(req, sr, what);
  return true;
}

describe("timing one node for all (node-fold.ts)", () => {
  it("gives the full (recording) schedule's times bit for bit, and its leg and descriptor counts", () => {
    // Every request that folds. Where NodeFold.of declines (NodeFold.none), the fast schedule places
    // every rank as the recording one does, only the recorder differs (schedule.test.ts: "recording
    // changes nothing"): one large such request still compared — at 64 and 96 ranks a leg record can
    // outgrow its bound, and the placement then emits the plan again — the others skipped (a 96-rank
    // kangaring placed twice unfolded: 1.8 s).
    let folded = 0;
    let n = 0;
    let largeUnfolded = false;
    for (const { req, sr } of requests()) {
      const what = `${req.topology.profile.name} ${req.topology.ranks}/${req.topology.nodes} lnc ${req.topology.lnc} ${req.collective} ${req.algorithm} ${req.count}`;
      const folds = NodeFold.of(req).nodes > 1;
      const large =
        !folds && !largeUnfolded && req.topology.ranks >= 64 && req.count > 1000 * req.topology.ranks;
      if (folds || large) expectFullTimes(req, sr, what);
      if (folds) folded++;
      if (large) largeUnfolded = true;
      n++;
    }
    expect(n).toBe(SHAPES.length * COLLECTIVES.length * ALGORITHMS.length * PER_RANK.length);
    expect(folded).toBeGreaterThan(n / 2);
    expect(largeUnfolded).toBe(true);
  }, 600_000);

  it("gives the full schedule's times for the exchanges, folding only the uniform ones", () => {
    const exchanges: [CollectiveName, PlanRequest["exchange"], boolean][] = [
      ["alltoall", undefined, true],
      ["alltoallv", undefined, true],
      ["allgv", undefined, true],
      [
        "alltoallv",
        {
          metadata: [
            { send_counts: [64, 0, 16, 8, 0, 0, 32, 8], send_displs: [0, 64, 64, 80, 88, 88, 88, 120] },
          ],
        },
        false,
      ],
      [
        "permute",
        {
          pairs: [
            [0, 5],
            [5, 0],
            [3, 3],
          ],
        },
        false,
      ],
    ];
    for (const [arch, nodes, lnc] of [
      ["trn2", 2, 1],
      ["trn3", 4, 2],
    ] as const)
      for (const [collective, exchange, folds] of exchanges) {
        const req: PlanRequest = {
          topology: buildTopology(archProfile(arch), 8, nodes, { lnc }),
          collective,
          algorithm: "mesh",
          dtype: Dtype.BFLOAT16,
          op: "sum",
          count: 8000,
          ...(exchange === undefined ? {} : { exchange }),
        };
        const what = `${arch} ${nodes} nodes ${collective}`;
        const fast = scheduleCollective(req, { sr: false });
        const full = scheduleCollective(req, { sr: false, record: true });
        expect(fast.totalNs, what).toBe(full.totalNs);
        expect(fast.descriptors, what).toBe(full.descriptors);
        expect(NodeFold.of(req).nodes > 1, what).toBe(folds);
      }
  });

  it("folds only where exact: several nodes, equal chunks", () => {
    const req: PlanRequest = {
      topology: buildTopology(archProfile("trn2"), 64, 4),
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: 1 << 20,
    };
    expect(NodeFold.of(req).nodes).toBe(4);
    expect(NodeFold.of({ ...req, count: (1 << 20) + 16 }).nodes).toBe(1);
    expect(NodeFold.of({ ...req, topology: buildTopology(archProfile("trn2"), 64, 1) }).nodes).toBe(1);
    expect(NodeFold.of({ ...req, collective: "redsct", count: 64 * 3 }).nodes).toBe(4);
  });
});

describe("small all-reduces fold too (fewer granules than ranks)", () => {
  it("gives the full schedule's times when the granules split evenly over the nodes, and only then", () => {
    let folded = 0;
    for (const [arch, ranks, nodes, lnc] of SHAPES)
      for (const algorithm of ALGORITHMS)
        for (const granules of [nodes, 3 * nodes, 5 * nodes + 1, ranks + nodes]) {
          const dtype = [Dtype.BFLOAT16, Dtype.FP32, Dtype.FP8_E4][granules % 3]!;
          const perGranule = { [Dtype.BFLOAT16]: 16, [Dtype.FP32]: 8, [Dtype.FP8_E4]: 32 }[dtype]!;
          const req: PlanRequest = {
            topology: buildTopology(archProfile(arch), ranks, nodes, { lnc }),
            collective: "allr",
            algorithm,
            dtype,
            op: "sum",
            count: granules * perGranule,
          };
          const what = `${arch} ${ranks}/${nodes} lnc ${lnc} ${algorithm} ${granules} granules`;
          const folds = foldsExactly(req, false, what);
          expect(folds, what).toBe(granules % nodes === 0);
          if (folds) folded++;
        }
    expect(folded).toBeGreaterThan(50);
  });
});

describe("RDH folds by XOR (rdh-image.ts) where its blocks are alike", () => {
  // SHAPES' power-of-two rank counts, and 4 nodes of 4, 8 of 8, 2 of 32, 32 of 1.
  const RDH_SHAPES: [ArchName, number, number, 1 | 2][] = [
    ...SHAPES.filter(([, ranks]) => (ranks & (ranks - 1)) === 0),
    ["trn2", 16, 4, 1],
    ["trn2", 64, 8, 1],
    ["trn2", 64, 2, 2],
    ["trn2", 32, 32, 1],
  ];

  it("gives the full (recording) schedule's times bit for bit, folding only equal blocks", () => {
    let folded = 0;
    let unfolded = 0;
    let k = 0;
    // Elements a rank: one granule, blocks of 62.5 granules, many channels, and (all-reduce) 7
    // elements over: the last block longer, which must not fold.
    for (const [arch, ranks, nodes, lnc] of RDH_SHAPES)
      for (const collective of ["allr", "redsct", "allg"] as const)
        for (const extra of [16, 1000, 65536 + 16, collective === "allr" ? 4096.5 : 4096]) {
          k++;
          const dtype = [Dtype.BFLOAT16, Dtype.FP32, Dtype.FP8_E4][k % 3]!;
          const req: PlanRequest = {
            topology: buildTopology(archProfile(arch), ranks, nodes, { lnc }),
            collective,
            algorithm: "rdh",
            dtype,
            op: (["sum", "avg", "max"] as const)[k % 3]!,
            count: Math.floor(extra * ranks) + (extra % 1 === 0 ? 0 : 7),
          };
          const sr = k % 4 === 0;
          const what = `${arch} ${ranks}/${nodes} lnc ${lnc} ${collective} ${req.count}`;
          if (foldsExactly(req, sr, what)) folded++;
          else unfolded++;
        }
    expect(folded).toBeGreaterThan(80);
    expect(unfolded).toBeGreaterThan(8);
  });

  it("does not fold a rank count RDH refuses: planning names it, as unfolded", () => {
    const req: PlanRequest = {
      topology: buildTopology(archProfile("trn2"), 24, 3, { lnc: 2 }),
      collective: "allr",
      algorithm: "rdh",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count: 24 * 1024,
    };
    expect(NodeFold.of(req).nodes).toBe(1);
    expect(() => scheduleCollective(req, { sr: false })).toThrow(/rdh: ranks 24 must be a power of two/);
  });
});
