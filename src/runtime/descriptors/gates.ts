/**
 * The libnrt CCE gates and limits of seed 000 §7: the NC-v1 in/out dtype class gate, the per-arch
 * element cap and the priority-capped, 32-byte-granular reduce packet size.
 */
import { FieldError, SdmaAssertError } from "../../bits/errors.js";
import { SDMA_DATA_TYPE_SIZE } from "../../spec/dtype.js";
import { MAX_CCE_ELEMENTS } from "../../spec/tables.js";

/**
 * libnrt has_valid_dma_cce_inout_dtype_nc_v1 @0x280820, seed 000 §7.2: for a compute op, in and out
 * dtype must both lie in the 32-bit band [8..11] (int32, uint32, fp32, fp32r) or both outside it.
 * NC-v1 is not one of sdmakit's profiles, so the builders do not apply it (docs/FIDELITY.md).
 * @example hasValidDmaCceInoutDtypeNcV1(true, Dtype.BFLOAT16, Dtype.FP32) // false
 */
export function hasValidDmaCceInoutDtypeNcV1(computeOp: boolean, inDt: number, outDt: number): boolean {
  if (!computeOp) return true;
  const inBand = ((inDt - 8) & 0xff) <= 3;
  const outBand = ((outDt - 8) & 0xff) <= 3;
  return inBand === outBand;
}

/**
 * libnrt aws_hal_get_sdma_max_cce_elements @0x44be60, seed 000 §7.1: 1024 on arch 2, 2048 on 3 and 4.
 * @throws SdmaAssertError (line 0x2C) for any other arch.
 * @example awsHalGetSdmaMaxCceElements(ArchType.CAYMAN) // 2048
 */
export function awsHalGetSdmaMaxCceElements(arch: number): number {
  const max = MAX_CCE_ELEMENTS[arch as keyof typeof MAX_CCE_ELEMENTS];
  if (max === undefined) {
    throw new SdmaAssertError(
      "aws_hal_sdma.c",
      0x2c,
      "aws_hal_get_sdma_max_cce_elements",
      `arch ${arch} is 2, 3 or 4`,
    );
  }
  return max;
}

/** The slice of nrt_gconf() the reduce packet size reads: one cap per priority class (0 = no cap). */
export interface NrtGconf {
  readonly ccCceReducePrioPktSize: readonly [number, number, number, number, number];
}

/** MODEL: the seed does not give nrt_gconf's defaults; no class is capped. */
export const DEFAULT_GCONF: NrtGconf = { ccCceReducePrioPktSize: [0, 0, 0, 0, 0] };

/** The encd context fields encd_get_cce_reduce_packet_size reads. */
export interface EncdReduceContext {
  /** encd_get_ctx_curr_priority_class: 0..4. */
  readonly priorityClass: number;
  /** ctx + 0x18: elements of the reduce. */
  readonly elemCount: number;
}

/** The file the encd asserts name (the seed gives lines, not the file: MODEL name). */
export const ENCD_C = "tdrv/encd.c";

/**
 * libnrt encd_get_cce_reduce_packet_size @0x2396f0, seed 000 §7.1: min(dsz · elements, the class's
 * cap when non-zero), rounded down to 32 bytes.
 * @throws FieldError for a class or count that is not a u8 / non-negative integer.
 * @throws SdmaAssertError at line 0x1202 when the priority class is above 4, at 0x1204 when the
 * SDMA dtype has size 0 (fp32r, invalid).
 * @example encdGetCceReducePacketSize({ priorityClass: 0, elemCount: 100 }, Dtype.FP32) // 384
 */
export function encdGetCceReducePacketSize(
  ctx: EncdReduceContext,
  sdmaDtype: number,
  gconf: NrtGconf = DEFAULT_GCONF,
): number {
  const pc = ctx.priorityClass;
  if (!Number.isInteger(pc) || pc < 0 || pc > 0xff)
    throw new FieldError("encd-ctx", "priorityClass", pc, "0..255 (u8)");
  if (!Number.isInteger(ctx.elemCount) || ctx.elemCount < 0)
    throw new FieldError("encd-ctx", "elemCount", ctx.elemCount, "0..");
  if (pc > 4) throw new SdmaAssertError(ENCD_C, 0x1202, "encd_get_cce_reduce_packet_size", "pc <= 4");
  const cap = gconf.ccCceReducePrioPktSize[pc as 0 | 1 | 2 | 3 | 4];
  const dsz = SDMA_DATA_TYPE_SIZE[sdmaDtype] ?? 0;
  if (dsz === 0) throw new SdmaAssertError(ENCD_C, 0x1204, "encd_get_cce_reduce_packet_size", "dsz != 0");
  const want = dsz * ctx.elemCount;
  const pkt = cap && want > cap ? cap : want;
  return pkt - (pkt % 32);
}
