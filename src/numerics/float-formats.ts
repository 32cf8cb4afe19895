import { DTYPES, Dtype } from "../spec/dtype.js";

/**
 * The five narrow binary floating-point formats the CCE reads and writes. All five are IEEE-like:
 * exponent field all-ones means inf (mantissa 0) or NaN (mantissa ≠ 0), subnormals exist, zero is
 * signed. FP8_E4 is that IEEE-like e4m3 (max 240 = 0x77, inf 0x78), not OCP e4m3fn
 * (../shared/GROUND_TRUTH.md "Numbers and dtypes").
 */
export interface NarrowFloatFormat {
  readonly dtype: Dtype;
  readonly name: string;
  readonly widthBits: 8 | 16;
  readonly expBits: number;
  readonly manBits: number;
  /** Exponent bias: value = 2^(field − bias) · 1.m for a normal number. */
  readonly bias: number;
  /** The code of +inf: exponent all ones, mantissa zero. */
  readonly infCode: number;
  /** The code of +max finite: infCode − 1. */
  readonly maxCode: number;
  /** The code of the canonical quiet NaN (exponent all ones, top mantissa bit), sign clear. */
  readonly nanCode: number;
  /** The sign bit of a code. */
  readonly signBit: number;
  /** FP32 mantissa bits dropped when rounding a normal FP32 value into this format: 23 − manBits. */
  readonly droppedBits: number;
}

/** A narrow format from its dtype row (spec/dtype.ts DTYPES): name and exponent / mantissa widths. */
function format(dtype: Dtype): NarrowFloatFormat {
  const row = DTYPES[dtype];
  if (row?.float === undefined) throw new Error(`spec/dtype: ${dtype} has no narrow float format`);
  const { name } = row;
  const { expBits, manBits } = row.float;
  const widthBits = (1 + expBits + manBits) as 8 | 16;
  const infCode = ((1 << expBits) - 1) << manBits;
  return {
    dtype,
    name,
    widthBits,
    expBits,
    manBits,
    bias: (1 << (expBits - 1)) - 1,
    infCode,
    maxCode: infCode - 1,
    nanCode: infCode | (1 << (manBits - 1)),
    signBit: 1 << (widthBits - 1),
    droppedBits: 23 - manBits,
  };
}

export const BF16_FORMAT = format(Dtype.BFLOAT16);
export const FP16_FORMAT = format(Dtype.FP16);
export const E3M4_FORMAT = format(Dtype.FP8_E3);
export const E4M3_FORMAT = format(Dtype.FP8_E4);
export const E5M2_FORMAT = format(Dtype.FP8_E5);

const FORMAT_BY_DTYPE: ReadonlyMap<Dtype, NarrowFloatFormat> = new Map(
  [BF16_FORMAT, FP16_FORMAT, E3M4_FORMAT, E4M3_FORMAT, E5M2_FORMAT].map((f) => [f.dtype, f]),
);

/** The narrow float format of a dtype, or undefined for FP32 and the integer dtypes. */
export function narrowFloatFormat(dt: Dtype): NarrowFloatFormat | undefined {
  return FORMAT_BY_DTYPE.get(dt);
}
