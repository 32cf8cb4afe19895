// The fused multiply-add against APFloat fusedMultiplyAdd, including constructed double-rounding cases.
import { describe, expect, it } from "vitest";
import { aluFma, fmaF32 } from "../../src/numerics/index.js";
import { hexWords, loadVectors, mismatches, sameAluF32, sameF32 } from "./vectors.js";

const file = loadVectors("fma");
const a = new Float32Array(hexWords(file, "a").buffer);
const b = new Float32Array(hexWords(file, "b").buffer);
const c = new Float32Array(hexWords(file, "c").buffer);
const expected = hexWords(file, "expected");
const bitsOf = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0]!;
const bitsToF32 = (u: number) => new Float32Array(Uint32Array.of(u).buffer)[0]!;

describe("fmaF32", () => {
  it("the GROUND_TRUTH counterexample: a·b + c rounds once to 1 + 2^-23", () => {
    const [x, y, z] = [(1 + 2 ** -23) * 2 ** -12, (2 - 2 ** -22) * 2 ** -13, 1 + 2 ** -23]; // 0x1.000002p-12, 0x1.fffffcp-13
    expect(Math.fround(x * y + z)).toBe(1 + 2 ** -22); // the double-rounded answer
    expect(fmaF32(x, y, z)).toBe(1 + 2 ** -23);
  });

  it("the vectors contain ≥ 10k cases, thousands of them double-rounding traps", () => {
    expect(expected.length).toBeGreaterThanOrEqual(10_000);
    let traps = 0;
    for (let i = 0; i < expected.length; i++) {
      if (!sameF32(bitsOf(Math.fround(a[i]! * b[i]! + c[i]!)), expected[i]!)) traps++;
    }
    expect(traps).toBeGreaterThan(1000);
  });

  it("matches APFloat fusedMultiplyAdd bit for bit on every case", () => {
    // A NaN result's sign is open (IEEE 754); the ALU fixes it, the scalar function does not.
    const isNaNResult = (x: number, e: number) =>
      Number.isNaN(x) ? Number.isNaN(bitsToF32(e)) : bitsOf(x) === e;
    const bad = [...a.keys()].filter((i) => !isNaNResult(fmaF32(a[i]!, b[i]!, c[i]!), expected[i]!));
    expect(bad.slice(0, 5)).toEqual([]);
  });
});

describe("aluFma", () => {
  it("acc' = src·scale + acc with one rounding, vectorised (scale broadcast)", () => {
    // One element per call so that each case's b plays the per-source scale.
    const acc = Float32Array.from(c);
    for (let i = 0; i < acc.length; i++) aluFma(acc.subarray(i, i + 1), a.subarray(i, i + 1), b[i]!, 1);
    expect(mismatches(new Uint32Array(acc.buffer), expected, sameAluF32)).toEqual([]);
  });

  it("the weighted average of seed 000 §9.2: 0.5·s0 + 0.5·s1", () => {
    const acc = new Float32Array(3).fill(-0);
    aluFma(acc, Float32Array.of(1, 3, -0), 0.5, 3);
    aluFma(acc, Float32Array.of(2, 5, -0), 0.5, 3);
    expect([...acc]).toEqual([1.5, 4, -0]);
    expect(Object.is(acc[2], -0)).toBe(true);
  });
});
