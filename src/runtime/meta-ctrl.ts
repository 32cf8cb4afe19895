/**
 * The five al_sdma_m2s_build_*_meta_ctrl bit-packs of seed 000 §2.6 (+ replication §2.5 and the
 * plain-copy default), each encoded through its declared layout in spec/layouts/meta-ctrl.ts so a
 * bit can only be wrong in one place. Arguments keep the seed's names. Where libnrt masks an
 * argument (`& 7`, `& 0xF`) these throw a FieldError instead: no silent truncation.
 */
import {
  ADD_META,
  COPY_META,
  EXT_META,
  FMA_META,
  GCE_META,
  MIN_MAX_META,
  REPLICATION_META,
  REPLICATION_META_CLASS,
} from "../spec/layouts/index.js";
import { DEFAULT_COPY_META } from "../spec/tables.js";
import { layoutWord, wordBytes } from "./layout-word.js";

const bit = (b: boolean | number | undefined): boolean => b === true || b === 1;

/** Arguments of the FMA meta-control (seed names; f4 is bit 7 = last, f5 bit 6 = wrbar, f6 bit 4). */
export interface FmaMetaArgs {
  readonly sub?: number;
  readonly inDt: number;
  readonly scaleDt: number;
  readonly accumDt: number;
  readonly f4?: boolean;
  readonly f5?: boolean;
  readonly f6?: boolean;
}

/**
 * libnrt al_sdma_m2s_build_fma_meta_ctrl @0x451bd0, seed 000 §2.6:
 * `(sub&7) | in_dt<<8 | scale_dt<<12 | accum_dt<<16 | f5<<6 | f6<<4 | f4<<7 | 0x2100000`.
 * @throws FieldError for an out-of-range argument.
 * @example buildFmaMetaCtrl({ inDt: 6, scaleDt: 10, accumDt: 10, f4: true }) // 0x021aa680
 */
export function buildFmaMetaCtrl(a: FmaMetaArgs): number {
  return layoutWord(FMA_META, {
    sub: a.sub ?? 0,
    in_dt: a.inDt,
    scale_dt: a.scaleDt,
    accum_dt: a.accumDt,
    last: bit(a.f4),
    wrbar: bit(a.f5),
    flag4: bit(a.f6),
  });
}

/** Arguments of the MIN/MAX meta-control (seed names: notif is bit 7, the flush bit; last is bit 4). */
export interface MinMaxMetaArgs {
  readonly sub?: number;
  readonly constDt: number;
  readonly inDt: number;
  readonly outDt: number;
  readonly accumDt: number;
  readonly notif?: boolean;
  readonly wrbar?: boolean;
  readonly useConst?: boolean;
  readonly last?: boolean;
}

/**
 * libnrt al_sdma_m2s_build_min_max_meta_ctrl @0x451ca0, seed 000 §2.6:
 * `(sub&7) | (const_dt&7)<<20 | in_dt<<8 | out_dt<<12 | accum_dt<<16 | notif<<7 | wrbar<<6 |
 * use_const<<5 | last<<4 | 0x2000000`, where out_dt is written only when use_const (else 0).
 * @throws FieldError for an out-of-range argument.
 * @example buildMinMaxMetaCtrl({ constDt: 2, inDt: 10, outDt: 10, accumDt: 10, notif: true }) // 0x022a0a80
 */
export function buildMinMaxMetaCtrl(a: MinMaxMetaArgs): number {
  return layoutWord(MIN_MAX_META, {
    sub: a.sub ?? 0,
    const_dt: a.constDt,
    in_dt: a.inDt,
    out_dt: bit(a.useConst) ? a.outDt : 0,
    accum_dt: a.accumDt,
    last: bit(a.notif),
    wrbar: bit(a.wrbar),
    use_const: bit(a.useConst),
    flag4: bit(a.last),
  });
}

/** Arguments of the ADD meta-control. */
export interface AddMetaArgs {
  readonly sub?: number;
  readonly outDt: number;
  readonly accumDt: number;
  readonly last?: boolean;
  readonly wrbar?: boolean;
  readonly f?: boolean;
}

/**
 * libnrt al_sdma_m2s_build_add_meta_ctrl @0x451b80, seed 000 §2.6:
 * `(sub&7) | out_dt<<12 | accum_dt<<16 | last<<7 | wrbar<<6 | f<<4 | 0x2000000`.
 * @throws FieldError for an out-of-range argument.
 * @example buildAddMetaCtrl({ outDt: 6, accumDt: 10, last: true }) // 0x020a6080
 */
export function buildAddMetaCtrl(a: AddMetaArgs): number {
  return layoutWord(ADD_META, {
    sub: a.sub ?? 0,
    out_dt: a.outDt,
    accum_dt: a.accumDt,
    last: bit(a.last),
    wrbar: bit(a.wrbar),
    flag4: bit(a.f),
  });
}

/** Arguments of the GCE (gradient) meta-control. */
export interface GradientMetaArgs {
  readonly sub?: number;
  readonly inDt: number;
  readonly scaleDt: number;
  readonly accumDt: number;
  readonly wrbar?: boolean;
  readonly f?: boolean;
  readonly last?: boolean;
}

/**
 * libnrt al_sdma_m2s_build_gradient_meta_ctrl @0x451d70, seed 000 §2.6:
 * `(sub&7) | in_dt<<8 | scale_dt<<12 | accum_dt<<16 | wrbar<<6 | f<<4 | last<<7 | 0x2500000`.
 * @throws FieldError for an out-of-range argument.
 * @example buildGradientMetaCtrl({ inDt: 10, scaleDt: 10, accumDt: 10, last: true }) // 0x025aaa80
 */
export function buildGradientMetaCtrl(a: GradientMetaArgs): number {
  return layoutWord(GCE_META, {
    sub: a.sub ?? 0,
    in_dt: a.inDt,
    scale_dt: a.scaleDt,
    accum_dt: a.accumDt,
    wrbar: bit(a.wrbar),
    flag4: bit(a.f),
    last: bit(a.last),
  });
}

/** Arguments of the EXT (combo) meta-control. */
export interface CceExtMetaArgs {
  readonly sub?: number;
  readonly midDt: number;
  readonly accumDt: number;
}

/**
 * libnrt al_sdma_m2s_build_cce_ext_meta_ctrl @0x451dc0, seed 000 §2.6:
 * `(sub&7) | mid_dt<<12 | accum_dt<<16 | 0x2400000`.
 * @throws FieldError for an out-of-range argument.
 * @example buildCceExtMetaCtrl({ midDt: 6, accumDt: 10 }) // 0x024a6000
 */
export function buildCceExtMetaCtrl(a: CceExtMetaArgs): number {
  return layoutWord(EXT_META, { sub: a.sub ?? 0, mid_dt: a.midDt, accum_dt: a.accumDt });
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
export function replicationMetaFields(mode: number): Record<string, unknown> {
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
