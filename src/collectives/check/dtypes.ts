/**
 * The dtypes a collective takes: every dtype the CCE accepts, i.e. all fifteen but fp32r, whose
 * sdma_data_type_size is 0 so encd_get_cce_reduce_packet_size asserts (seed 000 §1.2, §7.1);
 * the floats first, for the usage texts and the web page's list.
 */
import { didYouMean } from "../../bits/did-you-mean.js";
import { UsageError } from "../../bits/errors.js";
import { narrowFloatFormat } from "../../numerics/index.js";
import { DTYPES, type Dtype, type DtypeInfo, dtypeFromName, dtypeName } from "../../spec/index.js";

export const COLLECTIVE_DTYPES: readonly Dtype[] = DTYPES.filter(
  (r) => r.kind !== "invalid" && r.sdmaSize > 0,
)
  .sort((a, b) => Number(b.kind === "float") - Number(a.kind === "float"))
  .map((r) => r.code);

/**
 * A collective dtype by name. @throws UsageError naming the accepted names.
 * @example collectiveDtype("bf16"); // Dtype.BFLOAT16
 */
export function collectiveDtype(name: string): Dtype {
  const dt = dtypeFromName(name);
  if (dt === undefined || !COLLECTIVE_DTYPES.includes(dt)) {
    throw new UsageError(
      `dtype ${JSON.stringify(name)}: expected one of ${COLLECTIVE_DTYPES.map(dtypeName).join(", ")}${didYouMean(name, COLLECTIVE_DTYPES.map(dtypeName))}`,
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
  // Integers narrower than the FP32 significand are exact up to their own largest value.
  const { kind, dataSize } = DTYPES[dt] as DtypeInfo;
  if (dataSize > 2) return 2 ** 24;
  return 2 ** (8 * dataSize - (kind === "int" ? 1 : 0)) - 1;
}

/** True for dtypes without negative values. */
export function isUnsignedDtype(dt: Dtype): boolean {
  return DTYPES[dt]?.kind === "uint";
}
