import type { NarrowFloatFormat } from "./float-formats.js";
import type { OverflowPolicy, Rounding } from "./rounding.js";

const F32_INF_BITS = 0x7f800000;

/** The magnitude code an overflow (or an infinite input) becomes under each policy. */
function overflowCodes(fmt: NarrowFloatFormat, policy: OverflowPolicy): { finite: number; inf: number } {
  switch (policy) {
    case "ieee":
      return { finite: fmt.infCode, inf: fmt.infCode };
    case "nan":
      return { finite: fmt.nanCode, inf: fmt.infCode };
    case "satfinite":
      return { finite: fmt.maxCode, inf: fmt.maxCode };
  }
}

/**
 * Round the magnitude `a` (FP32 bits, below the format's smallest normal) to a code: the 24-bit
 * significand shifted right by `droppedBits` plus the binades it lies below the smallest normal.
 * `shiftAtField1` is that shift for an FP32 exponent field of 1.
 */
function roundBelowNormal(
  a: number,
  shiftAtField1: number,
  rne: boolean,
  random: number,
  droppedBits: number,
): number {
  const field = a >>> 23;
  const x = field === 0 ? a : (a & 0x7fffff) | 0x800000;
  const shift = shiftAtField1 - (field === 0 ? 0 : field - 1);
  // x < 2^24, so for shift ≥ 25 x / 2^shift < 1/2: RNE gives zero, and SR truncates x away.
  if (rne) return shift >= 25 ? 0 : (x + (1 << (shift - 1)) - 1 + ((x >>> shift) & 1)) >>> shift;
  const below = shift - droppedBits; // bits truncated under the random window
  return ((below >= 25 ? 0 : x >>> below) + random) >>> droppedBits;
}

/**
 * Round FP32 values (given as their bits) into a narrow float, writing codes to `out`.
 *
 * Works on the magnitude as an integer and restores the sign last. A value the format holds as a
 * normal number is rebiased in place (subtracting the exponent difference from the FP32 bits
 * keeps the mantissa where it is), so a rounding carry walks from the mantissa into the exponent
 * and, at the largest finite, into the inf code. A value below the format's smallest normal is
 * taken as the 24-bit significand and shifted further right by the binades it lies below.
 *
 * RNE adds half an ulp minus one plus the kept LSB, then truncates.
 *
 * MODEL — stochastic rounding adds n = 23 − manBits random bits (the top n bits of one 32-bit
 * draw per element, drawn for every element in order, NaN and exact values included, so the
 * stream position depends only on the element count) just below the kept LSB, then truncates.
 * For a result in the normal range these n bits are exactly the dropped bits, so the value
 * rounds up with probability δ, δ the dropped fraction of an ulp. Below the smallest normal more
 * than n bits are dropped: the bits under the random window are truncated first, so there the
 * probability is floor(δ·2^n)/2^n.
 *
 * NaN becomes the format's canonical quiet NaN with the input's sign (MODEL: the payload is not
 * kept; libraries differ, the vectors compare "is NaN + sign").
 */
export function encodeNarrowFloat(
  fmt: NarrowFloatFormat,
  bits: Uint32Array,
  srcOffset: number,
  count: number,
  out: Uint8Array | Uint16Array,
  outOffset: number,
  rounding: Rounding,
  overflow: OverflowPolicy,
): void {
  const { finite: overflowCode, inf: infInputCode } = overflowCodes(fmt, overflow);
  const { infCode, nanCode, droppedBits } = fmt;
  const signShift = fmt.widthBits - 1;
  // FP32 exponent field of the format's smallest normal, and the rebias that maps FP32 bits of a
  // value in the format's normal range onto the format's bits (still `droppedBits` too wide).
  const minNormalField = 128 - fmt.bias;
  const minNormalBits = minNormalField << 23;
  const rebias = (127 - fmt.bias) << 23;
  const rng = rounding.mode === "sr" ? rounding.rng : undefined;
  const randomShift = 32 - droppedBits;
  const halfUlpMinusOne = (1 << (droppedBits - 1)) - 1;
  for (let i = 0; i < count; i++) {
    const u = bits[srcOffset + i]!;
    const random = rng === undefined ? 0 : rng.nextU32() >>> randomShift;
    const a = u & 0x7fffffff;
    let code: number;
    if (a >= minNormalBits && a < F32_INF_BITS) {
      // The common case: a result in the normal range (or an overflow), one add and one shift.
      const x = a - rebias;
      code = (x + (rng === undefined ? halfUlpMinusOne + ((x >>> droppedBits) & 1) : random)) >>> droppedBits;
      if (code >= infCode) code = overflowCode;
    } else if (a >= F32_INF_BITS) {
      code = a === F32_INF_BITS ? infInputCode : nanCode;
    } else {
      code = roundBelowNormal(a, droppedBits + minNormalField - 1, rng === undefined, random, droppedBits);
    }
    out[outOffset + i] = ((u >>> 31) << signShift) | code;
  }
}
