// The CCE ALU: ADD, MIN / MAX with their MODEL NaN and signed-zero rules, the constant clamp,
// identities, accumulator dtype, and a bf16-in / FP32-accumulate / bf16-out reduce.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  aluAccumulatorDtype,
  aluAdd,
  aluClamp,
  aluConstantToF32,
  aluFma,
  aluIdentity,
  aluMax,
  aluMin,
  decodeToF32,
  encodeFromF32,
} from "../../src/numerics/index.js";
import { Dtype } from "../../src/spec/index.js";

const bits = (a: Float32Array) => [...new Uint32Array(a.buffer, a.byteOffset, a.length)];
const f32 = fc.float({ noDefaultInfinity: false });

describe("ADD", () => {
  it("is the correctly rounded FP32 sum (property: equals fround of the exact double sum)", () => {
    fc.assert(
      fc.property(f32, f32, (x, y) => {
        const acc = Float32Array.of(x);
        aluAdd(acc, Float32Array.of(y), 1);
        const expected = Math.fround(x + y);
        return Number.isNaN(expected) ? bits(acc)[0] === 0x7fc00000 : Object.is(acc[0], expected);
      }),
    );
  });

  it("seed 000 §9.1: three bf16 sources, FP32 accumulate, bf16 out", () => {
    const sources = [
      [1, 2 ** -8, 3],
      [2 ** -8, 1, -3],
      [2 ** -8, 2 ** -8, 0.5],
    ];
    const acc = new Float32Array(3).fill(aluIdentity("add"));
    const scratch = new Float32Array(3);
    for (const src of sources) {
      const bytes = new Uint8Array(6);
      encodeFromF32(Dtype.BFLOAT16, Float32Array.from(src), 0, 3, bytes, 0);
      decodeToF32(Dtype.BFLOAT16, bytes, 0, 3, scratch);
      aluAdd(acc, scratch, 3);
    }
    // 1 + 2^-8 + 2^-8 = 1 + 2^-7 is exact in FP32 and in bf16; summed in bf16 it would be 1.
    expect([...acc]).toEqual([1 + 2 ** -7, 1 + 2 ** -7, 0.5]);
    const out = new Uint8Array(6);
    encodeFromF32(Dtype.BFLOAT16, acc, 0, 3, out, 0);
    expect([...new Uint16Array(out.buffer)]).toEqual([0x3f81, 0x3f81, 0x3f00]);
  });

  it("starting from the identity −0 keeps the sign of a −0 source", () => {
    const acc = new Float32Array(1).fill(aluIdentity("add"));
    aluAdd(acc, Float32Array.of(-0), 1);
    expect(Object.is(acc[0], -0)).toBe(true);
  });
});

describe("MIN / MAX: IEEE 754-2019 minimum / maximum (MODEL)", () => {
  it("a NaN operand gives the canonical NaN 0x7fc00000", () => {
    const acc = Float32Array.of(1, Number.NaN, 3);
    aluMin(acc, Float32Array.of(Number.NaN, 2, 1), 3);
    expect(bits(acc)).toEqual([0x7fc00000, 0x7fc00000, 0x3f800000]);
    const acc2 = Float32Array.of(1, Number.NaN);
    aluMax(acc2, Float32Array.of(new Float32Array(Uint32Array.of(0xff800001).buffer)[0]!, 0), 2);
    expect(bits(acc2)).toEqual([0x7fc00000, 0x7fc00000]);
  });

  it("−0 < +0 in both orders", () => {
    const lo = Float32Array.of(0, -0);
    aluMin(lo, Float32Array.of(-0, 0), 2);
    expect(bits(lo)).toEqual([0x80000000, 0x80000000]);
    const hi = Float32Array.of(0, -0);
    aluMax(hi, Float32Array.of(-0, 0), 2);
    expect(bits(hi)).toEqual([0, 0]);
  });

  it("the identities ±inf load the first source unchanged", () => {
    const values = Float32Array.of(-0, 5, Number.NEGATIVE_INFINITY, 1e-45);
    for (const op of ["min", "max"] as const) {
      const acc = new Float32Array(4).fill(aluIdentity(op));
      (op === "min" ? aluMin : aluMax)(acc, values, 4);
      expect(bits(acc)).toEqual(bits(values));
    }
  });

  it("the constant clamp joins the reduction: max with 0 is a ReLU", () => {
    const acc = Float32Array.of(-2, 0.5, -0, Number.NaN);
    aluClamp("max", acc, 0, 4);
    expect(bits(acc)).toEqual([0, 0x3f000000, 0, 0x7fc00000]);
    const acc2 = Float32Array.of(7, -7);
    aluClamp("min", acc2, aluConstantToF32(Dtype.INT32, 3), 2);
    expect([...acc2]).toEqual([3, -7]);
  });
});

describe("constants and the accumulator", () => {
  it("MIN/MAX constants: fp32 bits, int32, uint32 (rounded once to FP32)", () => {
    expect(aluConstantToF32(Dtype.FP32, 0x3f800000)).toBe(1);
    expect(aluConstantToF32(Dtype.INT32, 0xffffffff)).toBe(-1);
    expect(aluConstantToF32(Dtype.UINT32, 0xffffffff)).toBe(2 ** 32);
    expect(aluConstantToF32(Dtype.INT32, 0x01000001)).toBe(2 ** 24);
    expect(() => aluConstantToF32(Dtype.BFLOAT16, 0)).toThrow(/alu\(constant_dtype\)/);
  });

  it("MODEL: the accumulator is FP32 whatever the accum nibble names; bad codes throw", () => {
    for (let dt = 1; dt <= 15; dt++) expect(aluAccumulatorDtype(dt)).toBe(Dtype.FP32);
    expect(() => aluAccumulatorDtype(0)).toThrow(/alu\(accum_dtype\): 0 is out of range 1..15/);
    expect(() => aluAccumulatorDtype(16)).toThrow(/accum_dtype/);
  });

  it("int32 data accumulates in FP32 (exact below 2^24) and converts back with RNE + saturation", () => {
    const a = new Uint8Array(new Int32Array([2 ** 24, 2 ** 31 - 1, -5]).buffer);
    const b = new Uint8Array(new Int32Array([1, 2 ** 31 - 1, 2]).buffer);
    const acc = new Float32Array(3);
    const scratch = new Float32Array(3);
    decodeToF32(Dtype.INT32, a, 0, 3, acc);
    decodeToF32(Dtype.INT32, b, 0, 3, scratch);
    aluAdd(acc, scratch, 3);
    const out = new Uint8Array(12);
    encodeFromF32(Dtype.INT32, acc, 0, 3, out, 0);
    expect([...new Int32Array(out.buffer)]).toEqual([2 ** 24, 2 ** 31 - 1, -3]);
  });

  it("kernels refuse a count past an array", () => {
    expect(() => aluAdd(new Float32Array(2), new Float32Array(1), 2)).toThrow(
      /aluAdd\(count\): 2 is out of range 0..1/,
    );
    expect(() => aluFma(new Float32Array(2), new Float32Array(2), 1, -1)).toThrow(/aluFma\(count\)/);
  });
});
