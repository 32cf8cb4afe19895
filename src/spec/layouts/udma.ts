/**
 * The public UDMA descriptor views (aws-neuron-driver udma/udma.h, GROUND_TRUTH): 16 bytes,
 * little-endian, word 0 the len_ctrl shared by all three views.
 */
import { bool, compileLayout, type LayoutNode, struct, uint } from "../../bits/index.js";

/** len_ctrl: length 15:0 (65536 written as 0), ring id 25:24, FIRST 26, LAST 27, INT_EN 28, DMB 30. */
export const LEN_CTRL_FIELDS = [
  uint("length", 0, 16, { fidelity: "public", doc: "bytes; 65536 is written as 0" }),
  bool("has_meta", 23, { doc: "the seeds' 'has extended meta' flag (seed 000 §2.2); unnamed by the driver" }),
  uint("ring_id", 24, 2, { fidelity: "public", doc: "ring phase: starts at 1, +1 mod 4 at every wrap" }),
  bool("first", 26, { fidelity: "public" }),
  bool("last", 27, { fidelity: "public" }),
  bool("int_en", 28, { fidelity: "public" }),
  bool("strong_order", 29, { fidelity: "public", doc: "S2M strong-order write (Trn2 and later)" }),
  bool("dmb", 30, { fidelity: "public", doc: "M2S data memory barrier" }),
];

const lenCtrl = struct("len_ctrl", 0, LEN_CTRL_FIELDS);
const source = "aws-neuron-driver udma/udma.h (public; GROUND_TRUTH)";
const view = <const F extends readonly LayoutNode[]>(name: string, doc: string, fields: F) =>
  compileLayout({ name, bytes: 16, doc, source, fields: [lenCtrl, ...fields] });

export const UDMA_TX = view("udma-tx", "M2S (TX) data descriptor: len_ctrl, meta_ctrl, buf_ptr.", [
  uint("meta_ctrl", 32, 32, {
    fidelity: "public",
    doc: "plain copy: 0x01080003; compute: the op's meta-control word",
  }),
  uint("buf_ptr", 64, 64, { fidelity: "public", doc: "source address" }),
]);

export const UDMA_TX_META = view(
  "udma-tx-meta",
  "M2S (TX) meta descriptor: len_ctrl, meta_ctrl, meta1, meta2.",
  [
    uint("meta_ctrl", 32, 32, { fidelity: "public" }),
    uint("meta1", 64, 32, { fidelity: "public" }),
    uint("meta2", 96, 32, { fidelity: "public" }),
  ],
);

export const UDMA_RX = view("udma-rx", "S2M (RX) descriptor: len_ctrl, buf2_ptr_lo, buf1_ptr.", [
  uint("buf2_ptr_lo", 32, 32, {
    fidelity: "public",
    doc: "second buffer, low word; sdmakit puts the S2M meta-control here when has_meta is set (MODEL)",
  }),
  uint("buf1_ptr", 64, 64, { fidelity: "public", doc: "destination address" }),
]);
