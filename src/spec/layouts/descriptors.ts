/**
 * The 16-byte M2S compute descriptors the al_sdma_m2s_build_*_descriptor leaves write through
 * al_copy_descriptor (seed 000 §2, seed 003 §3). Words W0..W3 are little-endian u32 at bytes
 * 0, 4, 8, 12; bit offsets below are absolute (W1 bit 25 is bit 57).
 */
import {
  bool,
  compileLayout,
  constant,
  enumField,
  f32,
  LayoutDefinitionError,
  type LayoutNode,
  reserved,
  struct,
  uint,
  union,
} from "../../bits/index.js";
import { FmaOperand, namesOf } from "../enums.js";
import { REPLICATION_META_FIELDS, TRANSPOSE_META_FIELDS } from "./meta-ctrl.js";
import { UDMA_TX } from "./udma.js";

const W1 = 32;
const W2 = 64;
const W3 = 96;
const OPERANDS = namesOf(FmaOperand);

/**
 * W0 of every compute descriptor: `wb_arg | 0x800000 | (meta_idx << 24)`. The byte is the seed's
 * meta_idx argument as libnrt's builders take it; the ring writer stamps the chain position into it
 * (spec/packet-model.ts), read and written through the `position` view of the same bits.
 */
const computeW0 = [
  uint("wb", 0, 23, { doc: "seed wb_arg / elem_or_len (bits 22:0)" }),
  constant("has_meta", 23, 1, {
    value: 1,
    doc: "W0 bit 23: the descriptor carries a compute meta (0x800000)",
  }),
  union("", 24, {
    meta_idx: [uint("", 0, 8, { doc: "seed meta_idx / ring byte (<< 24), whole" })],
    position: [
      uint("ring_id", 0, 2, { fidelity: "model", doc: "ring phase (meta_idx 1:0; len_ctrl ring_id's bits)" }),
      bool("first", 2, {
        fidelity: "model",
        doc: "first of the TX chain (meta_idx bit 2; len_ctrl FIRST's bit)",
      }),
      bool("last", 3, {
        fidelity: "model",
        doc: "last of the TX chain (meta_idx bit 3; len_ctrl LAST's bit)",
      }),
      bool("dmb", 6, { fidelity: "model", doc: "data memory barrier (meta_idx bit 6; len_ctrl DMB's bit)" }),
    ],
  }),
];

/** W1 bits 25..26 of the MIN/MAX and seed-init descriptors: 0x6000000 loads a sub-descriptor. */
const subDesc = (doc: string) => uint("sub_desc", W1 + 25, 2, { doc });

function desc<const F extends readonly LayoutNode[]>(name: string, source: string, doc: string, fields: F) {
  return compileLayout({ name, bytes: 16, doc, source, fields: [...computeW0, ...fields] });
}

export const FMA_DESC = desc(
  "fma-desc",
  "libnrt al_sdma_m2s_build_fma_descriptor @0x451c20, seed 000 §2.3",
  "FMA descriptor: W1 base 0x2100000, W2 the three operand selectors, W3 the FP32 scale.",
  [
    uint("sub", W1, 3, { doc: "sub-op (a9 & 7)" }),
    constant("optype", W1 + 20, 3, { value: 1, doc: "FMA optype (0x100000)" }),
    constant("op", W1 + 23, 3, { value: 4, doc: "CCE op (0x2000000)" }),
    bool("wrbar", W1 + 26, { doc: "seed arg a10 (<< 26); public view: write_barrier" }),
    uint("a8", W1 + 29, 3, { doc: "seed arg a8 (<< 29, unmasked); public view: tag bits" }),
    uint("sema", W2, 24, { doc: "semaphore (& 0xFFFFFF)" }),
    enumField("a_sel", W2 + 24, 2, { names: OPERANDS, doc: "multiply operand A (default INPUT_BUFFER)" }),
    enumField("b_sel", W2 + 26, 2, { names: OPERANDS, doc: "multiply operand B (default SCALE)" }),
    enumField("c_sel", W2 + 28, 2, { names: OPERANDS, doc: "add operand C (default STORED_BUFFER)" }),
    f32("scale", W3, { doc: "the per-source FP32 scale" }),
  ],
);

export const MIN_MAX_DESC = desc(
  "min-max-desc",
  "libnrt al_sdma_m2s_build_min_max_descriptor @0x451d10, seed 000 §2.4",
  "MIN/MAX descriptor: W1 the constant sub-descriptor when use_const, W2 length | 0x2000000, W3 the constant.",
  [
    uint("const_dt", W1 + 20, 3, { doc: "constant dtype & 7 (fp32 → 2, int32 → 0, uint32 → 1)" }),
    subDesc("3 (0x6000000) when use_const: the constant sub-descriptor; 0 otherwise"),
    uint("length", W2, 24, { doc: "length & 0xFFFFFF" }),
    constant("cce", W2 + 25, 1, { value: 1, doc: "0x2000000" }),
    uint("constant", W3, 32, { doc: "min_max_info.constant, raw 32 bits" }),
  ],
);

export const SEED_INIT_DESC = desc(
  "seed-init-desc",
  "libnrt al_sdma_m2s_build_seed_init_descriptor @0x451e40, seed 000 §2.5, §3.4",
  "Seed-init descriptor: loads the queue's stochastic-rounding seed before the compute descriptors.",
  [
    subDesc("3 (0x6000000) when seed-enable; 2 (0x4000000) the combo-member flag alone"),
    reserved("reserved_w2", W2, 32),
    uint("seed", W3, 32, {
      fidelity: "model",
      doc: "the 32-bit SR seed (the seed says it is threaded into the packet, not where: MODEL W3)",
    }),
  ],
);

export const REPLICATION_DESC = desc(
  "replication-desc",
  "libnrt al_sdma_m2s_build_replication_descriptor @0x451b10, seed 000 §2.5",
  "Replication descriptor: W1 the replication meta-control, W2..W3 the extra destination.",
  [
    struct("meta", W1, REPLICATION_META_FIELDS),
    uint("dest", W2, 64, { fidelity: "model", doc: "destination address (MODEL: W2..W3)" }),
  ],
);

export const TRANSPOSE_DESC = desc(
  "transpose-desc",
  "libnrt al_sdma_m2s_build_transpose_descriptor @0x4519a0, seed 003 §3",
  "Transpose descriptor: W1 the transpose meta-control, W2 = pack_dims_lo(w, x), W3 = pack_dims_hi(y, z).",
  [
    struct("meta", W1, TRANSPOSE_META_FIELDS),
    uint("w_dim", W2, 16, { fidelity: "model", doc: "pack_dims_lo: w in bits 15:0 (MODEL)" }),
    uint("x_dim", W2 + 16, 16, { fidelity: "model", doc: "pack_dims_lo: x in bits 31:16 (MODEL)" }),
    uint("y_dim", W3, 16, { fidelity: "model", doc: "pack_dims_hi: y in bits 15:0 (MODEL)" }),
    uint("z_dim", W3 + 16, 16, { fidelity: "model", doc: "pack_dims_hi: z in bits 31:16 (MODEL)" }),
  ],
);

export const GRADIENT_DESC = desc(
  "gradient-desc",
  "libnrt al_sdma_m2s_build_gradient_descriptor @0x451de0, seed 000 §5.2 (body not in the seed: MODEL)",
  "GCE gradient descriptor: the compress / decompress mode and the compression header address.",
  [
    enumField("mode", W1, 2, {
      names: { 1: "COMPRESS", 2: "DECOMPRESS" },
      fidelity: "model",
      doc: "GCE direction (MODEL)",
    }),
    uint("block_log2", W1 + 8, 4, { fidelity: "model", doc: "log2 of the values per shared scale (MODEL)" }),
    constant("optype", W1 + 20, 3, {
      value: 5,
      fidelity: "model",
      doc: "GCE optype, as in gce-meta (MODEL)",
    }),
    constant("op", W1 + 23, 3, { value: 4, fidelity: "model", doc: "CCE op, as in gce-meta (MODEL)" }),
    uint("header_addr", W2, 64, { fidelity: "model", doc: "compression header address (MODEL)" }),
  ],
);

// The ring model puts a compute descriptor's position on the bits of the UDMA len_ctrl view
// (spec/packet-model.ts), and the engine reads both kinds of descriptor through len_ctrl's readers.
for (const name of ["ring_id", "first", "last", "dmb"] as const) {
  const at = FMA_DESC.leaf(`position.${name}`);
  const udma = UDMA_TX.leaf(`len_ctrl.${name}`);
  if (at.bit !== udma.bit || at.width !== udma.width)
    throw new LayoutDefinitionError(`fma-desc position.${name} is not on udma-tx len_ctrl.${name}'s bits`);
}
