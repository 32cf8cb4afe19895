import type { WordArray } from "./byte-views.js";

/*
 * MODEL — FP32 to an integer dtype: round to nearest, ties to even; then saturate to the
 * dtype's range (±inf included); NaN → 0. The seeds and public docs are silent (integer
 * collectives are converted to FP32 by the compiler); this is the x86 `cvtps2dq` rounding with
 * the saturation of CUDA's `__float2int_rn` and ml_dtypes' NaN → 0, chosen so that no input
 * wraps around. Stochastic rounding does not apply to integer destinations (the public docs
 * describe SR for FP32 → FP16/BF16/FP8 only).
 */

const TWO_POW_23 = 8388608;
const TWO_POW_52 = 4503599627370496;
const TWO_POW_32 = 4294967296;

/** RNE to an integer, for an FP32 value (already integral when |x| ≥ 2^23). */
function roundHalfEven(x: number): number {
  const ax = Math.abs(x);
  if (ax >= TWO_POW_23) return x;
  // Adding 2^52 in double arithmetic leaves no fraction bits: the add itself rounds ties-to-even.
  const r = ax + TWO_POW_52 - TWO_POW_52;
  return x < 0 ? -r : r;
}

/** The integer the MODEL policy gives for x, clamped to [min, max]; NaN → 0. */
function toSaturatedInt(x: number, min: number, max: number): number {
  if (Number.isNaN(x)) return 0;
  const r = roundHalfEven(x);
  return r < min ? min : r > max ? max : r;
}

/** FP32 to an integer dtype of up to 32 bits whose range is [min, max]. */
export function encodeSmallInt(
  src: Float32Array,
  srcOffset: number,
  count: number,
  out: WordArray,
  outOffset: number,
  min: number,
  max: number,
): void {
  for (let i = 0; i < count; i++) out[outOffset + i] = toSaturatedInt(src[srcOffset + i]!, min, max);
}

// An FP32 value ≥ 2^63 (resp. 2^64) saturates; every FP32 integer below is exact in a double.
const INT64_MIN = -(2 ** 63);
const INT64_MAX_PLUS_ONE = 2 ** 63;
const UINT64_MAX_PLUS_ONE = 2 ** 64;

/** FP32 to 64-bit integers, written as `count` little-endian (lo, hi) word pairs. */
export function encodeInt64(
  src: Float32Array,
  srcOffset: number,
  count: number,
  words: Uint32Array,
  signed: boolean,
): void {
  for (let i = 0; i < count; i++) {
    const x = src[srcOffset + i]!;
    let lo: number;
    let hi: number;
    if (x >= (signed ? INT64_MAX_PLUS_ONE : UINT64_MAX_PLUS_ONE)) {
      lo = 0xffffffff;
      hi = signed ? 0x7fffffff : 0xffffffff;
    } else {
      const r = toSaturatedInt(x, signed ? INT64_MIN : 0, Number.POSITIVE_INFINITY);
      hi = Math.floor(r / TWO_POW_32); // exact: r has at most 24 significant bits
      lo = r - hi * TWO_POW_32;
    }
    words[2 * i] = lo;
    words[2 * i + 1] = hi; // a negative hi stores as its two's complement
  }
}
