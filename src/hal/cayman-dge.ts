/**
 * The CAYMAN DGE / XT memcopy configuration that shares the transpose band (seed 003 §2 NOTE): the
 * engine → XT (Xtensa control core) map and the XT-local registers the DGE memcopy uses. Every write
 * goes through aws_reg_write_xt_local_reg, so it inherits that accessor's SUNDA silent no-op.
 */
import { FieldError } from "../bits/errors.js";
import { csrAccessor, csrWrite } from "./csr-accessors.js";
import type { HalDevice } from "./hal-device.js";

/** aws_hal_arch_eng_to_xt's "no XT" sentinel (seed 003 §2: 0..4 valid, 6 = invalid). */
export const XT_INVALID = 6;
/** Engines that have an XT: 0..4 (seed 003 §2). */
export const XT_ENGINE_COUNT = 5;

/** XT-local register index of the feature flag (aws_hal_cayman_tpb_xt_configure_feature_flag, seed 003 §2). */
export const XT_FEATURE_FLAG_REG = 38;

/** XT-local byte offsets of the DGE memcopy configuration (seed 003 §2, owned by arch-csr-offsets §3). */
export const DGE_MEMCOPY_OFFSETS = {
  memcopy_dmas: 0x13a0,
  memcopy_queues: 0x13c0,
  memcopy_all_queues: 0x13e0,
} as const;
export type DgeMemcopyRegister = keyof typeof DGE_MEMCOPY_OFFSETS;

const XT_LOCAL_WRITE = csrAccessor("aws_reg_write_xt_local_reg");

/**
 * libnrt aws_hal_arch_eng_to_xt @0x44c910, seed 003 §2: the XT of an engine, or the sentinel 6.
 * MODEL: engine e ∈ 0..4 runs on XT e (the seed gives the valid range, not the map).
 * @example awsHalArchEngToXt(2) // 2;  awsHalArchEngToXt(5) // 6
 */
export function awsHalArchEngToXt(engine: number): number {
  return Number.isInteger(engine) && engine >= 0 && engine < XT_ENGINE_COUNT ? engine : XT_INVALID;
}

/**
 * libnrt aws_hal_cayman_tpb_dge_get_register_offsets @0x44b900, seed 003 §2: the XT-local offsets
 * the instruction-block builder targets.
 */
export function awsHalCaymanTpbDgeGetRegisterOffsets(): typeof DGE_MEMCOPY_OFFSETS {
  return DGE_MEMCOPY_OFFSETS;
}

/**
 * libnrt aws_hal_cayman_tpb_dge_configure_dma @0x44b880, seed 003 §2: program the DGE memcopy DMA
 * mask, queue mask and all-queues mask into the XT-local window at `xtBase`.
 * @returns the addresses written (none on SUNDA, where the XT-local write is a silent no-op).
 * @throws SdmaAssertError from the arch read; FieldError when a value is not a u32.
 */
export function awsHalCaymanTpbDgeConfigureDma(
  dev: HalDevice,
  xtBase: bigint,
  values: Readonly<Record<DgeMemcopyRegister, number>>,
): bigint[] {
  const written: bigint[] = [];
  for (const [reg, offset] of Object.entries(DGE_MEMCOPY_OFFSETS) as [DgeMemcopyRegister, number][]) {
    const addr = csrWrite(dev, XT_LOCAL_WRITE, { base: xtBase, index: offset / 4 }, values[reg]);
    if (addr !== undefined) written.push(addr);
  }
  return written;
}

/**
 * libnrt aws_hal_cayman_tpb_xt_configure_feature_flag @0x44ba50, seed 003 §2: write the feature
 * flag word to XT-local register 38 in the XT-local window (`xtLocalBase`) of `engine`'s XT.
 * @returns the address written, or undefined on SUNDA (the XT-local silent no-op).
 * @throws FieldError when the engine has no XT (aws_hal_arch_eng_to_xt gives 6).
 */
export function awsHalCaymanTpbXtConfigureFeatureFlag(
  dev: HalDevice,
  xtLocalBase: bigint,
  engine: number,
  flags: number,
): bigint | undefined {
  if (awsHalArchEngToXt(engine) === XT_INVALID) {
    throw new FieldError(
      "aws_hal_cayman_tpb_xt_configure_feature_flag",
      "engine",
      engine,
      `0..${XT_ENGINE_COUNT - 1}`,
    );
  }
  return csrWrite(dev, XT_LOCAL_WRITE, { base: xtLocalBase, index: XT_FEATURE_FLAG_REG }, flags);
}
