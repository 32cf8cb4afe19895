import type { WordArray } from "./byte-views.js";

/**
 * Integers of up to 32 bits to FP32. The element is exact as a JS number, so storing it into the
 * Float32Array rounds once, to nearest even: exact up to 2^24, correctly rounded above.
 */
export function decodeSmallInt(codes: WordArray, out: Float32Array, outOffset: number, count: number): void {
  for (let i = 0; i < count; i++) out[outOffset + i] = codes[i]!;
}

const TWO_POW_32 = 4294967296;

/**
 * A 64-bit integer (little-endian word pair) to FP32 with one correct rounding. `Number(bigint)`
 * would round to 53 bits first and then to 24: a double rounding (2^60 + 2^36 + 1 gives 2^60,
 * correct is 2^60 + 2^37). Here, for magnitudes ≥ 2^53, the bits below bit 11 are jammed into
 * bit 11 (round to odd at ≥ 43 bits), which keeps the double exact and the final RNE to 24
 * bits correct (round-to-odd then RNE is exact when the first precision is ≥ the second + 2).
 */
function int64ToF32(lo: number, hi: number, signed: boolean): number {
  const negative = signed && hi >= 0x80000000;
  if (negative) {
    // Two's complement negation of the 64-bit word pair; −2^63 stays 0x8000…0 = 2^63 unsigned.
    lo = (~lo + 1) >>> 0;
    hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
  }
  if (hi >= 0x200000) lo = (lo & 0xfffff800) | (lo & 0x7ff ? 0x800 : 0);
  const magnitude = Math.fround(hi * TWO_POW_32 + (lo >>> 0));
  return negative ? -magnitude : magnitude;
}

/** 64-bit integers, given as `count` little-endian (lo, hi) word pairs, to FP32. */
export function decodeInt64(
  words: Uint32Array,
  signed: boolean,
  out: Float32Array,
  outOffset: number,
  count: number,
): void {
  for (let i = 0; i < count; i++) out[outOffset + i] = int64ToF32(words[2 * i]!, words[2 * i + 1]!, signed);
}
