/**
 * kbin_dma_desc_cce_info_t (seed 000 §2.1) as the builders take it: the CCE_INFO layout's own
 * fields by flat name, exactly what `CCE_INFO.decode` gives (no typed twin of the layout). In C the
 * two arms alias one 132-byte union; the builder reads the arm its op reads, and a field left out
 * reads as the zeroed bytes libnrt would see (add_dma_packet_cce memsets the union): scale_dtype 0,
 * use_constant false. The two counts are always given.
 */
import type { LayoutShape } from "../../bits/index.js";
import { Dtype } from "../../spec/dtype.js";
import type { CCE_INFO } from "../../spec/layouts/index.js";

type CceInfoFields = LayoutShape<typeof CCE_INFO>;

/** cce_info by the layout's flat field names; the counts are required, the union's fields optional. */
export type CceInfo = Pick<CceInfoFields, "num_sources" | "num_dests"> & Partial<CceInfoFields>;

/**
 * The fma_info arm: one scale per source in `fma_info.scale.<i>`, and the scale dtype (kbin; fp32
 * unless given).
 * @example ({ num_sources: 2, num_dests: 1, ...fmaInfo([0.5, 0.5]) })["fma_info.scale.1"] // 0.5
 */
export function fmaInfo(scale: readonly number[], scaleDtype: number = Dtype.FP32): Partial<CceInfoFields> {
  const fields: Record<string, number> = { "fma_info.scale_dtype": scaleDtype };
  scale.forEach((s, i) => {
    fields[`fma_info.scale.${i}`] = s;
  });
  return fields as Partial<CceInfoFields>;
}

/** Scale `i` of the fma_info arm, undefined when the caller left it out. */
export function fmaScale(info: CceInfo, i: number): number | undefined {
  return info[`fma_info.scale.${i}` as Extract<keyof CceInfoFields, `fma_info.scale.${string}`>];
}

/**
 * The min_max_info arm with a clamp constant (raw 32 bits) of a kbin dtype (fp32 unless given).
 * @example ({ num_sources: 2, num_dests: 1, ...minMaxConstant(0x3f800000) })["min_max_info.use_constant"] // true
 */
export function minMaxConstant(constant: number, constantDtype: number = Dtype.FP32): Partial<CceInfoFields> {
  return {
    "min_max_info.use_constant": true,
    "min_max_info.constant_dtype": constantDtype,
    "min_max_info.constant": constant,
  };
}
