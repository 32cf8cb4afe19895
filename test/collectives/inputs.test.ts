// Input data generated tile by tile (and by table lookup for exact data) is the data of the
// per-element definition: one stream word per generated element, in rank then element order — with
// the exact data's WebAssembly draw (check/check-kernels.ts) and without it.
import { describe, expect, it } from "vitest";
import {
  exactIntegerRange,
  generateInputs,
  makeInputs,
  useCheckKernels,
} from "../../src/collectives/index.js";
import { PageArenas } from "../../src/engine/memory/page-arenas.js";
import { encodeFromF32, SrStream } from "../../src/numerics/index.js";
import { Dtype, dtypeBytes, dtypeName, isFloatDtype } from "../../src/spec/index.js";

const UNSIGNED = new Set<Dtype>([Dtype.UINT8, Dtype.UINT16, Dtype.UINT32, Dtype.UINT64]);

/** The definition, one element at a time (inputs.ts's doc), encoded per rank. */
function definition(kind: "exact" | "random", dt: Dtype, ranks: number, count: number, seed: number) {
  const rng = new SrStream(seed);
  const E = exactIntegerRange(dt);
  const unsigned = UNSIGNED.has(dt);
  const mag = Math.max(1, Math.floor(E / ranks));
  // One stream word an element, in rank then element order; each loop reads only constants besides
  // it (a closure a word and per-element branches on the kind and dtype tripled the 2 MiB cases' time).
  const span = unsigned ? mag + 1 : 2 * mag + 1;
  const off = unsigned ? 0 : mag;
  const sparse = kind === "exact" && E < ranks;
  const float = isFloatDtype(dt);
  const bound = Math.min(1, 15 / ranks);
  const lo = unsigned ? 0 : -E;
  const spanInt = Math.floor((E - lo) / ranks) + 1;
  return Array.from({ length: ranks }, (_, r) => {
    const v = new Float32Array(count);
    if (kind === "exact") {
      for (let i = 0; i < count; i++) {
        if (sparse && (r + i) % ranks >= E) continue;
        v[i] = Math.floor((rng.nextU32() / 2 ** 32) * span) - off;
      }
    } else if (float) {
      for (let i = 0; i < count; i++) v[i] = (2 * (rng.nextU32() / 2 ** 32) - 1) * bound;
    } else {
      for (let i = 0; i < count; i++) v[i] = Math.floor(lo / ranks + (rng.nextU32() / 2 ** 32) * spanInt);
    }
    const b = new Uint8Array(count * dtypeBytes(dt));
    encodeFromF32(dt, v, 0, count, b, 0);
    return b;
  });
}

/** The first byte index where a and b differ (or their lengths do), −1 when equal. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (Buffer.compare(a, b) === 0) return -1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe("generateInputs = the per-element definition", () => {
  const dtypes = [
    Dtype.BFLOAT16,
    Dtype.FP16,
    Dtype.FP32,
    Dtype.FP8_E3,
    Dtype.FP8_E4,
    Dtype.INT8,
    Dtype.UINT16,
    Dtype.INT32,
  ];
  for (const dt of dtypes) {
    it(dtypeName(dt), () => {
      // The definition does not depend on the kernels: made once for both exact runs.
      const definitions = new Map<string, Uint8Array[]>();
      for (const [kind, wasm] of [
        ["exact", true],
        ["exact", false],
        ["random", true],
      ] as const) {
        useCheckKernels(wasm);
        for (const ranks of [1, 3, 32]) {
          const count = 16384 + 37; // a whole tile and a tail
          const key = `${kind} ${ranks}`;
          const want = definitions.get(key) ?? definition(kind, dt, ranks, count, 5);
          definitions.set(key, want);
          const got = makeInputs({ kind, dtype: dt, ranks, count, seed: 5 }).bytes;
          for (let r = 0; r < ranks; r++)
            expect(firstDifference(got[r]!, want[r]!), `${kind} ${ranks} rank ${r}`).toBe(-1);
        }
      }
      useCheckKernels(true);
    });
  }
  // Past one block of the module (1 MiB of codes, drawn in four lanes of a quarter block each;
  // bf16 and the integer dtypes' codes computed, fp16 / fp8 looked up), then tiles and a tail.
  for (const dt of [Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E4, Dtype.INT8, Dtype.UINT8, Dtype.INT16]) {
    it(`${dtypeName(dt)}: exact data over more than a block of the WebAssembly draw`, () => {
      const count = (2 << 20) / dtypeBytes(dt) + 16384 + 7;
      for (const ranks of [3, 8]) {
        const want = definition("exact", dt, ranks, count, 9);
        const got = makeInputs({ kind: "exact", dtype: dt, ranks, count, seed: 9 }).bytes;
        for (let r = 0; r < ranks; r++)
          expect(firstDifference(got[r]!, want[r]!), `${ranks} rank ${r}`).toBe(-1);
      }
    });
  }
  it("asked for blocks, hands exact bf16 data a 1 MiB block at a time: the same bytes", () => {
    const count = (1 << 19) + 40000;
    const tiles = makeInputs({ kind: "exact", dtype: Dtype.BFLOAT16, ranks: 2, count, seed: 3 }).bytes;
    const seen: string[] = [];
    const spec = { kind: "exact", dtype: Dtype.BFLOAT16, ranks: 2, count, seed: 3 } as const;
    generateInputs(
      spec,
      (r, from, b) => {
        seen.push(`${r}:${from}:${b.length}`);
        expect(firstDifference(b, tiles[r]!.subarray(2 * from, 2 * from + b.length))).toBe(-1);
      },
      { blocks: true },
    );
    expect(seen).toEqual(["0:0:1048576", "0:524288:80000", "1:0:1048576", "1:524288:80000"]);
  });
  it("sparse exact fp8 (fewer exact integers than ranks), a block or a tile at a time: the JS loop's bytes", () => {
    // The module spreads a block of draws in place (check-spread-wat.ts); the JS loop is held to the
    // definition above. Blocks of 1 Mi elements and more (a tail); 33 ranks: runs cut at odd phases.
    for (const [ranks, count, blocks] of [
      [17, (1 << 20) + 37, true],
      [33, 3 * 16384 + 5, false],
    ] as const) {
      const spec = { kind: "exact", dtype: Dtype.FP8_E4, ranks, count, seed: 7 } as const;
      const runs = [true, false].map((wasm) => {
        useCheckKernels(wasm);
        const got = Array.from({ length: ranks }, () => new Uint8Array(count));
        generateInputs(spec, (r, from, b) => got[r]!.set(b, from), { blocks });
        return got;
      });
      useCheckKernels(true);
      for (let r = 0; r < ranks; r++)
        expect(firstDifference(runs[0]![r]!, runs[1]![r]!), `${ranks} rank ${r}`).toBe(-1);
    }
  });
  it("drawn straight into device pages (pages cut at any byte): the same bytes, the rest by the sink", () => {
    const PAGE = 1 << 20;
    // 17 fp8 ranks: sparse (16 exact integers), spread in the pages; 0.5 MiB inputs, cut at odd phases.
    for (const [dt, ranks] of [
      [Dtype.BFLOAT16, 3],
      [Dtype.FP16, 3],
      [Dtype.FP8_E4, 3],
      [Dtype.INT8, 3],
      [Dtype.FP8_E4, 17],
    ] as const) {
      const eb = dtypeBytes(dt);
      // each rank's input spans pages: 1.5 MiB and more (3 ranks), 0.5 MiB and more (17)
      const count = (3 << 20) / ((ranks === 3 ? 2 : 6) * eb) + 333;
      const spec = { kind: "exact", dtype: dt, ranks, count, seed: 5 } as const;
      const want = makeInputs(spec).bytes;
      // Rank r's input at byte 64 + r · (its bytes + 64) of device pages (page 1 is not device memory).
      const arenas = new PageArenas();
      const pages = Array.from({ length: 12 }, (_, k) => (k === 1 ? undefined : arenas.page(PAGE).view));
      const at = (r: number, e: number) => 64 + r * (count * eb + 64) + e * eb;
      const span = (r: number, e: number, bytes: number) =>
        pages[Math.floor(at(r, e) / PAGE)]?.subarray(
          at(r, e) % PAGE,
          Math.min(PAGE, (at(r, e) % PAGE) + bytes),
        );
      const got = want.map((w) => new Uint8Array(w.length));
      const drawn: number[] = [];
      const target = {
        view: span,
        written: (r: number, e: number, bytes: number) => {
          got[r]!.set(span(r, e, bytes)!, e * eb);
          drawn.push(bytes);
        },
      };
      generateInputs(spec, (r, from, b) => got[r]!.set(b, from * eb), { blocks: true, target });
      for (let r = 0; r < ranks; r++)
        expect(firstDifference(got[r]!, want[r]!), `${dtypeName(dt)} rank ${r}`).toBe(-1);
      expect(drawn.length, dtypeName(dt)).toBeGreaterThan(3);
      arenas.release();
    }
  });
  it("hands each tile to the sink once, in rank then element order", () => {
    const seen: string[] = [];
    generateInputs({ kind: "exact", dtype: Dtype.BFLOAT16, ranks: 2, count: 40000, seed: 1 }, (r, from, b) =>
      seen.push(`${r}:${from}:${b.length}`),
    );
    expect(seen).toEqual([
      "0:0:32768",
      "0:16384:32768",
      "0:32768:14464",
      "1:0:32768",
      "1:16384:32768",
      "1:32768:14464",
    ]);
  });
});
