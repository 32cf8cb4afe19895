/**
 * The constant tables of the seeds, as data. Dtype tables live in `dtype.ts`.
 */
import { ArchType } from "./enums.js";

/** CSWTCH.21 @0x9d6e00 {1, 0, 3, 2}: kbin op − 1 → SDMA_CCETYPE (seed 000 §1.1). */
export const CSWTCH_21: readonly number[] = [1, 0, 3, 2];

/**
 * CSWTCH.19 @0x9d6e20: kbin dtype − 1 → SDMA dtype (15 DWORDs). The seed omits its values.
 * MODEL: identity — seed 002 §5 says the TPB dtype is byte-identical to the SDMA dtype and nrt_dtype,
 * and GROUND_TRUTH confirms the public nrt dtype codes are the same table.
 */
export const CSWTCH_19: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/** The eight 32 MiB SBUF windows (CAYMAN transpose, seed 003 §5); tiles 4..7 carry bit 47. */
export const SBUF_WINDOWS: readonly bigint[] = [
  0x20_0000_0000n,
  0x30_0000_0000n,
  0x60_0000_0000n,
  0x70_0000_0000n,
  0x8020_0000_0000n,
  0x8030_0000_0000n,
  0x8060_0000_0000n,
  0x8070_0000_0000n,
];
/** Size of one SBUF window: 0x2000000 = 32 MiB. */
export const SBUF_WINDOW_BYTES = 0x200_0000;
/** SBUF partition stride inside a window: 256 KiB (rel >> 18). */
export const SBUF_PARTITION_SHIFT = 18;

/** mariana_sdma_base @0x9df220: u64[128], entry i = 0x001002000000 + i·0x1000 (seed 003 §5, MED). */
export const MARIANA_SDMA_BASE: readonly bigint[] = Array.from(
  { length: 128 },
  (_, i) => 0x0010_0200_0000n + BigInt(i) * 0x1000n,
);

/** aws_hal_get_sdma_max_cce_elements @0x44be60: 1024 on v2, 2048 on v3/v4 (seed 000 §7.1). */
export const MAX_CCE_ELEMENTS: Readonly<Partial<Record<ArchType, number>>> = {
  [ArchType.SUNDA]: 0x400,
  [ArchType.CAYMAN]: 0x800,
  [ArchType.MARIANA]: 0x800,
};

/** NEURON_ISA_TPB_POOLING_NUM_CHANNELS (common.h:35), seed 002 §7.2. */
export const POOLING_NUM_CHANNELS = 128;
/** S3D3 size_check_src: one 0xBF word moves at most 256 source elements (seed 002 §3.4). */
export const S3D3_MAX_ELEMENTS = 256;
/** cce_info holds 32 sources (seed 000 §2.1); public NEFF/NKI docs cap a CCE op at 16. */
export const CCE_INFO_MAX_SOURCES = 32;

/** The plain-copy meta_ctrl al_tdma_m2s_meta_ctrl_default_value @0x9e8828 (seed 003 §3). */
export const DEFAULT_COPY_META = 0x01080003;
/** Descriptor word 0 bit 23: the descriptor carries a compute meta (seed 000 §2.2). */
export const W0_HAS_META = 0x800000;
/** The combo "more descriptors follow" bit (seed 000 §5.1, ORed at 0x44a83b). */
export const COMBO_MORE = 0x40000000;
/** The combo-member flag on the first (seed-init) descriptor (seed 000 §5.1, 0x44ae3e). */
export const COMBO_MEMBER = 0x4000000;
/** The constant / seed sub-descriptor word (seed 000 §2.4, §2.5). */
export const SUB_DESCRIPTOR = 0x6000000;
