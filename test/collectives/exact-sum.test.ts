// The check's one-pass exact sum (check-kernels.ts wasmExactSum, exact-result.ts exactSumTile) is
// the staged path it replaces, bit for bit: the float64 sum tile by tile (exactResult's JS loops),
// encodeExact's codes and maxAbsError's error; and a check through it finds every wrong element,
// wherever it is, with the same count and error as the check with the module switched off.
import { describe, expect, it } from "vitest";
import {
  checkTiles,
  exactFp32Passes,
  wasmDecodeTile,
  wasmExactSum,
} from "../../src/collectives/check/check-kernels.js";
import { exactTile } from "../../src/collectives/check/exact-result.js";
import { type CheckSpec, encodeExact, CHECK_TILE as TILE } from "../../src/collectives/check/verify.js";
import { checkOutputs, maxAbsError, useCheckKernels } from "../../src/collectives/index.js";
import { PAGE_BYTES } from "../../src/engine/index.js";
import { PageArenas } from "../../src/engine/memory/page-arenas.js";
import { OVERFLOW_POLICIES, type OverflowPolicy } from "../../src/numerics/index.js";
import { Dtype } from "../../src/spec/index.js";

/** bf16 codes where the sum could part: zeros of both signs, infinities, NaNs, the largest, tiny. */
function awkwardCodes(n: number, seed: number): Uint8Array {
  const special = [
    0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc1, 0x7f81, 0xffc0, 0x7f7f, 0xff7f, 0x0001, 0x3f80, 0x4780,
  ];
  const codes = new Uint16Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    codes[i] = x % 5 === 0 ? (special[(x >>> 8) % special.length] as number) : (x >>> 12) & 0xffff;
  }
  return new Uint8Array(codes.buffer);
}

/**
 * The staged path verify.ts took before: each source decoded into the module's FP32 tile and added
 * to its float64 tile (exactTile), that sum encoded (encodeExact) and its error (maxAbsError) —
 * the same kernels and loops, so NaN's sign too is as it was.
 */
function staged(sources: readonly Uint8Array[], len: number, op: "sum" | "avg", overflow: OverflowPolicy) {
  const { f32, acc, want } = checkTiles();
  const input = (q: number, from: number, n: number) => {
    const codes = (sources[q] as Uint8Array).subarray(2 * from, 2 * (from + n));
    expect(wasmDecodeTile(Dtype.BFLOAT16, codes, f32, n)).toBe(true);
    return f32;
  };
  const exact = acc.subarray(0, len);
  exactTile("allr", op, sources.length, len, 0, 0, len, input, exact);
  const codes = encodeExact(Dtype.BFLOAT16, exact, overflow, want, f32).slice();
  return {
    want: codes,
    err: maxAbsError(codes, Dtype.BFLOAT16, exact, f32),
    exact: Float64Array.from(exact),
  };
}

/**
 * bf16 codes as numbers, a NaN's sign cleared: wasm leaves the sign of a NaN its arithmetic makes
 * open, and V8's baseline and optimized code of one function differ in it (the staged path's
 * NaN sums already took either sign, by when its kernels were optimized).
 */
const codesOf = (bytes: Uint8Array) =>
  Array.from(new Uint16Array(bytes.slice().buffer), (c) => ((c & 0x7fff) > 0x7f80 ? c & 0x7fff : c));

/** wasmExactSum's result copied out of the code tile (which the staged path then writes). */
function fused(...args: Parameters<typeof wasmExactSum>) {
  const sum = wasmExactSum(...args);
  return sum && { want: codesOf(sum.want), err: sum.err, buffer: sum.want.buffer };
}

describe("wasmExactSum is the staged sum, encoding and error", () => {
  for (const count of [1, 3, 8, 17]) {
    for (const len of [0, 1, 7, 8, 9, 1001, TILE]) {
      it(`${count} sources × ${len} elements`, () => {
        const sources = Array.from({ length: count }, (_, q) => awkwardCodes(len, 97 * q + len + 1));
        for (const op of ["sum", "avg"] as const) {
          for (const overflow of OVERFLOW_POLICIES) {
            const scale = op === "avg" ? Math.fround(1 / count) : 1;
            const got = fused(Dtype.BFLOAT16, count, (q) => sources[q] as Uint8Array, len, scale, overflow);
            const want = staged(sources, len, op, overflow);
            expect(got, "the module runs").toBeDefined();
            expect(got?.want, `${op} ${overflow}`).toEqual(codesOf(want.want));
            expect(got?.err, `${op} ${overflow}`).toBe(want.err);
          }
        }
      });
    }
  }
  it("rounds to inf or stays finite at the top of the range as numerics does, each policy", () => {
    // Pairs whose sum is bf16's largest finite plus half an ulp (a tie to inf or to even), just
    // below or above that, inf itself and NaN; of both signs.
    const pairs = [
      [0x7f7f, 0x7b00],
      [0x7f7e, 0x7b00],
      [0x7f7f, 0x7a80],
      [0x7f7f, 0x7b01],
      [0x7f7f, 0x7f7f],
      [0x7f80, 0x0000],
      [0x7f80, 0xff80],
      [0x7fc0, 0x3f80],
    ].flatMap(([x, y]) => [
      [x, y],
      [(x as number) ^ 0x8000, (y as number) ^ 0x8000],
    ]);
    const sources = [0, 1].map((k) => new Uint8Array(Uint16Array.from(pairs, (p) => p[k] as number).buffer));
    for (const overflow of OVERFLOW_POLICIES) {
      const got = fused(Dtype.BFLOAT16, 2, (q) => sources[q] as Uint8Array, pairs.length, 1, overflow);
      const want = staged(sources, pairs.length, "sum", overflow);
      expect(got?.want, overflow).toEqual(codesOf(want.want));
      expect(got?.err, overflow).toBe(want.err);
    }
  });
  it("sums in FP32 exactly while that is exact, else in float64, with the same result", () => {
    // Exponent fields drawn in [lo, hi] (0: subnormals and zeros, as 1), each pass holding both
    // ends: FP32 holds the sums of `count` ≤ 2^lg when hi − max(lo, 1) ≤ 16 − lg and hi + lg ≤ 254.
    const len = 16 * 5 + 3;
    for (const count of [1, 2, 3, 8, 16]) {
      const lg = Math.ceil(Math.log2(count));
      const span = 16 - lg;
      const cases = [
        [0, 1 + span, true],
        [0, 2 + span, false],
        [120, 120 + span, true],
        [120, 121 + span, false],
        [250 - lg, 254 - lg, true],
        [250 - lg, 255 - lg, false],
      ] as const;
      for (const [c, [lo, hi, fp32]] of cases.entries()) {
        const sources = Array.from({ length: count }, (_, q) => {
          const codes = new Uint16Array(len);
          let x = 31 * q + 7 * c + count;
          for (let i = 0; i < len; i++) {
            x = (Math.imul(x, 1103515245) + 12345) >>> 0;
            const e = q > 0 || i % 16 > 1 ? lo + ((x >>> 8) % (hi - lo + 1)) : i % 16 === 0 ? hi : lo;
            codes[i] =
              ((x >>> 31) << 15) | (e << 7) | ((x >>> 16) & 0x7f) | (q === 0 && i % 16 === 1 ? 1 : 0);
          }
          return new Uint8Array(codes.buffer);
        });
        for (const overflow of OVERFLOW_POLICIES) {
          const before = exactFp32Passes();
          const got = fused(Dtype.BFLOAT16, count, (q) => sources[q] as Uint8Array, len, 1, overflow);
          const label = `${count} sources, exponents ${lo}–${hi}, ${overflow}`;
          expect(exactFp32Passes() - before, label).toBe(fp32 ? 5 : 0);
          const want = staged(sources, len, "sum", overflow);
          expect(got?.want, label).toEqual(codesOf(want.want));
          expect(got?.err, label).toBe(want.err);
        }
      }
    }
  });
  it("reads sources in a device arena in place, with the same result", () => {
    const arenas = new PageArenas();
    const { view } = arenas.page(PAGE_BYTES);
    const sources = Array.from({ length: 9 }, (_, q) => {
      const s = view.subarray(q * 2 * TILE, (q + 1) * 2 * TILE);
      s.set(awkwardCodes(TILE, q + 5));
      return s;
    });
    const got = fused(Dtype.BFLOAT16, 9, (q) => sources[q] as Uint8Array, TILE, 1, "ieee");
    expect(got?.buffer).toBe(view.buffer);
    const want = staged(sources, TILE, "sum", "ieee");
    expect(got?.want).toEqual(codesOf(want.want));
    expect(got?.err).toBe(want.err);
    arenas.release();
  });
  it("declines other dtypes and more than a tile", () => {
    const s = new Uint8Array(4 * (TILE + 1));
    expect(wasmExactSum(Dtype.FP32, 1, () => s, 4, 1, "ieee")).toBeUndefined();
    expect(wasmExactSum(Dtype.BFLOAT16, 1, () => s, TILE + 1, 1, "ieee")).toBeUndefined();
  });
});

describe("a check through the one-pass sum finds every wrong element", () => {
  const ranks = 8;
  const count = 2 * TILE + 37;
  /** Ranks' inputs (small integers: exact data) and outputs (their sum) in arena pages or plain arrays. */
  function run(inArena: boolean) {
    // Inputs and outputs in arenas of their own: the wanted codes are copied beside the outputs.
    const arenas = [new PageArenas(), new PageArenas()];
    const bytes = 2 * count;
    const buf = (a: PageArenas) =>
      inArena ? a.page(PAGE_BYTES).view.subarray(0, bytes) : new Uint8Array(bytes);
    const inputs = Array.from({ length: ranks }, () => buf(arenas[0] as PageArenas));
    const outputs = Array.from({ length: ranks }, () => buf(arenas[1] as PageArenas));
    const f = new Float32Array(count);
    const sums = new Float64Array(count);
    for (const [q, input] of inputs.entries()) {
      for (let i = 0; i < count; i++) f[i] = ((i * 7 + q * 13) % 33) - 16;
      const codes = new Uint16Array(count);
      for (let i = 0; i < count; i++)
        codes[i] = new Uint32Array(Float32Array.of(f[i] as number).buffer)[0]! >>> 16;
      input.set(new Uint8Array(codes.buffer));
      for (let i = 0; i < count; i++) sums[i]! += f[i] as number;
    }
    const sumCodes = encodeExact(Dtype.BFLOAT16, sums, "ieee");
    for (const out of outputs) out.set(sumCodes);
    const read = (rank: number, name: string, from: number, len: number) =>
      (name === "input" ? inputs : outputs)[rank]!.subarray(2 * from, 2 * (from + len));
    return { arenas, outputs, read };
  }
  const spec: CheckSpec = {
    collective: "allr",
    op: "sum",
    dtype: Dtype.BFLOAT16,
    ranks,
    inputCount: count,
    outputCount: count,
    overflow: "ieee",
  };
  for (const inArena of [false, true]) {
    it(`a flipped byte of any rank, anywhere in a tile (${inArena ? "device arena" : "plain arrays"})`, () => {
      const { arenas, outputs, read } = run(inArena);
      expect(checkOutputs(spec, read)).toEqual({ wrong: 0, maxAbsErr: 0 });
      const flips = [
        [0, 0],
        [7, 2 * count - 1],
        [3, 2 * TILE - 1],
        [3, 2 * TILE],
        [5, 2 * TILE + 1],
        [1, 4097],
      ] as const;
      for (const [r, at] of flips) outputs[r]![at]! ^= 0x40;
      const fast = checkOutputs(spec, read);
      useCheckKernels(false);
      const slow = checkOutputs(spec, read);
      useCheckKernels(true);
      expect(fast.wrong).toBe(flips.length);
      expect(fast).toEqual(slow);
      expect(fast.maxAbsErr).toBeGreaterThan(0);
      for (const a of arenas) a.release();
    });
  }

  it("gives a wrong output's error when the reader stages every span in one tile", () => {
    // A device reader copies a span across pages into one reused tile: reading the inputs for
    // the exact result must not leave the output read before them overwritten.
    const { arenas, outputs, read } = run(false);
    const staging = new Uint8Array(2 * TILE);
    const staged = (rank: number, name: string, from: number, len: number) => {
      const tile = staging.subarray(0, 2 * len);
      tile.set(read(rank, name, from, len));
      return tile;
    };
    // 1000 where the sum is at most 128 in magnitude: an error no input's bytes give.
    outputs[2]!.set([0x7a, 0x44], 2 * (TILE + 4));
    const direct = checkOutputs(spec, read);
    expect(direct.maxAbsErr).toBeGreaterThan(800);
    expect(checkOutputs(spec, staged)).toEqual(direct);
    for (const a of arenas) a.release();
  });
});
