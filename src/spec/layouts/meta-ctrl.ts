/**
 * The meta-control words (4 bytes): the op-config word the CCE block reads, one layout per
 * al_sdma_m2s_build_*_meta_ctrl bit-pack (seed 000 §2.6, seed 003 §3).
 *
 * Naming: the seeds name the flag bits after each encoder's arguments, and the names disagree
 * between encoders (bit 7 is `last` in ADD/GCE, `notif` in MIN/MAX, `f4` in FMA). Seed 000 §4.1 and
 * §9.1 fix bit 7 as the last-source flush bit, so every layout here calls bit 7 `last`, bit 6
 * `wrbar` and bit 4 `flag4`, and the doc of each field keeps the seed's argument name.
 * Bits 22:20 and 25:23 are read with the public UDMA view (GROUND_TRUTH): optype and op
 * (op 4 = CCE compute, the seeds' "bit 25").
 */
import { bool, compileLayout, constant, enumField, type LayoutNode, uint } from "../../bits/index.js";
import { DTYPE_ENUM_NAMES } from "../dtype.js";
import { SdmaCceType } from "../enums.js";

const DTYPES = DTYPE_ENUM_NAMES;
const dtypeNibble = <N extends string>(name: N, bit: number, doc: string) =>
  enumField(name, bit, 4, { names: DTYPES, doc });

const sub = uint("sub", 0, 3, { doc: "sub-op; public view: bit 0 last block, bit 1 first block" });
const last = (seedName: string) =>
  bool("last", 7, { doc: `last source: flush the accumulator to S2M (seed 000 §4.1; seed arg ${seedName})` });
const wrbar = (seedName: string) => bool("wrbar", 6, { doc: `write barrier (seed arg ${seedName})` });
const flag4 = (seedName: string) =>
  bool("flag4", 4, { doc: `flag at bit 4, meaning LOW (seed arg ${seedName})` });
/** MODEL: the combo "more descriptors follow" bit (COMBO_MORE, seed 000 §5.1) rides the meta word. */
const more = bool("more", 30, {
  fidelity: "model",
  doc: "combo more-descriptors-follow (0x40000000, ORed at 0x44a83b right after build_*_meta_ctrl)",
});
const cceOp = constant("op", 23, 3, {
  value: 4,
  doc: "op 25:23 = 4: CCE compute (the seeds' bit 25, 0x2000000)",
});
const optype = (value: number, doc: string) => constant("optype", 20, 3, { value, doc });

function meta<const F extends readonly LayoutNode[]>(name: string, source: string, doc: string, fields: F) {
  return compileLayout({ name, bytes: 4, doc, source, fields });
}

export const FMA_META = meta(
  "fma-meta",
  "libnrt al_sdma_m2s_build_fma_meta_ctrl @0x451bd0, seed 000 §2.6",
  "FMA meta-control: base 0x2100000; in / scale / accumulate dtype nibbles.",
  [
    sub,
    flag4("f6"),
    wrbar("f5"),
    last("f4"),
    dtypeNibble("in_dt", 8, "dtype of the source stream"),
    dtypeNibble("scale_dt", 12, "dtype of the scale (always fp32 from libnrt, vring.c:0x3BA)"),
    dtypeNibble("accum_dt", 16, "accumulation dtype"),
    optype(SdmaCceType.FMA, "CCE optype FMA (0x100000)"),
    cceOp,
    more,
  ],
);

export const MIN_MAX_META = meta(
  "min-max-meta",
  "libnrt al_sdma_m2s_build_min_max_meta_ctrl @0x451ca0, seed 000 §2.6",
  "MIN/MAX meta-control: base 0x2000000; bits 22:20 carry (const_dt & 7).",
  [
    sub,
    flag4("last"),
    bool("use_const", 5, { doc: "clamp against the constant of the min-max descriptor" }),
    wrbar("wrbar"),
    last("notif"),
    dtypeNibble("in_dt", 8, "dtype of the source stream"),
    dtypeNibble("out_dt", 12, "output dtype; libnrt forces it only when use_const, else 0"),
    dtypeNibble("accum_dt", 16, "accumulation dtype"),
    uint("const_dt", 20, 3, {
      doc: "seed: const_dt & 7; public optype field (MAX 2, MIN 3) — sdmakit builders write the optype here (MODEL)",
    }),
    cceOp,
    more,
  ],
);

export const ADD_META = meta(
  "add-meta",
  "libnrt al_sdma_m2s_build_add_meta_ctrl @0x451b80, seed 000 §2.6",
  "ADD meta-control: base 0x2000000; the 15:12 nibble is the dtype of the stream it tags.",
  [
    sub,
    flag4("f"),
    wrbar("wrbar"),
    last("last"),
    dtypeNibble("out_dt", 12, "seed: out_dt; on an M2S (TX) descriptor the dtype the source stream delivers"),
    dtypeNibble("accum_dt", 16, "accumulation dtype"),
    optype(SdmaCceType.ADD, "CCE optype ADD (0)"),
    cceOp,
    more,
  ],
);

export const GCE_META = meta(
  "gce-meta",
  "libnrt al_sdma_m2s_build_gradient_meta_ctrl @0x451d70, seed 000 §2.6",
  "GCE (gradient compression) meta-control: base 0x2500000.",
  [
    sub,
    flag4("f"),
    wrbar("wrbar"),
    last("last"),
    dtypeNibble("in_dt", 8, "dtype of the source stream"),
    dtypeNibble("scale_dt", 12, "scale dtype"),
    dtypeNibble("accum_dt", 16, "accumulation dtype"),
    optype(SdmaCceType.GCE, "CCE optype GCE (0x500000)"),
    cceOp,
    more,
  ],
);

export const EXT_META = meta(
  "ext-meta",
  "libnrt al_sdma_m2s_build_cce_ext_meta_ctrl @0x451dc0, seed 000 §2.6",
  "EXT (combo packet) meta-control: base 0x2400000.",
  [
    sub,
    dtypeNibble("mid_dt", 12, "intermediate dtype"),
    dtypeNibble("accum_dt", 16, "accumulation dtype"),
    optype(SdmaCceType.EXT, "CCE optype EXT (0x400000)"),
    cceOp,
  ],
);

/** Fields of the transpose meta-control; also nested as W1 of the transpose descriptor. */
export const TRANSPOSE_META_FIELDS = [
  uint("elem", 0, 5, { doc: "element size in bytes (& 0x1F)" }),
  bool("multi_shape", 5, { doc: "0x20, set by libnrt when shape_idx > 1" }),
  uint("shape_idx", 8, 8, { doc: "shape index (<< 8)" }),
  dtypeNibble("dtype", 16, "element dtype"),
  constant("optype", 20, 3, { value: 1, doc: "transpose optype 1 (0x100000)" }),
  constant("op", 23, 3, { value: 1, doc: "op 1 (0x800000)" }),
];

export const TRANSPOSE_META = meta(
  "transpose-meta",
  "libnrt al_sdma_m2s_build_transpose_meta_ctrl @0x451980, seed 003 §3",
  "Transpose meta-control: base 0x900000 (optype 1, op 1).",
  TRANSPOSE_META_FIELDS,
);

/** op / optype of a replication meta-control whose mode is set (0x4a00000 = op 1, optype 2, flag26). */
export const REPLICATION_META_CLASS = { op: 1, optype: 2 } as const;

/** Fields of the replication meta-control; also nested as W1 of the replication descriptor. */
export const REPLICATION_META_FIELDS = [
  uint("optype", 20, 3, { doc: "2 when mode is set (0x200000)" }),
  uint("op", 23, 3, { doc: "1 when mode is set (0x800000)" }),
  bool("flag26", 26, { doc: "set with mode (0x4000000); public view: write_barrier" }),
  uint("mode", 29, 3, { doc: "replication mode (<< 29)" }),
];

export const REPLICATION_META = meta(
  "replication-meta",
  "libnrt al_sdma_m2s_build_replication_meta_ctrl @0x451b00, seed 000 §2.5",
  "Replication meta-control: 0x4a00000 | (mode << 29) when mode is set, else 0.",
  REPLICATION_META_FIELDS,
);

export const COPY_META = meta(
  "copy-meta",
  "aws-neuron-driver udma_m2m.c (public); default al_tdma_m2s_meta_ctrl_default_value @0x9e8828, seed 003 §3",
  "The public view of a plain-copy meta_ctrl; the default is 0x01080003.",
  [
    bool("last_block", 0, { fidelity: "public" }),
    bool("first_block", 1, { fidelity: "public" }),
    bool("copy_src", 19, { fidelity: "public", doc: "copy source data" }),
    uint("optype", 20, 3, { fidelity: "public" }),
    uint("op", 23, 3, { fidelity: "public", doc: "2 = CME copy, 4 = CCE compute" }),
    bool("write_barrier", 26, { fidelity: "public" }),
    uint("tag", 27, 5, { fidelity: "public" }),
  ],
);
