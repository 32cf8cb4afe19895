/**
 * The host → device remaps of libnrt tdrv/helper.c: kbin op → SDMA_CCETYPE and kbin dtype → SDMA
 * dtype, each a table lookup gated by an assert (seed 000 §1.1, §1.2).
 */
import { SdmaAssertError } from "../../bits/errors.js";
import type { Dtype } from "../../spec/dtype.js";
import type { SdmaCceType } from "../../spec/enums.js";
import { CSWTCH_19, CSWTCH_21 } from "../../spec/tables.js";

/** The source file libnrt's helper asserts name. */
export const HELPER_C = "tdrv/helper.c";

/**
 * libnrt kbin_cce_op_to_sdma_cce_op @0x2664c0, seed 000 §1.1: CSWTCH.21[op − 1] for op ∈ {FMA, ADD,
 * MIN, MAX}; COPY, TRANSPOSE and anything else trip the assert at helper.c:0x1C0.
 * @throws SdmaAssertError (tdrv/helper.c:0x1C0, "Unsupported CCE Op! %u").
 * @example kbinCceOpToSdmaCceOp(KbinDmaDescOp.ADD) // SdmaCceType.ADD (0)
 */
export function kbinCceOpToSdmaCceOp(op: number): SdmaCceType {
  const hit = Number.isInteger(op) && op >= 1 ? CSWTCH_21[op - 1] : undefined;
  if (hit === undefined) {
    throw new SdmaAssertError(
      HELPER_C,
      0x1c0,
      "kbin_cce_op_to_sdma_cce_op",
      `Unsupported CCE Op! ${op >>> 0}`,
    );
  }
  return hit as SdmaCceType;
}

/**
 * libnrt kbin_dtype_to_sdma_dtype @0x266460, seed 000 §1.2: CSWTCH.19[d − 1] for d ∈ [1, 15]
 * (the table's values are MODEL identity, spec/tables.ts); anything else asserts at helper.c:0x1AF.
 * @throws SdmaAssertError (tdrv/helper.c:0x1AF, "Unsupported data type!").
 * @example kbinDtypeToSdmaDtype(Dtype.BFLOAT16) // 6
 */
export function kbinDtypeToSdmaDtype(dtype: number): Dtype {
  const hit = Number.isInteger(dtype) && dtype >= 1 ? CSWTCH_19[dtype - 1] : undefined;
  if (hit === undefined) {
    throw new SdmaAssertError(HELPER_C, 0x1af, "kbin_dtype_to_sdma_dtype", "Unsupported data type!");
  }
  return hit as Dtype;
}
