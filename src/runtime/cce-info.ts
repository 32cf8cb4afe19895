/**
 * kbin_dma_desc_cce_info_t (seed 000 §2.1) as the builders take it. In C the two arms alias one
 * 132-byte union; here each arm is its own optional member, and a missing arm reads as the zeroed
 * bytes libnrt would see (add_dma_packet_cce memsets the union): scale_dtype 0, use_constant false.
 */

/** fma_info: the scale dtype (kbin; must remap to fp32) and one scale per source (32 slots). */
export interface FmaInfo {
  readonly scaleDtype: number;
  readonly scale: readonly number[];
}

/** min_max_info: clamp against a constant (raw 32 bits) of a kbin dtype. */
export interface MinMaxInfo {
  readonly useConstant: boolean;
  readonly constantDtype: number;
  readonly constant: number;
}

export interface CceInfo {
  readonly numSources: number;
  readonly numDests: number;
  readonly fmaInfo?: FmaInfo;
  readonly minMaxInfo?: MinMaxInfo;
}
