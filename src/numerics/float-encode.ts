import { BF16_FORMAT, type NarrowFloatFormat } from "./float-formats.js";
import type { OverflowPolicy, Rounding } from "./rounding.js";
import type { RandomSource } from "./sr-stream.js";

const F32_INF_BITS = 0x7f800000;

/** The magnitude code an overflow (or an infinite input) becomes under each policy. */
export function overflowCodes(
  fmt: NarrowFloatFormat,
  policy: OverflowPolicy,
): { readonly finite: number; readonly inf: number } {
  // Made once per format: the kernels ask for every packet, and a fresh object each time shows.
  let byPolicy = OVERFLOW_CODES.get(fmt);
  if (byPolicy === undefined) {
    byPolicy = {
      ieee: { finite: fmt.infCode, inf: fmt.infCode },
      nan: { finite: fmt.nanCode, inf: fmt.infCode },
      satfinite: { finite: fmt.maxCode, inf: fmt.maxCode },
    };
    OVERFLOW_CODES.set(fmt, byPolicy);
  }
  return byPolicy[policy];
}
const OVERFLOW_CODES = new Map<
  NarrowFloatFormat,
  Readonly<Record<OverflowPolicy, { readonly finite: number; readonly inf: number }>>
>();

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
 *
 * Speed: bf16 runs a specialised loop (below); `specialised = false` forces the generic one, so
 * that tests can hold the two equal bit for bit. encodeFromF32 runs the wasm SIMD twins
 * (wasm/kernels.wat) first, for 64 elements or more; these loops are their reference.
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
  specialised = true,
): void {
  const { finite, inf } = overflowCodes(fmt, overflow);
  const rng = rounding.mode === "sr" ? rounding.rng : undefined;
  // Chunks bound the random-word scratch; every element still draws exactly one word, in order.
  for (let done = 0; done < count; done += CHUNK) {
    const n = count - done < CHUNK ? count - done : CHUNK;
    const from = srcOffset + done;
    const to = outOffset + done;
    if (rng !== undefined) drawWords(rng, RANDOM, n);
    if (specialised && fmt === BF16_FORMAT) {
      encodeBf16(bits, from, n, out as Uint16Array, to, rng !== undefined, finite, inf);
    } else {
      encodeGeneric(fmt, bits, from, n, out, to, rng !== undefined, finite, inf);
    }
  }
}

/** Elements per chunk of {@link encodeNarrowFloat}: 16 KiB of random words, cache resident. */
const CHUNK = 4096;
const RANDOM = new Uint32Array(CHUNK);

/** words[0, n) ← the next n words of rng (its bulk fill when it has one). */
function drawWords(rng: RandomSource, words: Uint32Array, n: number): void {
  if (rng.fillU32 !== undefined) rng.fillU32(words, n);
  else for (let i = 0; i < n; i++) words[i] = rng.nextU32();
}

/**
 * bf16, specialised: bf16 has FP32's exponent range, so FP32 subnormals, normals and the carry
 * into inf all round by the same add-and-shift on the magnitude (the generic path with rebias 0
 * and droppedBits 16, every branch that cannot fire for bf16 removed). RNE adds half an ulp
 * minus one plus the kept LSB; SR adds the top 16 bits of the element's word.
 */
function encodeBf16(
  bits: Uint32Array,
  from: number,
  n: number,
  out: Uint16Array,
  to: number,
  sr: boolean,
  overflowCode: number,
  infInputCode: number,
): void {
  for (let i = 0; i < n; i++) {
    const u = bits[from + i]!;
    const a = u & 0x7fffffff;
    let code = (a + (sr ? RANDOM[i]! >>> 16 : 0x7fff + ((a >>> 16) & 1))) >>> 16;
    if (code >= BF16_INF) {
      code = a < F32_INF_BITS ? overflowCode : a === F32_INF_BITS ? infInputCode : BF16_NAN;
    }
    out[to + i] = ((u >>> 16) & 0x8000) | code;
  }
}

const BF16_INF = 0x7f80;
const BF16_NAN = 0x7fc0;

/** Every other format: RANDOM[0, n) holds the elements' words when `sr`. */
function encodeGeneric(
  fmt: NarrowFloatFormat,
  bits: Uint32Array,
  from: number,
  n: number,
  out: Uint8Array | Uint16Array,
  to: number,
  sr: boolean,
  overflowCode: number,
  infInputCode: number,
): void {
  const { infCode, nanCode, droppedBits } = fmt;
  const signShift = fmt.widthBits - 1;
  // FP32 exponent field of the format's smallest normal, and the rebias that maps FP32 bits of a
  // value in the format's normal range onto the format's bits (still `droppedBits` too wide).
  const minNormalField = 128 - fmt.bias;
  const minNormalBits = minNormalField << 23;
  const rebias = (127 - fmt.bias) << 23;
  const randomShift = 32 - droppedBits;
  const halfUlpMinusOne = (1 << (droppedBits - 1)) - 1;
  for (let i = 0; i < n; i++) {
    const u = bits[from + i]!;
    const random = sr ? RANDOM[i]! >>> randomShift : 0;
    const a = u & 0x7fffffff;
    let code: number;
    if (a >= minNormalBits && a < F32_INF_BITS) {
      // The common case: a result in the normal range (or an overflow), one add and one shift.
      const x = a - rebias;
      code = (x + (sr ? random : halfUlpMinusOne + ((x >>> droppedBits) & 1))) >>> droppedBits;
      if (code >= infCode) code = overflowCode;
    } else if (a >= F32_INF_BITS) {
      code = a === F32_INF_BITS ? infInputCode : nanCode;
    } else {
      code = roundBelowNormal(a, droppedBits + minNormalField - 1, !sr, random, droppedBits);
    }
    out[to + i] = ((u >>> 31) << signShift) | code;
  }
}
