/**
 * The 16-byte M2S compute descriptor encoders of seed 000 §2.3–2.5 and §5.2, through the declared
 * layouts of spec/layouts/descriptors.ts. Each `*Fields` function gives the fields without the
 * position byte (meta_idx, stamped by the ring writer); each `build*Descriptor` is the libnrt
 * encoder: the same fields plus `meta_idx`, as 16 bytes. W0 = `wb | 0x800000 | meta_idx << 24`.
 * Arguments are the layouts' field names (the seed's argument name is in each field's doc); where a
 * descriptor has no field for an argument (use_const, seed_enable) the argument keeps the seed's name.
 * The libnrt encoders mask what the decompiled code masks (`a9 & 7`, `sema & 0xFFFFFF`,
 * `length & 0xFFFFFF`, `const_dt & 7`, `a8 << 29` in a u32); the layouts' `encode` stays strict.
 */
import type { LayoutInput, LayoutShape } from "../../bits/index.js";
import {
  FMA_DESC,
  GRADIENT_DESC,
  MIN_MAX_DESC,
  REPLICATION_DESC,
  SEED_INIT_DESC,
} from "../../spec/layouts/index.js";
import { SUB_DESC_COMBO_MEMBER, SUB_DESC_LOAD } from "../../spec/ring-packet.js";
import { maskedAsLibnrt } from "./layout-word.js";
import { replicationMetaFields } from "./meta-ctrl.js";

/** W0 bits 22:0 and 31:24, common to every compute descriptor: the position and the write-back bits. */
export type ComputeW0 = Pick<LayoutShape<typeof FMA_DESC>, "meta_idx"> &
  Partial<Pick<LayoutShape<typeof FMA_DESC>, "wb">>;

/** Fields a builder never takes: W0's constant has_meta, the op tags, the position. */
type Fixed = "has_meta" | "optype" | "op" | "meta_idx" | "wb";

/** Arguments of the FMA descriptor: its fields (seed a8, a9 = sub, a10 = wrbar). */
export type FmaDescArgs = Omit<LayoutInput<typeof FMA_DESC>, Fixed>;

/** The FMA descriptor's fields (no position). */
export function fmaDescriptorFields(a: FmaDescArgs): LayoutInput<typeof FMA_DESC> {
  return maskedAsLibnrt(FMA_DESC, { wb: 0, ...a }, ["sub", "sema", "a8"]);
}

/**
 * libnrt al_sdma_m2s_build_fma_descriptor @0x451c20, seed 000 §2.3: W1 = `(a9&7) | (a10&1)<<26 |
 * a8<<29 | 0x2100000`, W2 = `(sema&0xFFFFFF) | a_sel<<24 | b_sel<<26 | c_sel<<28`, W3 = the scale.
 * @throws FieldError for an out-of-range unmasked argument (an operand selector of 3).
 * @example buildFmaDescriptor({ meta_idx: 5, a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 }) // W3 0x3f000000
 */
export function buildFmaDescriptor(a: FmaDescArgs & ComputeW0): Uint8Array {
  return FMA_DESC.encode({ ...fmaDescriptorFields(a), meta_idx: a.meta_idx, wb: a.wb ?? 0 });
}

/**
 * Arguments of the MIN/MAX descriptor: its fields (the constant, raw 32 bits, is the seed's W1
 * argument; libnrt keeps `const_dt & 7`: fp32 → 2, int32 → 0, uint32 → 1) plus libnrt's use_const.
 */
export type MinMaxDescArgs = Pick<LayoutShape<typeof MIN_MAX_DESC>, "constant" | "length" | "const_dt"> & {
  readonly use_const: boolean;
};

/** The MIN/MAX descriptor's fields (no position). */
export function minMaxDescriptorFields(a: MinMaxDescArgs): LayoutInput<typeof MIN_MAX_DESC> {
  const fields = {
    wb: 0,
    const_dt: a.use_const ? a.const_dt : 0,
    sub_desc: a.use_const ? SUB_DESC_LOAD : 0,
    length: a.length,
    constant: a.constant >>> 0,
  };
  return maskedAsLibnrt(MIN_MAX_DESC, fields, ["const_dt", "length"]);
}

/**
 * libnrt al_sdma_m2s_build_min_max_descriptor @0x451d10, seed 000 §2.4: W1 = use_const ?
 * `(const_dt&7)<<20 | 0x6000000` : 0, W2 = `(length&0xFFFFFF) | 0x2000000`, W3 = the constant.
 * @example buildMinMaxDescriptor({ meta_idx: 5, constant: 0, length: 64, use_const: true, const_dt: 10 })
 */
export function buildMinMaxDescriptor(a: MinMaxDescArgs & ComputeW0): Uint8Array {
  return MIN_MAX_DESC.encode({ ...minMaxDescriptorFields(a), meta_idx: a.meta_idx, wb: a.wb ?? 0 });
}

/**
 * Arguments of the seed-init descriptor: its `seed` field (the 32-bit SR seed, W3, MODEL) plus
 * libnrt's seed_enable and the combo-member flag 0x4000000 (seed 000 §5.1, set at 0x44ae3e), which
 * together make its sub_desc.
 */
export type SeedInitArgs = Pick<LayoutShape<typeof SEED_INIT_DESC>, "seed"> & {
  readonly seed_enable: boolean;
  readonly combo_member?: boolean;
};

/** The seed-init descriptor's fields (no position). */
export function seedInitDescriptorFields(a: SeedInitArgs): LayoutInput<typeof SEED_INIT_DESC> {
  const sub_desc = (a.seed_enable ? SUB_DESC_LOAD : 0) | (a.combo_member ? SUB_DESC_COMBO_MEMBER : 0);
  return { wb: 0, sub_desc, seed: a.seed >>> 0 };
}

/**
 * libnrt al_sdma_m2s_build_seed_init_descriptor @0x451e40, seed 000 §2.5: W0 |= 0x800000; W1 =
 * 0x6000000 when the seed is enabled (| 0x4000000 the combo-member flag); W3 = the seed (MODEL).
 * @example buildSeedInitDescriptor({ meta_idx: 5, seed_enable: true, seed: 42 })
 */
export function buildSeedInitDescriptor(a: SeedInitArgs & ComputeW0): Uint8Array {
  return SEED_INIT_DESC.encode({ ...seedInitDescriptorFields(a), meta_idx: a.meta_idx, wb: a.wb ?? 0 });
}

/** Arguments of the replication descriptor: the extra destination (`dest`, W2..W3, MODEL) and the meta's mode. */
export type ReplicationDescArgs = Pick<LayoutShape<typeof REPLICATION_DESC>, "dest"> & {
  readonly mode: number;
};

/** The replication descriptor's fields (no position). */
export function replicationDescriptorFields(a: ReplicationDescArgs): LayoutInput<typeof REPLICATION_DESC> {
  const m = replicationMetaFields(a.mode);
  return {
    wb: 0,
    "meta.op": m.op,
    "meta.optype": m.optype,
    "meta.flag26": m.flag26,
    "meta.mode": m.mode,
    dest: a.dest,
  };
}

/**
 * libnrt al_sdma_m2s_build_replication_descriptor @0x451b10, seed 000 §2.5: W1 = the replication
 * meta-control (`0x4a00000 | mode << 29` when mode is set); W2..W3 = the destination (MODEL).
 * @example buildReplicationDescriptor({ meta_idx: 9, mode: 1, dest: 0x1000n }) // W1 0x24a00000
 */
export function buildReplicationDescriptor(a: ReplicationDescArgs & ComputeW0): Uint8Array {
  return REPLICATION_DESC.encode({ ...replicationDescriptorFields(a), meta_idx: a.meta_idx, wb: a.wb ?? 0 });
}

/** GCE direction, as the gradient descriptor's mode field (MODEL). */
export const GceMode = { COMPRESS: 1, DECOMPRESS: 2 } as const;
export type GceMode = (typeof GceMode)[keyof typeof GceMode];

/** Arguments of the gradient descriptor: its fields. */
export type GradientDescArgs = Omit<LayoutInput<typeof GRADIENT_DESC>, Fixed> & { readonly mode: GceMode };

/** The gradient descriptor's fields (no position). */
export function gradientDescriptorFields(a: GradientDescArgs): LayoutInput<typeof GRADIENT_DESC> {
  return { wb: 0, ...a };
}

/**
 * libnrt al_sdma_m2s_build_gradient_descriptor @0x451de0, seed 000 §5.2. The seed gives its address,
 * not its body: the W1 mode / block and W2..W3 header address are MODEL (spec GRADIENT_DESC).
 * @example buildGradientDescriptor({ meta_idx: 9, mode: GceMode.COMPRESS, block_log2: 5, header_addr: 0x100n })
 */
export function buildGradientDescriptor(a: GradientDescArgs & ComputeW0): Uint8Array {
  return GRADIENT_DESC.encode({ ...gradientDescriptorFields(a), meta_idx: a.meta_idx, wb: a.wb ?? 0 });
}
