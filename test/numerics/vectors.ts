// Reads the golden vectors of test/vectors/ (made by tools/vectors/gen.cpp against LLVM APFloat).
import { readFileSync } from "node:fs";

export type VectorFile = Record<string, string | readonly (string | number)[]>;

export function loadVectors(name: string): VectorFile {
  return JSON.parse(readFileSync(new URL(`../vectors/${name}.json`, import.meta.url), "utf8")) as VectorFile;
}

/** An array of hex strings (or a key that must hold one) as unsigned integers. */
export function hexWords(file: VectorFile, key: string): Uint32Array {
  const v = file[key];
  if (!Array.isArray(v)) throw new Error(`vector key ${key} missing`);
  return Uint32Array.from(v, (h) => Number.parseInt(String(h), 16));
}

/** An array of hex strings wider than 32 bits as bigints. */
export function hexBigints(file: VectorFile, key: string): bigint[] {
  const v = file[key];
  if (!Array.isArray(v)) throw new Error(`vector key ${key} missing`);
  return v.map((h) => BigInt(`0x${h}`));
}

const isNaNBits = (b: number) => (b & 0x7fffffff) > 0x7f800000;

/** True when two FP32 bit patterns are equal, or are both NaN with the same sign (conversions). */
export function sameF32(actual: number, expected: number): boolean {
  if (isNaNBits(expected)) return isNaNBits(actual) && actual >>> 31 === expected >>> 31;
  return actual >>> 0 === expected >>> 0;
}

/** For ALU results: equal bits, or the ALU's canonical NaN 0x7fc00000 where the oracle has any NaN. */
export function sameAluF32(actual: number, expected: number): boolean {
  if (isNaNBits(expected)) return actual >>> 0 === 0x7fc00000;
  return actual >>> 0 === expected >>> 0;
}

/** Indices where `actual` and `expected` differ under `same`, at most `limit` of them, for messages. */
export function mismatches(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  same: (a: number, e: number) => boolean,
  limit = 5,
): number[] {
  const bad: number[] = [];
  for (let i = 0; i < expected.length && bad.length < limit; i++)
    if (!same(actual[i]!, expected[i]!)) bad.push(i);
  return bad;
}
