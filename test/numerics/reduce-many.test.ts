// A three- or four-source ADD (a kangaring reduce) runs as one kernel when its sources and output
// share an arena with a reduce scratch (reduce.ts reduceMany → add3_<dt>, add4_<dt>) and gives the
// steps' bytes: the
// same reduce with its sources outside the arena (load, apply, apply-then-encode), NaN, ±inf, ±0
// and subnormals among the scrambled codes, the output apart or exactly on the first source.
import { describe, expect, it } from "vitest";
import {
  RNE,
  reduceInto,
  reserveReduceScratch,
  WasmArena,
  wasmKernelsRun,
} from "../../src/numerics/index.js";
import { keepAtHandUntilLetGo, letGoOfArenas } from "../../src/numerics/let-go.js";
import { Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";
import { scrambledCodes } from "../helpers/bytes.js";

const COUNT = 2048 + 5;

describe("a three- or four-source ADD reduce in one kernel = the steps", () => {
  for (const n of [3, 4])
    for (const dt of [Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E4, Dtype.FP32, Dtype.INT8])
      for (const inPlace of [false, true])
        it(`${n} sources, ${dtypeName(dt)}, output ${inPlace ? "on the first source" : "apart"}`, () => {
          const span = COUNT * dtypeBytes(dt);
          const codes = Array.from({ length: n }, (_, k) => scrambledCodes(span, 17 + k));
          const spanOf = (bytes: Uint8Array) => ({ dtype: dt, bytes, offset: 0, count: COUNT });
          const want = codes[0]!.slice();
          const steps = wasmKernelsRun(() =>
            reduceInto(
              "add",
              codes.map((c, k) => spanOf(k === 0 ? want : c.slice())),
              spanOf(want),
              {
                rounding: RNE,
                overflow: "satfinite",
              },
            ),
          );
          expect(steps).not.toContain(`add${n}_${dtypeName(dt)}`);
          const arena = new WasmArena((1 << 20) + 5 * span);
          const base = reserveReduceScratch(arena, 1 << 14, 1 << 16);
          const inArena = codes.map((c, k) => {
            const bytes = arena.u8(base + k * span, span);
            bytes.set(c);
            return bytes;
          });
          const out = inPlace ? (inArena[0] as Uint8Array) : arena.u8(base + 4 * span, span);
          const ran = wasmKernelsRun(() =>
            reduceInto("add", inArena.map(spanOf), spanOf(out), { rounding: RNE, overflow: "satfinite" }),
          );
          expect(ran).toEqual([`add${n}_${dtypeName(dt)}`]);
          expect(Buffer.compare(out, want)).toBe(0);
        });
});

describe("a one-source ADD reduce in one kernel (the source plus −0's codes) = the steps", () => {
  for (const dt of [
    Dtype.BFLOAT16,
    Dtype.FP16,
    Dtype.FP8_E4,
    Dtype.FP8_E5,
    Dtype.FP32,
    Dtype.INT8,
    Dtype.INT32,
  ])
    for (const inArena of [false, true])
      it(`${dtypeName(dt)}, source ${inArena ? "in the arena" : "outside it"}`, () => {
        const span = COUNT * dtypeBytes(dt);
        const codes = scrambledCodes(span, 41);
        const spanOf = (bytes: Uint8Array) => ({ dtype: dt, bytes, offset: 0, count: COUNT });
        const want = new Uint8Array(span);
        const options = { rounding: RNE, overflow: "satfinite" } as const;
        const steps = wasmKernelsRun(() => reduceInto("add", [spanOf(codes.slice())], spanOf(want), options));
        expect(steps).not.toContain(`add2_${dtypeName(dt)}`);
        const arena = new WasmArena((1 << 20) + 2 * span);
        const base = reserveReduceScratch(arena, 1 << 14, 1 << 16);
        const source = inArena ? arena.u8(base, span) : new Uint8Array(span);
        source.set(codes);
        const out = arena.u8(base + span, span);
        const ran = wasmKernelsRun(() => reduceInto("add", [spanOf(source)], spanOf(out), options));
        expect(ran).toEqual([`add2_${dtypeName(dt)}`]);
        expect(Buffer.compare(out, want)).toBe(0);
      });
});

describe("a one-source ADD after reduces that wrote the scratch's output buffer = the steps", () => {
  // reduce.ts fills the −0 codes once and reuses them until a reduce writes that buffer: a staged
  // output (the output outside the arena) or a second source copied there (both outside it); or
  // until the arena's owner lets go of it, before another thread may write its scratch (a shared
  // arena's slot). Only in an arena whose owner lets go (device memory's, a worker's adopted ones).
  const dt = Dtype.BFLOAT16;
  const options = { rounding: RNE, overflow: "satfinite" } as const;
  const spanOf = (bytes: Uint8Array, count: number) => ({ dtype: dt, bytes, offset: 0, count });
  const steps = (codes: Uint8Array, count: number) => {
    const want = new Uint8Array(codes.length);
    reduceInto("add", [spanOf(codes.slice(), count)], spanOf(want, count), options);
    return want;
  };
  /** The scratch's output buffer of reserveReduceScratch(arena, 1 << 14, 1 << 16) (reduce-scratch.ts). */
  const scratchOut = (arena: WasmArena) => arena.u8(2 * 4 * (1 << 14) + (1 << 16), 1 << 16);
  it.each([
    ["plain", false],
    ["shared", true],
  ])(
    "%s arena: after a staged output, a source copied there, a let-go, at a smaller and a larger count",
    (_, shared) => {
      const span = COUNT * dtypeBytes(dt);
      const arena = new WasmArena((1 << 20) + 3 * span, shared);
      keepAtHandUntilLetGo(arena.buffer);
      const base = reserveReduceScratch(arena, 1 << 14, 1 << 16);
      const source = arena.u8(base, span);
      const out = arena.u8(base + span, span);
      const other = arena.u8(base + 2 * span, span);
      const oneSource = (seed: number, count: number) => {
        const bytes = count * dtypeBytes(dt);
        source.set(scrambledCodes(bytes, seed));
        const ran = wasmKernelsRun(() =>
          reduceInto("add", [spanOf(source, count)], spanOf(out, count), options),
        );
        expect(ran).toEqual([`add2_${dtypeName(dt)}`]);
        const want = steps(source.subarray(0, bytes), count);
        expect(Buffer.compare(out.subarray(0, bytes), want)).toBe(0);
      };
      oneSource(1, COUNT);
      other.set(scrambledCodes(span, 2));
      // Sources in the arena, the output outside it: the result is staged in the scratch's output.
      reduceInto(
        "add",
        [spanOf(source, COUNT), spanOf(other, COUNT)],
        spanOf(new Uint8Array(span), COUNT),
        options,
      );
      oneSource(3, COUNT);
      // Both sources outside the arena, the output in it: the second source is copied there.
      const outside = [scrambledCodes(span, 4), scrambledCodes(span, 5)].map((c) => spanOf(c, COUNT));
      reduceInto("add", outside, spanOf(out, COUNT), options);
      oneSource(6, COUNT - 100);
      oneSource(7, COUNT);
      // Let go, then the scratch written as another thread taking the slot would.
      letGoOfArenas();
      scratchOut(arena).set(scrambledCodes(1 << 16, 8));
      oneSource(9, COUNT);
    },
  );
});
