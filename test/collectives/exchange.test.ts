import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import {
  type BufferReader,
  busFactor,
  COLLECTIVE_DTYPES,
  type CollectiveName,
  checkExchange,
  exchangeGeometry,
  OUTPUT_FILL,
  runCollective,
} from "../../src/collectives/index.js";
import { Dtype, dtypeName } from "../../src/spec/index.js";
import { GUIDE_A2AV_METADATA, GUIDE_PAIRS } from "../data/guide-files.js";
import { ARCH_LNC_SHAPES } from "../helpers/collective-run.js";

const EXCHANGES: CollectiveName[] = ["alltoall", "alltoallv", "allgv", "permute"];

/** The blocks rank `dst` receives, as [src, srcElem, dstElem, count]. */
function receives(collective: CollectiveName, ranks: number, count: number, exchange = {}, dst = 0) {
  const g = exchangeGeometry({ collective: collective as "alltoall", topology: { ranks }, count, exchange });
  const out: number[][] = [];
  g.forEachReceive(dst, (...b) => out.push(b));
  return out;
}

describe("the exchange collectives' geometry (plan/exchange.ts)", () => {
  it("alltoall: rank s's block d lands in rank d's block s, own block first", () => {
    expect(receives("alltoall", 4, 8, {}, 1)).toEqual([
      [1, 2, 2, 2],
      [2, 2, 4, 2],
      [3, 2, 6, 2],
      [0, 2, 0, 2],
    ]);
  });
  it("alltoallv: the smaller of send and receive counts moves, at recv_displs (the guide's file)", () => {
    const m = { metadata: GUIDE_A2AV_METADATA };
    expect(receives("alltoallv", 2, 2048, m, 0)).toEqual([
      [0, 0, 0, 256],
      [1, 0, 256, 512],
    ]);
    expect(receives("alltoallv", 2, 2048, m, 1)).toEqual([
      [1, 512, 256, 768],
      [0, 512, 0, 256],
    ]);
  });
  it("alltoallv without recv_displs packs the blocks in source order", () => {
    const m = { metadata: [{ send_counts: [1, 3, 2], send_displs: [0, 1, 4] }] };
    expect(receives("alltoallv", 3, 9, m, 1)).toEqual([
      [1, 1, 3, 3],
      [2, 1, 6, 3],
      [0, 1, 0, 3],
    ]);
  });
  it("allgv: each rank's one chunk into every rank's slot; permute: a source's whole input", () => {
    const m = { metadata: [{ send_counts: [3, 0, 0, 0], send_displs: [1, 0, 0, 0] }] };
    expect(receives("allgv", 4, 16, m, 2)).toEqual([
      [2, 1, 8, 3],
      [3, 1, 12, 3],
      [0, 1, 0, 3],
      [1, 1, 4, 3],
    ]);
    expect(receives("permute", 8, 5, { pairs: GUIDE_PAIRS }, 3)).toEqual([[2, 0, 0, 5]]);
    expect(receives("permute", 4, 5, {}, 0)).toEqual([[3, 0, 0, 5]]);
    expect(receives("permute", 4, 5, { pairs: [[0, 1]] }, 2)).toEqual([]);
  });

  it("refuses, naming the field and value: bad pairs, metadata of the wrong shape, blocks past a buffer or overlapping", () => {
    const bad: [CollectiveName, number, number, object, RegExp][] = [
      ["permute", 4, 8, { pairs: [[0, 4]] }, /pairs\[0\] \[0,4\]: expected \[source, target\], ranks 0\.\.3/],
      [
        "permute",
        4,
        8,
        {
          pairs: [
            [0, 1],
            [2, 1],
          ],
        },
        /pairs\[1\] \[2, 1\]: rank 1 already receives \(from 0\)/,
      ],
      [
        "permute",
        4,
        8,
        {
          pairs: [
            [0, 1],
            [0, 2],
          ],
        },
        /rank 0 already sends \(to 1\)/,
      ],
      ["alltoall", 4, 8, { pairs: [[0, 1]] }, /pairs: only permute/],
      [
        "alltoallv",
        3,
        8,
        { metadata: [{ send_counts: [1, 1], send_displs: [0, 1, 2] }] },
        /metadata\[0\]\.send_counts: expected an array of 3/,
      ],
      [
        "alltoallv",
        2,
        8,
        { metadata: [{ send_counts: [1, -1], send_displs: [0, 1] }] },
        /send_counts\[1\] -1: expected an integer 0\.\.4294967295/,
      ],
      [
        "alltoallv",
        2,
        8,
        { metadata: [{ send_counts: [1, 1], send_displs: [0, 1], extra: [] }] },
        /metadata\[0\]\.extra: unknown field/,
      ],
      [
        "alltoallv",
        2,
        8,
        { metadata: [{ send_counts: [4, 5], send_displs: [0, 4] }] },
        /rank 0 sends elements 4\.\.8, past its input of 8/,
      ],
      [
        "alltoallv",
        2,
        8,
        { metadata: [{ send_counts: [2, 2], send_displs: [0, 2], recv_displs: [0, 1] }] },
        /rank 0 receives from ranks 0 and 1 into overlapping elements/,
      ],
      [
        "alltoallv",
        2,
        8,
        { metadata: [{}, {}, {}] },
        /metadata: 3 entries; expected 1 \(for every rank\) or one per rank \(2\)/,
      ],
      [
        "allgv",
        2,
        8,
        { metadata: [{ send_counts: [5, 0], send_displs: [0, 0] }] },
        /past its input of 4 elements/,
      ],
      ["alltoall", 4, 6, {}, /alltoall count 6 must be a multiple of the rank count 4/],
    ];
    for (const [collective, ranks, count, exchange, message] of bad) {
      const make = () => receives(collective, ranks, count, exchange);
      expect(make, message.source).toThrow(UsageError);
      expect(make, message.source).toThrow(message);
    }
  });
});

describe("checked exchange runs", () => {
  const options = (collective: CollectiveName) =>
    collective === "permute"
      ? { pairs: GUIDE_PAIRS.map(([s, t]) => [s, (t + 2) % 8] as [number, number]) }
      : collective === "alltoallv"
        ? {
            metadata: [{ send_counts: [5, 0, 7, 1, 3, 2, 9, 4], send_displs: [0, 5, 5, 12, 13, 16, 18, 27] }],
          }
        : {};
  it("give 0 wrong and intact guards for every dtype (8 ranks of Trn2, LNC 2)", () => {
    for (const collective of EXCHANGES)
      for (const dtype of COLLECTIVE_DTYPES) {
        const r = runCollective({ collective, ranks: 8, dtype, size: 1000, ...options(collective) });
        const what = `${collective} ${dtypeName(dtype)}`;
        expect(r.check, what).toBe("exact");
        expect(r.row.wrong, what).toBe(0);
        expect(r.row.guardErrors, what).toBe(0);
        expect(r.legKinds.copy, what).toBeGreaterThan(0);
        expect(r.legKinds["reduce-copy"] + r.legKinds.duplicate, what).toBe(0);
      }
  });
  it("give 0 wrong on Trn1, Trn2 and Trn3, at LNC 1 and 2, on one node and two", () => {
    for (const shape of ARCH_LNC_SHAPES)
      for (const nodes of [1, 2])
        for (const collective of EXCHANGES)
          for (const dtype of [Dtype.BFLOAT16, Dtype.FP8_E4, Dtype.UINT32]) {
            const r = runCollective({
              collective,
              ...shape,
              ranks: 8,
              nodes,
              dtype,
              size: 65536 + 96,
              ...options(collective),
            });
            const what = `${collective} ${shape.arch} lnc ${shape.lnc} nodes ${nodes} ${dtypeName(dtype)}`;
            expect([r.row.wrong, r.row.guardErrors], what).toEqual([0, 0]);
          }
  });
  it("the guide's alltoallv prints its size with the metadata, and the bus factors are nccom-test's", () => {
    const r = runCollective({
      collective: "alltoallv",
      ranks: 2,
      nodes: 2,
      dtype: "fp32",
      size: 1 << 20,
      metadata: GUIDE_A2AV_METADATA,
    });
    expect([r.row.size, r.row.count, r.row.wrong]).toEqual([1048608, 262152, 0]);
    expect(r.row.busbw / r.row.algbw).toBeCloseTo(0.5, 12);
    expect(busFactor("permute", 8)).toBe(1);
    for (const c of ["alltoall", "alltoallv", "allgv"] as const) expect(busFactor(c, 8)).toBe(7 / 8);
  });
  it("refuse an algorithm other than mesh (direct pulls)", () => {
    expect(() => runCollective({ collective: "alltoall", algorithm: "ring", size: 1024 })).toThrow(
      /alltoall is planned as mesh \(direct pulls\), not ring/,
    );
  });
});

describe("the exchange check (exchange-check.ts)", () => {
  const ranks = 2;
  const count = 4;
  const geometry = exchangeGeometry({
    collective: "permute",
    topology: { ranks },
    count,
    exchange: { pairs: [[0, 1]] },
  });
  /** Buffers of one byte per element: inputs 10 + rank·4 + i, outputs as given. */
  const reader =
    (outputs: number[][]): BufferReader =>
    (rank, buffer, from, len) =>
      Uint8Array.from({ length: len }, (_, i) =>
        buffer === "input" ? 10 + rank * 4 + from + i : ((outputs[rank] as number[])[from + i] as number),
      );
  it("passes a copy and an untouched output; counts a wrong element and a written gap", () => {
    const fill = OUTPUT_FILL;
    expect(
      checkExchange(
        Dtype.UINT8,
        ranks,
        geometry,
        reader([
          [fill, fill, fill, fill],
          [10, 11, 12, 13],
        ]),
      ).wrong,
    ).toBe(0);
    const bad = checkExchange(
      Dtype.UINT8,
      ranks,
      geometry,
      reader([
        [fill, 0, fill, fill],
        [10, 11, 99, 13],
      ]),
    );
    expect(bad.wrong).toBe(2);
    expect(bad.maxAbsErr).toBe(99 - 12);
  });
});
