/**
 * The dtypes a collective takes: every dtype the CCE accepts, i.e. all fifteen but fp32r, whose
 * sdma_data_type_size is 0 so encd_get_cce_reduce_packet_size asserts (seed 000 §1.2, §7.1).
 */
import { UsageError } from "../../bits/errors.js";
import { narrowFloatFormat } from "../../numerics/index.js";
import { Dtype, dtypeFromName, dtypeName } from "../../spec/dtype.js";

export const COLLECTIVE_DTYPES: readonly Dtype[] = [
  Dtype.BFLOAT16,
  Dtype.FP16,
  Dtype.FP32,
  Dtype.FP8_E3,
  Dtype.FP8_E4,
  Dtype.FP8_E5,
  Dtype.INT8,
  Dtype.UINT8,
  Dtype.INT16,
  Dtype.UINT16,
  Dtype.INT32,
  Dtype.UINT32,
  Dtype.INT64,
  Dtype.UINT64,
];

/**
 * A collective dtype by name. @throws UsageError naming the accepted names.
 * @example collectiveDtype("bf16"); // Dtype.BFLOAT16
 */
export function collectiveDtype(name: string): Dtype {
  const dt = dtypeFromName(name);
  if (dt === undefined || !COLLECTIVE_DTYPES.includes(dt)) {
    throw new UsageError(
      `dtype ${JSON.stringify(name)}: expected one of ${COLLECTIVE_DTYPES.map(dtypeName).join(", ")}`,
    );
  }
  return dt;
}

/**
 * The largest E such that every integer in [−E, E] (or [0, E], unsigned) is exact in the dtype, in
 * the FP32 accumulator, and finite: sums that stay inside it are exact in any order (nccl-tests).
 */
export function exactIntegerRange(dt: Dtype): number {
  const fmt = narrowFloatFormat(dt);
  if (fmt !== undefined) {
    const significand = 2 ** (fmt.manBits + 1);
    const maxFinite = 2 ** ((1 << fmt.expBits) - 2 - fmt.bias) * (2 - 2 ** -fmt.manBits);
    return Math.min(significand, Math.floor(maxFinite));
  }
  const limits: Partial<Record<Dtype, number>> = {
    [Dtype.INT8]: 127,
    [Dtype.UINT8]: 255,
    [Dtype.INT16]: 32767,
    [Dtype.UINT16]: 65535,
  };
  return limits[dt] ?? 2 ** 24;
}

/** True for dtypes without negative values. */
export function isUnsignedDtype(dt: Dtype): boolean {
  return dt === Dtype.UINT8 || dt === Dtype.UINT16 || dt === Dtype.UINT32 || dt === Dtype.UINT64;
}
