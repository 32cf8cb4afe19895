/**
 * The control word (the seed's v51) the CAYMAN transpose builder puts in every S2M descriptor's
 * buf2_ptr_lo (libnrt aws_cayman_sdma_m2m_build_transpose_packet @0x44b0e0, seed 003 §2):
 * `((cols − 1) & 0xF) | 16·ctrl`, HIBYTE = 2·dir. The seed computes it in 64 bits; sdmakit keeps
 * the low 32 (MODEL, docs/FIDELITY.md), so 2·dir is dir at bit 25 over a bit 24 that stays 0.
 */
import { compileLayout, reserved, uint } from "../../bits/index.js";

export const CAYMAN_TRANSPOSE_CTRL = compileLayout({
  name: "cayman-transpose-ctrl",
  bytes: 4,
  doc: "CAYMAN transpose control word (v51), the S2M descriptors' buf2_ptr_lo.",
  source: "libnrt aws_cayman_sdma_m2m_build_transpose_packet @0x44b0e0, seed 003 §2 (32-bit MODEL)",
  fields: [
    uint("cols_m1", 0, 4, { doc: "columns − 1 ((cols − 1) & 0xF; cols 1..16)" }),
    uint("ctrl", 4, 20, { doc: "the seed's ctrl (16·ctrl, bits 23:4; name MED)" }),
    reserved("dir_lo", 24, 1, { doc: "2·dir is even" }),
    uint("dir", 25, 7, { doc: "the seed's dir (HIBYTE = 2·dir)" }),
  ],
});
