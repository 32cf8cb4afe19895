/**
 * The five al_sdma_m2s_build_*_meta_ctrl bit-packs of seed 000 §2.6 (+ replication §2.5 and the
 * plain-copy default), each encoded through its declared layout in spec/layouts/meta-ctrl.ts so a
 * bit can only be wrong in one place. Arguments are the layout's field names (bit 7 is `last` in
 * every word; the seed's argument name — f4, notif — is in the field's doc). As libnrt does, these
 * mask the arguments the decompiled code masks (`sub & 7`, `const_dt & 7`); every other field is
 * checked (FieldError). The user-facing `layout.encode` stays strict for every field.
 */
import type { LayoutInput } from "../../bits/index.js";
import {
  ADD_META,
  COPY_META,
  EXT_META,
  FMA_META,
  GCE_META,
  MIN_MAX_META,
  REPLICATION_META,
  REPLICATION_META_CLASS,
} from "../../spec/layouts/index.js";
import { DEFAULT_COPY_META } from "../../spec/tables.js";
import { layoutWord, maskedAsLibnrt, wordBytes } from "./layout-word.js";

/** A meta-control builder's argument: the layout's fields, without its constant op / optype. */
type MetaArgs<L, Constant extends string = "op" | "optype" | "more"> = Omit<LayoutInput<L>, Constant>;

/** Arguments of the FMA meta-control (seed f4 = last, f5 = wrbar, f6 = flag4). */
export type FmaMetaArgs = MetaArgs<typeof FMA_META>;
/** Arguments of the MIN/MAX meta-control (seed notif = last, seed last = flag4). */
export type MinMaxMetaArgs = MetaArgs<typeof MIN_MAX_META, "op" | "more">;
/** Arguments of the ADD meta-control (seed f = flag4). */
export type AddMetaArgs = MetaArgs<typeof ADD_META>;
/** Arguments of the GCE (gradient) meta-control (seed f = flag4). */
export type GradientMetaArgs = MetaArgs<typeof GCE_META>;
/** Arguments of the EXT (combo) meta-control. */
export type CceExtMetaArgs = MetaArgs<typeof EXT_META, "op" | "optype">;

/**
 * libnrt al_sdma_m2s_build_fma_meta_ctrl @0x451bd0, seed 000 §2.6:
 * `(sub&7) | in_dt<<8 | scale_dt<<12 | accum_dt<<16 | f5<<6 | f6<<4 | f4<<7 | 0x2100000`.
 * @throws FieldError for an out-of-range unmasked argument.
 * @example buildFmaMetaCtrl({ in_dt: 6, scale_dt: 10, accum_dt: 10, last: true }) // 0x021aa680
 */
export function buildFmaMetaCtrl(a: FmaMetaArgs): number {
  return layoutWord(FMA_META, maskedAsLibnrt(FMA_META, a, ["sub"]));
}

/**
 * libnrt al_sdma_m2s_build_min_max_meta_ctrl @0x451ca0, seed 000 §2.6:
 * `(sub&7) | (const_dt&7)<<20 | in_dt<<8 | out_dt<<12 | accum_dt<<16 | notif<<7 | wrbar<<6 |
 * use_const<<5 | last<<4 | 0x2000000`, where out_dt is written only when use_const (else 0).
 * @throws FieldError for an out-of-range unmasked argument.
 * @example buildMinMaxMetaCtrl({ const_dt: 2, in_dt: 10, out_dt: 10, accum_dt: 10, last: true }) // 0x022a0a80
 */
export function buildMinMaxMetaCtrl(a: MinMaxMetaArgs): number {
  const args = { ...a, out_dt: a.use_const === true || a.use_const === 1 ? (a.out_dt ?? 0) : 0 };
  return layoutWord(MIN_MAX_META, maskedAsLibnrt(MIN_MAX_META, args, ["sub", "const_dt"]));
}

/**
 * libnrt al_sdma_m2s_build_add_meta_ctrl @0x451b80, seed 000 §2.6:
 * `(sub&7) | out_dt<<12 | accum_dt<<16 | last<<7 | wrbar<<6 | f<<4 | 0x2000000`.
 * @throws FieldError for an out-of-range unmasked argument.
 * @example buildAddMetaCtrl({ out_dt: 6, accum_dt: 10, last: true }) // 0x020a6080
 */
export function buildAddMetaCtrl(a: AddMetaArgs): number {
  return layoutWord(ADD_META, maskedAsLibnrt(ADD_META, a, ["sub"]));
}

/**
 * libnrt al_sdma_m2s_build_gradient_meta_ctrl @0x451d70, seed 000 §2.6:
 * `(sub&7) | in_dt<<8 | scale_dt<<12 | accum_dt<<16 | wrbar<<6 | f<<4 | last<<7 | 0x2500000`.
 * @throws FieldError for an out-of-range unmasked argument.
 * @example buildGradientMetaCtrl({ in_dt: 10, scale_dt: 10, accum_dt: 10, last: true }) // 0x025aaa80
 */
export function buildGradientMetaCtrl(a: GradientMetaArgs): number {
  return layoutWord(GCE_META, maskedAsLibnrt(GCE_META, a, ["sub"]));
}

/**
 * libnrt al_sdma_m2s_build_cce_ext_meta_ctrl @0x451dc0, seed 000 §2.6:
 * `(sub&7) | mid_dt<<12 | accum_dt<<16 | 0x2400000`.
 * @throws FieldError for an out-of-range unmasked argument.
 * @example buildCceExtMetaCtrl({ mid_dt: 6, accum_dt: 10 }) // 0x024a6000
 */
export function buildCceExtMetaCtrl(a: CceExtMetaArgs): number {
  return layoutWord(EXT_META, maskedAsLibnrt(EXT_META, a, ["sub"]));
}

/**
 * libnrt al_sdma_m2s_build_replication_meta_ctrl @0x451b00, seed 000 §2.5: `0x4a00000 | mode << 29`
 * when mode is set, else 0.
 * @throws FieldError when mode is not 0..7.
 * @example buildReplicationMetaCtrl(1) // 0x24a00000
 */
export function buildReplicationMetaCtrl(mode: number): number {
  if (mode === 0) return layoutWord(REPLICATION_META, {});
  return layoutWord(REPLICATION_META, { ...REPLICATION_META_CLASS, flag26: true, mode });
}

/** The fields of the replication meta-control, for nesting in the replication descriptor. */
export function replicationMetaFields(mode: number) {
  return REPLICATION_META.decode(wordBytes(buildReplicationMetaCtrl(mode)));
}

/**
 * The plain-copy meta_ctrl: al_tdma_m2s_meta_ctrl_default_value 0x01080003 (seed 003 §3), with the
 * public view's write_barrier (bit 26) set for a write-barriered packet's last descriptor (MODEL).
 * @example copyMetaCtrl(false) // 0x01080003
 */
export function copyMetaCtrl(writeBarrier: boolean): number {
  return layoutWord(COPY_META, {
    ...COPY_META.decode(wordBytes(DEFAULT_COPY_META)),
    write_barrier: writeBarrier,
  });
}
