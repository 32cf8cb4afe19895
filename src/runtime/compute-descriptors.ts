/**
 * The 16-byte M2S compute descriptor encoders of seed 000 §2.3–2.5 and §5.2, through the declared
 * layouts of spec/layouts/descriptors.ts. Each `*Fields` function gives the fields without the
 * position byte (meta_idx, stamped by the ring writer); each `build*Descriptor` is the libnrt
 * encoder: the same fields plus `metaIdx`, as 16 bytes. W0 = `wb | 0x800000 | meta_idx << 24`.
 */
import {
  FMA_DESC,
  GRADIENT_DESC,
  MIN_MAX_DESC,
  REPLICATION_DESC,
  SEED_INIT_DESC,
} from "../spec/layouts/index.js";
import { replicationMetaFields } from "./meta-ctrl.js";

type Fields = Record<string, unknown>;

/** W0 bits 22:0 and 31:24, common to every compute descriptor. */
export interface ComputeW0 {
  readonly metaIdx: number;
  readonly wb?: number;
}

const w0 = (a: ComputeW0): Fields => ({ meta_idx: a.metaIdx, wb: a.wb ?? 0 });

/** Arguments of the FMA descriptor (seed names a8, a9 = sub, a10). */
export interface FmaDescArgs {
  readonly aSel: number;
  readonly bSel: number;
  readonly cSel: number;
  /** The FP32 scale (W3). */
  readonly scale: number;
  readonly sema?: number;
  readonly sub?: number;
  readonly a8?: number;
  readonly a10?: boolean;
}

/** The FMA descriptor's fields (no position). */
export function fmaDescriptorFields(a: FmaDescArgs): Fields {
  return {
    wb: 0,
    sub: a.sub ?? 0,
    wrbar: a.a10 ?? false,
    a8: a.a8 ?? 0,
    sema: a.sema ?? 0,
    a_sel: a.aSel,
    b_sel: a.bSel,
    c_sel: a.cSel,
    scale: a.scale,
  };
}

/**
 * libnrt al_sdma_m2s_build_fma_descriptor @0x451c20, seed 000 §2.3: W1 = `(a9&7) | (a10&1)<<26 |
 * a8<<29 | 0x2100000`, W2 = `(sema&0xFFFFFF) | a_sel<<24 | b_sel<<26 | c_sel<<28`, W3 = the scale.
 * @throws FieldError for an out-of-range argument.
 * @example buildFmaDescriptor({ metaIdx: 5, aSel: 1, bSel: 2, cSel: 0, scale: 0.5 }) // W3 0x3f000000
 */
export function buildFmaDescriptor(a: FmaDescArgs & ComputeW0): Uint8Array {
  return FMA_DESC.encode({ ...fmaDescriptorFields(a), ...w0(a) });
}

/** Arguments of the MIN/MAX descriptor. */
export interface MinMaxDescArgs {
  /** The constant, raw 32 bits (W3; the seed's W1 argument). */
  readonly constant: number;
  readonly length: number;
  readonly useConst: boolean;
  /** The constant's SDMA dtype; libnrt keeps `& 7` (fp32 → 2, int32 → 0, uint32 → 1). */
  readonly constDt: number;
}

/** The MIN/MAX descriptor's fields (no position). */
export function minMaxDescriptorFields(a: MinMaxDescArgs): Fields {
  return {
    wb: 0,
    const_dt: a.useConst ? a.constDt & 7 : 0,
    sub_desc: a.useConst ? 3 : 0,
    length: a.length,
    constant: a.constant >>> 0,
  };
}

/**
 * libnrt al_sdma_m2s_build_min_max_descriptor @0x451d10, seed 000 §2.4: W1 = use_const ?
 * `(const_dt&7)<<20 | 0x6000000` : 0, W2 = `(length&0xFFFFFF) | 0x2000000`, W3 = the constant.
 * The `& 7` on const_dt is the seed's (it folds a dtype code into 3 bits); length is checked.
 * @throws FieldError when length is not 0..0xFFFFFF.
 * @example buildMinMaxDescriptor({ metaIdx: 5, constant: 0, length: 64, useConst: true, constDt: 10 })
 */
export function buildMinMaxDescriptor(a: MinMaxDescArgs & ComputeW0): Uint8Array {
  return MIN_MAX_DESC.encode({ ...minMaxDescriptorFields(a), ...w0(a) });
}

/** Arguments of the seed-init descriptor. */
export interface SeedInitArgs {
  readonly seedEnable: boolean;
  /** The 32-bit SR seed (W3, MODEL). */
  readonly seed: number;
  /** The combo-member flag 0x4000000 (seed 000 §5.1, set at 0x44ae3e). */
  readonly comboMember?: boolean;
}

/** The seed-init descriptor's fields (no position). */
export function seedInitDescriptorFields(a: SeedInitArgs): Fields {
  return { wb: 0, sub_desc: (a.seedEnable ? 3 : 0) | (a.comboMember ? 2 : 0), seed: a.seed >>> 0 };
}

/**
 * libnrt al_sdma_m2s_build_seed_init_descriptor @0x451e40, seed 000 §2.5: W0 |= 0x800000; W1 =
 * 0x6000000 when the seed is enabled (| 0x4000000 the combo-member flag); W3 = the seed (MODEL).
 * @example buildSeedInitDescriptor({ metaIdx: 5, seedEnable: true, seed: 42 })
 */
export function buildSeedInitDescriptor(a: SeedInitArgs & ComputeW0): Uint8Array {
  return SEED_INIT_DESC.encode({ ...seedInitDescriptorFields(a), ...w0(a) });
}

/** Arguments of the replication descriptor. */
export interface ReplicationDescArgs {
  readonly mode: number;
  /** The extra destination (W2..W3, MODEL). */
  readonly dest: bigint;
}

/** The replication descriptor's fields (no position). */
export function replicationDescriptorFields(a: ReplicationDescArgs): Fields {
  return { wb: 0, meta: replicationMetaFields(a.mode), dest: a.dest };
}

/**
 * libnrt al_sdma_m2s_build_replication_descriptor @0x451b10, seed 000 §2.5: W1 = the replication
 * meta-control (`0x4a00000 | mode << 29` when mode is set); W2..W3 = the destination (MODEL).
 * @example buildReplicationDescriptor({ metaIdx: 9, mode: 1, dest: 0x1000n }) // W1 0x24a00000
 */
export function buildReplicationDescriptor(a: ReplicationDescArgs & ComputeW0): Uint8Array {
  return REPLICATION_DESC.encode({ ...replicationDescriptorFields(a), ...w0(a) });
}

/** GCE direction, as the gradient descriptor's mode field (MODEL). */
export const GceMode = { COMPRESS: 1, DECOMPRESS: 2 } as const;
export type GceMode = (typeof GceMode)[keyof typeof GceMode];

/** Arguments of the gradient descriptor. */
export interface GradientDescArgs {
  readonly mode: GceMode;
  readonly blockLog2: number;
  readonly headerAddr: bigint;
}

/** The gradient descriptor's fields (no position). */
export function gradientDescriptorFields(a: GradientDescArgs): Fields {
  return { wb: 0, mode: a.mode, block_log2: a.blockLog2, header_addr: a.headerAddr };
}

/**
 * libnrt al_sdma_m2s_build_gradient_descriptor @0x451de0, seed 000 §5.2. The seed gives its address,
 * not its body: the W1 mode / block and W2..W3 header address are MODEL (spec GRADIENT_DESC).
 * @example buildGradientDescriptor({ metaIdx: 9, mode: GceMode.COMPRESS, blockLog2: 5, headerAddr: 0x100n })
 */
export function buildGradientDescriptor(a: GradientDescArgs & ComputeW0): Uint8Array {
  return GRADIENT_DESC.encode({ ...gradientDescriptorFields(a), ...w0(a) });
}
