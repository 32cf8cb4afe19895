/**
 * The public UDMA descriptor views (aws-neuron-driver udma/udma.h, GROUND_TRUTH): 16 bytes,
 * little-endian, word 0 the len_ctrl shared by all three views.
 */
import { bool, compileLayout, type LayoutNode, struct, uint } from "../../bits/index.js";

/**
 * len_ctrl length 15:0, both directions: 1..65536 bytes, 65536 written as 0 (GROUND_TRUTH). The
 * rule is the declaration's, so the builders pass the byte count and readers get it back.
 */
const length = () =>
  uint("length", 0, 16, { fidelity: "public", zeroMeans: 2 ** 16, doc: "bytes, 1..65536" });

/**
 * M2S len_ctrl: length 15:0 (65536 written as 0), ring id 25:24, FIRST 26, LAST 27, INT_EN 28,
 * DMB 30 (udma.h M2S_DESC_*).
 */
export const LEN_CTRL_FIELDS = [
  length(),
  bool("has_meta", 23, { doc: "the seeds' 'has extended meta' flag (seed 000 §2.2); unnamed by the driver" }),
  uint("ring_id", 24, 2, { fidelity: "public", doc: "ring phase: starts at 1, +1 mod 4 at every wrap" }),
  bool("first", 26, { fidelity: "public" }),
  bool("last", 27, { fidelity: "public" }),
  bool("int_en", 28, { fidelity: "public" }),
  bool("strong_order", 29, { fidelity: "public", doc: "S2M strong-order write (Trn2 and later)" }),
  bool("dmb", 30, { fidelity: "public", doc: "M2S data memory barrier" }),
];

/**
 * S2M len_ctrl: length 15:0, ring id 25:24, INT_EN 28, STRONG_ORDER 29 (udma.h S2M_DESC_*; the
 * newer driver's STRONG_ORDER_WR). No FIRST / LAST / DMB: the driver defines them for M2S only and
 * its S2M builder (udma_m2m_build_rx_descriptor) writes length, ring id and INT_EN alone; the S2M
 * side of a packet ends where the stream's bytes end (spec/packet-model.ts).
 */
export const S2M_LEN_CTRL_FIELDS = [
  length(),
  bool("has_meta", 23, {
    doc: "sdmakit: buf2_ptr_lo carries the S2M meta-control of a compute packet (MODEL; seed 000 §2.2's flag)",
  }),
  uint("ring_id", 24, 2, { fidelity: "public", doc: "ring phase: starts at 1, +1 mod 4 at every wrap" }),
  bool("int_en", 28, { fidelity: "public" }),
  bool("strong_order", 29, { fidelity: "public", doc: "S2M strong-order write (Trn2 and later)" }),
  bool("embedded_sem", 31, {
    doc: "MARIANA: W1 carries an embedded-semaphore write (seed 003 §4 desc[+3] |= 0x80, the seed's strong_ord_wr)",
  }),
];

const source = "aws-neuron-driver udma/udma.h (public; GROUND_TRUTH)";
const view = <const L extends readonly LayoutNode[], const F extends readonly LayoutNode[]>(
  name: string,
  doc: string,
  len: L,
  fields: F,
) => compileLayout({ name, bytes: 16, doc, source, fields: [struct("len_ctrl", 0, len), ...fields] });

export const UDMA_TX = view(
  "udma-tx",
  "M2S (TX) data descriptor: len_ctrl, meta_ctrl, buf_ptr.",
  LEN_CTRL_FIELDS,
  [
    uint("meta_ctrl", 32, 32, {
      fidelity: "public",
      doc: "plain copy: 0x01080003; compute: the op's meta-control word",
    }),
    uint("buf_ptr", 64, 64, { fidelity: "public", doc: "source address" }),
  ],
);

export const UDMA_TX_META = view(
  "udma-tx-meta",
  "M2S (TX) meta descriptor: len_ctrl, meta_ctrl, meta1, meta2.",
  LEN_CTRL_FIELDS,
  [
    uint("meta_ctrl", 32, 32, { fidelity: "public" }),
    uint("meta1", 64, 32, { fidelity: "public" }),
    uint("meta2", 96, 32, { fidelity: "public" }),
  ],
);

export const UDMA_RX = view(
  "udma-rx",
  "S2M (RX) descriptor: len_ctrl, buf2_ptr_lo, buf1_ptr.",
  S2M_LEN_CTRL_FIELDS,
  [
    uint("buf2_ptr_lo", 32, 32, {
      fidelity: "public",
      doc: "second buffer, low word; sdmakit puts the S2M meta-control here when has_meta is set (MODEL)",
    }),
    uint("buf1_ptr", 64, 64, { fidelity: "public", doc: "destination address" }),
  ],
);

/** The largest length one descriptor moves (len_ctrl length's 0, declared above). */
export const MAX_DESCRIPTOR_BYTES = UDMA_TX.leaf("len_ctrl.length").zeroMeans as number;
