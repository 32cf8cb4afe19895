/**
 * kbin_dma_desc_cce_info_t, 140 bytes (structures.json), seed 000 §2.1. The 132-byte union's arms
 * alias: min_max_info.constant_dtype sits on the same bytes as fma_info.scale[0].
 */
import { array, bool, compileLayout, enumField, f32, uint, union } from "../../bits/index.js";
import { DTYPE_ENUM_NAMES } from "../dtype.js";

const KBIN_DTYPES = DTYPE_ENUM_NAMES;

export const CCE_INFO = compileLayout({
  name: "cce-info",
  bytes: 140,
  doc: "The CCE request: sources, the FMA scale vector or the MIN/MAX constant, destinations.",
  source: "libnrt kbin_dma_desc_cce_info_t (structures.json), seed 000 §2.1",
  fields: [
    uint("num_sources", 0, 32),
    union("", 32, {
      fma_info: [
        enumField("scale_dtype", 0, 32, {
          names: KBIN_DTYPES,
          doc: "kbin dtype of the scales; must remap to fp32",
        }),
        array("scale", 32, { count: 32, strideBits: 32 }, [f32("", 0)]),
      ],
      min_max_info: [
        bool("use_constant", 0, { doc: "C bool (1 byte; bits 1..7 unused)" }),
        enumField("constant_dtype", 32, 32, { names: KBIN_DTYPES, doc: "aliases fma_info.scale.0" }),
        uint("constant", 64, 32, { doc: "the clamp constant, raw 32 bits" }),
      ],
    }),
    uint("num_dests", 136 * 8, 32),
  ],
});
