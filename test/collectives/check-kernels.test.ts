// The check module (check/check-kernels.ts): its committed .wat and binary are what the generator and
// wabt make now, so the three cannot drift; its tile functions are the JS loops they stand for, bit
// for bit (the input draw: inputs.test.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import {
  CHECK_KERNELS_LAYOUT,
  CHECK_KERNELS_TILE,
  checkTiles,
  type SparsePattern,
  sparseDraws,
  WasmCodeDraw,
  wasmAccumulate,
  wasmCountWrong,
  wasmCountWrongMany,
  wasmDecodeTile,
  wasmDemote,
  wasmMaxAbsErr,
} from "../../src/collectives/check/check-kernels.js";
import { countWrong } from "../../src/collectives/index.js";
import { hostBlockOf, PAGE_BYTES } from "../../src/engine/index.js";
import { PageArenas } from "../../src/engine/memory/page-arenas.js";
import { decodeToF32, SrStream, WasmArena } from "../../src/numerics/index.js";
import { Dtype, dtypeBytes } from "../../src/spec/index.js";
import { checkKernelsBinaryText, compileCheckKernels } from "../../tools/wasm/build-check-kernels.js";
import { checkKernelsWat } from "../../tools/wasm/check-kernels-wat.js";

const dir = new URL("../../src/collectives/check/gen/", import.meta.url);

it("check-kernels.wat is the generator's text", () => {
  expect(readFileSync(new URL("check-kernels.wat", dir), "utf8")).toBe(checkKernelsWat());
});

it("check-kernels-binary.ts is check-kernels.wat compiled", async () => {
  const committed = readFileSync(new URL("check-kernels-binary.ts", dir), "utf8");
  expect(committed).toBe(checkKernelsBinaryText(await compileCheckKernels()));
});

/** Values where the loops could part: zeros of both signs, infinities, NaN, tiny and huge. */
function awkward(n: number, seed: number): number[] {
  const special = [0, -0, 1, -1, 0.1, 1e-40, -3e38, Infinity, -Infinity, Number.NaN, 2 ** -149, 65504];
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % 3 === 0 ? (special[x % special.length] as number) : (x / 2 ** 31 - 1) * 2 ** ((x % 40) - 20);
  });
}

/** The first i < len where a[i] and b[i] are not the same value (NaN is NaN, −0 is not +0), else −1. */
function firstNotSame(a: ArrayLike<number>, b: ArrayLike<number>, len: number): number {
  for (let i = 0; i < len; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

describe("the tile functions are their JS loops", () => {
  for (const len of [0, 3, 4, 1000, 1001, CHECK_KERNELS_TILE]) {
    it(`${len} elements`, () => {
      const { f32, acc } = checkTiles();
      const x = Float32Array.from(awkward(len, len + 1));
      const a = Float64Array.from(awkward(len, len + 2));
      for (const op of ["add", "max", "min"] as const) {
        const want = a.map((ai, i) =>
          op === "add" ? ai + x[i]! * 0.125 : op === "max" ? Math.max(ai, x[i]!) : Math.min(ai, x[i]!),
        );
        f32.set(x);
        acc.set(a);
        expect(wasmAccumulate(op, acc.subarray(0, len), f32.subarray(0, len), len, 0.125)).toBe(true);
        expect(firstNotSame(acc, want, len), op).toBe(-1);
      }
      acc.set(a);
      expect(wasmDemote(acc, f32, len)).toBe(true);
      expect(firstNotSame(f32, a.map(Math.fround), len), "demote").toBe(-1);
      f32.set(x);
      acc.set(a);
      let worst = 0;
      for (let i = 0; i < len; i++) {
        const e = Math.abs(x[i]! - a[i]!);
        worst = Number.isNaN(e) ? Number.POSITIVE_INFINITY : Math.max(worst, e);
      }
      expect(wasmMaxAbsErr(f32, acc, len)).toBe(worst);
    });
  }
  it("decline arrays that are not the module's tiles", () => {
    const f32 = new Float32Array(8);
    const acc = new Float64Array(8);
    expect(wasmAccumulate("add", acc, f32, 8, 1)).toBe(false);
    expect(wasmDemote(acc, f32, 8)).toBe(false);
    expect(wasmMaxAbsErr(f32, acc, 8)).toBeUndefined();
  });
});

describe("wasmDecodeTile is decodeToF32, bit for bit, in place", () => {
  const bits = (f: Float32Array, n: number) => Array.from(new Uint32Array(f.buffer, f.byteOffset, n));
  it("every bf16 code (NaN payloads too), from device-like bytes and odd tails", () => {
    const { f32 } = checkTiles();
    const codes = new Uint8Array(2 * 65536);
    for (let c = 0; c < 65536; c++) new DataView(codes.buffer).setUint16(2 * c, c, true);
    for (let at = 0; at < 65536; at += CHECK_KERNELS_TILE) {
      for (const len of [CHECK_KERNELS_TILE, 13]) {
        const src = codes.subarray(2 * at, 2 * (at + len));
        const want = new Float32Array(len);
        decodeToF32(Dtype.BFLOAT16, src, 0, len, want, 0);
        expect(wasmDecodeTile(Dtype.BFLOAT16, src, f32, len)).toBe(true);
        expect(bits(f32, len)).toEqual(bits(want, len));
      }
    }
  });
  it("FP32 bits copied; other dtypes decoded by numerics; foreign tiles declined", () => {
    const { f32, want } = checkTiles();
    const src = Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 0xff);
    expect(wasmDecodeTile(Dtype.FP32, src, f32, 16)).toBe(true);
    expect(Array.from(new Uint8Array(f32.buffer, f32.byteOffset, 64))).toEqual(Array.from(src));
    want.set(src.subarray(0, 32));
    expect(wasmDecodeTile(Dtype.BFLOAT16, want.subarray(0, 32), f32, 16)).toBe(true);
    for (const dt of [Dtype.FP16, Dtype.FP8_E4, Dtype.FP8_E5, Dtype.INT8, Dtype.UINT16, Dtype.INT64]) {
      const n = Math.floor(64 / dtypeBytes(dt));
      const expected = new Float32Array(n);
      decodeToF32(dt, src, 0, n, expected, 0);
      // From a plain array (copied in beside the tile) and from the instance's own code tile.
      for (const codes of [src, want.subarray(0, 64)]) {
        want.set(src);
        f32.fill(0);
        expect(wasmDecodeTile(dt, codes, f32, n)).toBe(true);
        expect(bits(f32, n), `${dt}`).toEqual(bits(expected, n));
      }
    }
    expect(wasmDecodeTile(Dtype.BFLOAT16, src, new Float32Array(16), 16)).toBe(false);
  });
});

describe("count_wrong is countWrong's loop", () => {
  it("counts each element with a differing byte once, across blocks and in the tail", () => {
    const { want } = checkTiles();
    for (const dt of [Dtype.INT8, Dtype.BFLOAT16, Dtype.FP32, Dtype.INT64]) {
      const eb = dtypeBytes(dt);
      for (const elems of [0, 1, 7, 8, 9, 1000, 1001]) {
        const n = elems * eb;
        const a = new Uint8Array(n).map((_, i) => i * 31);
        const w = want.subarray(0, n);
        w.set(a);
        let flips = 0;
        for (let i = 3; i < n; i += 37) {
          w[i]! ^= 1 << (i % 8);
          flips++;
        }
        let naive = 0;
        for (let i = 0; i < n; i += eb) if (a.subarray(i, i + eb).some((b, k) => b !== w[i + k])) naive++;
        expect(flips === 0 || naive > 0).toBe(true);
        expect(wasmCountWrong(a, w, eb), `${dtypeBytes(dt)} × ${elems}`).toBe(naive);
        expect(countWrong(a, w, dt)).toBe(naive);
      }
    }
  });
});

describe("count_wrong finds one differing byte wherever it lies", () => {
  it("in a 64-byte pass, a 16-byte block or the tail, for every element width", () => {
    const { want } = checkTiles();
    const n = 248; // three 64-byte passes, three 16-byte blocks, an 8-byte tail
    const a = new Uint8Array(n).map((_, i) => i * 29 + 3);
    const w = want.subarray(0, n);
    for (const eb of [1, 2, 4, 8]) {
      const counts = new Set<number | undefined>();
      for (let at = 0; at < n; at++) {
        w.set(a);
        w[at]! ^= 0x80;
        counts.add(wasmCountWrong(a, w, eb));
      }
      w.set(a);
      expect([...counts, wasmCountWrong(a, w, eb)], `${eb}-byte elements`).toEqual([1, 0]);
    }
  });
});

// A shared arena (a run on threads) too, after another shared arena grew: its memory then hands out
// another buffer object for the same bytes (V8), which no tag names — tiles made from it were no
// device arena's, and the check copied every tile in and counted wrong elements in JavaScript.
describe.each([
  ["plain", false],
  ["shared", true],
])("over a %s device arena, the check reads device bytes in place, with the same results", (_, shared) => {
  /** A device page of a fresh arena (its host block this thread's), and the page-arenas to release. */
  function devicePage(bytes: number) {
    const arenas = new PageArenas(shared);
    const view = arenas.page(bytes).view;
    if (shared) new WasmArena(1 << 30, true); // grows to 1 GiB: address space only
    return { view, arenas };
  }
  it("the tiles lie in the arena's host block; other buffers get the module's own", () => {
    const { view, arenas } = devicePage(PAGE_BYTES);
    const tiles = checkTiles(view.buffer);
    expect(tiles.f32.buffer).toBe(view.buffer);
    expect(tiles.f32.byteOffset).toBe((hostBlockOf(view.buffer) as number) + CHECK_KERNELS_LAYOUT.F32);
    expect(checkTiles(new ArrayBuffer(64)).f32.buffer).toBe(checkTiles().f32.buffer);
    arenas.release();
  });
  it("bf16 decode and the wrong count from the page itself: as the staged path, nothing copied in", () => {
    const { view, arenas } = devicePage(PAGE_BYTES);
    const len = CHECK_KERNELS_TILE;
    const codes = view.subarray(4096, 4096 + 2 * len);
    for (let i = 0; i < codes.length; i++) codes[i] = (i * 131 + 7) & 0xff;
    const { f32, want } = checkTiles(view.buffer);
    const actualTile = new Uint8Array(
      view.buffer,
      f32.byteOffset - CHECK_KERNELS_LAYOUT.F32 + CHECK_KERNELS_LAYOUT.ACTUAL,
      2 * len,
    );
    actualTile.fill(0); // the arena may be a reused one
    const decoded = new Float32Array(len);
    decodeToF32(Dtype.BFLOAT16, codes, 0, len, decoded, 0);
    expect(wasmDecodeTile(Dtype.BFLOAT16, codes, f32, len)).toBe(true);
    expect(Array.from(new Uint32Array(f32.buffer, f32.byteOffset, len))).toEqual(
      Array.from(new Uint32Array(decoded.buffer)),
    );
    const w = want.subarray(0, codes.length);
    w.set(codes);
    for (let i = 5; i < w.length; i += 1001) w[i]! ^= 0x10;
    const staged = countWrong(Uint8Array.from(codes), Uint8Array.from(w), Dtype.BFLOAT16);
    expect(staged).toBeGreaterThan(0);
    expect(wasmCountWrong(codes, w, 2)).toBe(staged);
    // Had either copied the codes in, the ACTUAL tile would hold them.
    expect(actualTile.every((b) => b === 0)).toBe(true);
    arenas.release();
  });
  it("fp8 and fp16 decode from the page and from another arena's bytes: decodeToF32's bits", () => {
    const { view, arenas } = devicePage(PAGE_BYTES);
    const other = devicePage(PAGE_BYTES);
    const { f32 } = checkTiles(view.buffer);
    const len = CHECK_KERNELS_TILE;
    for (const dt of [Dtype.FP8_E4, Dtype.FP8_E5, Dtype.FP16]) {
      for (const page of [view, other.view]) {
        const codes = page.subarray(4096, 4096 + dtypeBytes(dt) * len);
        for (let i = 0; i < codes.length; i++) codes[i] = (i * 131 + dt) & 0xff;
        const decoded = new Float32Array(len);
        decodeToF32(dt, Uint8Array.from(codes), 0, len, decoded, 0);
        expect(wasmDecodeTile(dt, codes, f32, len)).toBe(true);
        expect(Array.from(new Uint32Array(f32.buffer, f32.byteOffset, len))).toEqual(
          Array.from(new Uint32Array(decoded.buffer)),
        );
      }
    }
    other.arenas.release();
    arenas.release();
  });
});

const dtypeOf = (eb: number) =>
  ({ 1: Dtype.INT8, 2: Dtype.BFLOAT16, 4: Dtype.FP32, 8: Dtype.INT64 })[eb] as Dtype;

describe("count_wrong_many is count_wrong of each output", () => {
  it("outputs in two arenas and outside any, more than 16 in one arena, flips anywhere", () => {
    const arenas = [new PageArenas(), new PageArenas()];
    const pages = arenas.map((a) => a.page(PAGE_BYTES).view);
    const { want } = checkTiles(pages[0]?.buffer);
    for (const eb of [1, 2, 4, 8]) {
      for (const n of [248, 2 * CHECK_KERNELS_TILE]) {
        const w = want.subarray(0, n);
        w.forEach((_, i) => {
          w[i] = i * 37 + eb;
        });
        // 18 outputs in the wanted codes' arena, 8 in another, 2 in plain arrays.
        const place = (r: number) => (r < 18 ? 0 : r < 26 ? 1 : 2);
        const outs = Array.from({ length: 28 }, (_, r) => {
          const k = place(r);
          const at = 64 * 1024 + (r % 18) * n;
          const out = k === 2 ? new Uint8Array(n) : (pages[k] as Uint8Array).subarray(at, at + n);
          out.set(w);
          for (let f = 0; f < r % 4; f++) out[(r * 977 + f * 131) % n]! ^= 1 << f;
          return out;
        });
        const naive = outs.map((out) => countWrong(Uint8Array.from(out), Uint8Array.from(w), dtypeOf(eb)));
        const counted: number[] = [];
        const got = wasmCountWrongMany(
          w,
          outs.length,
          (r) => outs[r] as Uint8Array,
          eb,
          new Map(),
          (r, out) => {
            counted.push(r);
            return countWrong(out, Uint8Array.from(w), dtypeOf(eb));
          },
        );
        expect(got, `${eb}-byte elements × ${n / eb}`).toEqual(naive);
        expect(naive.some((c) => c > 0)).toBe(true);
        expect(counted).toEqual([26, 27]);
      }
    }
    for (const a of arenas) a.release();
  });
});

describe("sparse exact data's draws", () => {
  /** The definition: element i is drawn where (phase + i) mod ranks < nonzero. */
  const byLoop = ({ len, phase, nonzero, ranks }: SparsePattern) => {
    let n = 0;
    for (let i = 0; i < len; i++) if ((phase + i) % ranks < nonzero) n++;
    return n;
  };
  it("counts what the pattern's definition counts, whatever the phase and tail", () => {
    for (const ranks of [1, 2, 3, 7, 16, 33])
      for (let nonzero = 0; nonzero <= ranks; nonzero++)
        for (let phase = 0; phase < ranks; phase++)
          for (const len of [0, 1, ranks - 1, ranks, 3 * ranks + 5, 1000]) {
            const pattern = { len, phase, nonzero, ranks };
            expect(sparseDraws(pattern), JSON.stringify(pattern)).toBe(byLoop(pattern));
          }
  });
  it("refuses a pattern out of range with the field named, before drawing", () => {
    const table = WasmCodeDraw.load(new Uint8Array(256), 1, 128) as WasmCodeDraw;
    const spread = (p: Partial<SparsePattern>) => () =>
      table.drawSparse(new SrStream(1), 1, { len: 64, phase: 0, nonzero: 1, ranks: 4, ...p });
    expect(spread({ ranks: 0 })).toThrow(
      new FieldError("SparsePattern", "ranks", 0, "an integer 1..2147483647"),
    );
    expect(spread({ phase: 4 })).toThrow(/SparsePattern\(phase\): 4 is out of range: an integer 0\.\.3/);
    expect(spread({ nonzero: 5 })).toThrow(/SparsePattern\(nonzero\): 5 is out of range: an integer 0\.\.4/);
    expect(spread({ len: 1.5 })).toThrow(/SparsePattern\(len\)/);
    expect(spread({ len: table.blockElements + 1 })).toThrow(/WasmCodeDraw\.drawSparse\(len\)/);
  });
});
