/**
 * The enums of the seeds, as data. Each is a frozen name → code record plus a code → name map
 * for layouts and printing.
 */

/** Invert a name → code record into the code → name map layouts use. */
export function namesOf(e: Readonly<Record<string, number>>): Readonly<Record<number, string>> {
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [v, k]));
}

/** kbin_dma_desc_op (enums.json), seed 000 §1.1. INVALID is (u64)-1. */
export const KbinDmaDescOp = {
  INVALID: -1,
  COPY: 0,
  FMA: 1,
  ADD: 2,
  MIN: 3,
  MAX: 4,
  TRANSPOSE: 5,
  NUM: 6,
} as const;
export type KbinDmaDescOp = (typeof KbinDmaDescOp)[keyof typeof KbinDmaDescOp];

/** The CCE ops by the names the CLI and JSON requests use (look names up with lookupOwn). */
export const CCE_OP_BY_NAME = {
  fma: KbinDmaDescOp.FMA,
  add: KbinDmaDescOp.ADD,
  min: KbinDmaDescOp.MIN,
  max: KbinDmaDescOp.MAX,
} as const;
export type CceOpName = keyof typeof CCE_OP_BY_NAME;

/** Every kbin op a request can name: the CCE ops, plain copy and transpose. */
export const KBIN_OP_BY_NAME = {
  copy: KbinDmaDescOp.COPY,
  ...CCE_OP_BY_NAME,
  transpose: KbinDmaDescOp.TRANSPOSE,
} as const;

/** SDMA_CCETYPE (enums.json), seed 000 §1.1. EXT and GCE are device-only. */
export const SdmaCceType = { ADD: 0, FMA: 1, MAX: 2, MIN: 3, EXT: 4, GCE: 5 } as const;
export type SdmaCceType = (typeof SdmaCceType)[keyof typeof SdmaCceType];

/** al_sdma_m2s_fma_operand (enums.json), seed 000 §3.1: the FMA operand selectors. */
export const FmaOperand = { STORED_BUFFER: 0, INPUT_BUFFER: 1, SCALE: 2 } as const;
export type FmaOperand = (typeof FmaOperand)[keyof typeof FmaOperand];

/** NEURON_ISA_TPB_LNC_SIZE_FMT (common.h:815), seed 002 §7.1. */
export const LncSizeFmt = { LNC1: 0, LNC2: 1, LNC4: 2, LNC8: 3 } as const;
export type LncSizeFmt = (typeof LncSizeFmt)[keyof typeof LncSizeFmt];

/** encd_neigh (DWARF), seed 002 §4.4: which peer an SB2SB leg targets. */
export const EncdNeigh = {
  LOCAL: 0,
  NEXT: 1,
  PREV: 2,
  GATEWAY: 3,
  PEER_RMTV: 4,
  PEER_RMTV2: 5,
  PEER_LOCAL: 6,
  NEXT_PEER_RMTV: 7,
  INVALID: 8,
  NUM: 9,
} as const;
export type EncdNeigh = (typeof EncdNeigh)[keyof typeof EncdNeigh];

/** enc_primitive::reduction_type_t (enums.json), seed 000 §8. */
export const ReductionType = { RING_2R1W: 0, RING_2R2W: 1, KANGARING_NR1W: 2 } as const;
export type ReductionType = (typeof ReductionType)[keyof typeof ReductionType];

/**
 * hal_target, the value al_hal_tpb_get_arch_type returns (seed 003 §1, CORRECTION ARCH-SDMA-01:
 * the live values are SUNDA 2, CAYMAN 3, MARIANA 4; the al_hal_sdma.c string order is not).
 * Code 1 is not named by the seeds.
 */
export const ArchType = { INVALID: 0, SUNDA: 2, CAYMAN: 3, MARIANA: 4, NUM: 5 } as const;
export type ArchType = (typeof ArchType)[keyof typeof ArchType];

/** NEURON_ISA_TPB opcodes of the collective family, seed 002 §1. */
export const Opcode = {
  SB2SB_COLLECTIVE: 0xbf,
  PSEUDO_TRIGGER_ALL_REDUCE: 0xc7,
  PSEUDO_TRIGGER_COLLECTIVE: 0xc8,
  PSEUDO_TRIGGER_COLLECTIVE2: 0xd9,
  PSEUDO_TRIGGER_COLLECTIVE2_EXT: 0xda,
} as const;

/** ADDR4 marker kinds: the top two bits of the marker byte (common.h:486-491), seed 002 §3.2. */
export const Addr4Marker = { IMM: 0x00, SHAPE_REG: 0x40, ADDR_REG: 0x80, ADDR_SHAPE_REG: 0xc0 } as const;
export type Addr4Marker = (typeof Addr4Marker)[keyof typeof Addr4Marker];
