/**
 * TPB instruction structs of the S3D3 collective (seed 002 §2, §3), offsets compile-verified by the
 * seed's gcc probe and the host DWARF.
 */
import {
  array,
  compileLayout,
  enumField,
  int,
  type LayoutNode,
  reserved,
  struct,
  uint,
  union,
} from "../../bits/index.js";
import { DTYPE_ENUM_NAMES } from "../dtype.js";
import { LncSizeFmt, namesOf } from "../enums.js";

const DTYPES = DTYPE_ENUM_NAMES;

export const HEADER_FIELDS = [
  uint("opcode", 0, 8, { doc: "0xBF = SB2SB_COLLECTIVE" }),
  uint("inst_word_len", 8, 8),
  uint("debug_cmd", 16, 8),
  uint("debug_hint", 24, 8),
] as const;

export const EVENTS_FIELDS = [
  uint("wait_mode", 0, 8, { doc: "NEURON_ISA_TPB_WAIT_MODE" }),
  uint("wait_idx", 8, 8),
  uint("update_mode", 16, 8, { doc: "NEURON_ISA_TPB_UPDATE_MODE" }),
  uint("update_idx", 24, 8),
  uint("semaphore_value", 32, 32),
] as const;

/** ADDR4: an immediate partition offset, or a register reference; the marker's top bits say which. */
export const ADDR4_FIELDS = [
  union("", 0, {
    addr_immediate: [uint("", 0, 32, { doc: "partition offset; bit 25 set = PSUM, clear = SBUF" })],
    addr_reg: [
      uint("regnum", 0, 8),
      reserved("reserved0", 8, 16),
      uint("marker", 24, 8, {
        doc: "top bits: 0x00 IMM, 0x40 SHAPE_REG, 0x80 ADDR_REG, 0xC0 ADDR_SHAPE_REG",
      }),
    ],
  }),
] as const;

export const TENSOR3D_FIELDS = [
  struct("start_addr", 0, ADDR4_FIELDS),
  array("step_elem", 32, { count: 3, strideBits: 16 }, [
    int("", 0, 16, { doc: "signed stride in elements" }),
  ]),
  array("num_elem", 80, { count: 3, strideBits: 16 }, [uint("", 0, 16, { doc: "element count" })]),
] as const;

/** A struct of aws_neuron_isa_tpb_common.h, at its header line. */
function commonH<const F extends readonly LayoutNode[]>(
  name: string,
  bytes: number,
  line: number,
  section: string,
  doc: string,
  fields: F,
) {
  return compileLayout({
    name,
    bytes,
    doc,
    source: `libnrt / aws_neuron_isa_tpb_common.h:${line}, seed 002 ${section}`,
    fields,
  });
}

export const HEADER = commonH("header", 4, 411, "§2", "NEURON_ISA_TPB_HEADER.", HEADER_FIELDS);
export const EVENTS = commonH(
  "events",
  8,
  418,
  "§6",
  "NEURON_ISA_TPB_EVENTS: wait before issue, update on completion.",
  EVENTS_FIELDS,
);
export const ADDR4 = commonH("addr4", 4, 499, "§3.2", "NEURON_ISA_TPB_ADDR4 union.", ADDR4_FIELDS);
export const TENSOR3D = commonH(
  "tensor3d",
  16,
  649,
  "§3",
  "NEURON_ISA_TPB_TENSOR3D: base + 3 signed strides + 3 counts.",
  TENSOR3D_FIELDS,
);
export const PSEUDO_ADDR8_TENSOR2D = commonH(
  "pseudo-addr8-tensor2d",
  24,
  625,
  "§3.5",
  "PSEUDO_ADDR8TENSOR2D of TriggerCollective2: 8-byte address, int32 steps, uint32 counts.",
  [
    uint("start_addr", 0, 64, { doc: "PSEUDO_ADDR8" }),
    array("step_elem", 64, { count: 2, strideBits: 32 }, [int("", 0, 32)]),
    array("num_elem", 128, { count: 2, strideBits: 32 }, [uint("", 0, 32)]),
  ],
);

export const S3D3 = compileLayout({
  name: "s3d3",
  bytes: 64,
  doc: "NEURON_ISA_TPB_S3D3_COLLECTIVE_STRUCT (opcode 0xBF): one 3-D SBUF source, one 3-D SBUF destination.",
  source: "aws_neuron_isa_tpb_s3d3_collective.h + libnrt DWARF, seed 002 §2",
  fields: [
    struct("header", 0, HEADER_FIELDS),
    struct("events", 32, EVENTS_FIELDS),
    enumField("in_dtype", 96, 8, { names: DTYPES }),
    enumField("out_dtype", 104, 8, { names: DTYPES, doc: "must equal in_dtype (dtype_equality_check)" }),
    reserved("reserved0", 112, 16),
    struct("src_mem_pattern", 128, TENSOR3D_FIELDS),
    enumField("lnc_size_fmt", 256, 8, { names: namesOf(LncSizeFmt), doc: "only LNC1 and LNC2 are valid" }),
    uint("num_active_channels", 264, 8, { doc: "1..128" }),
    reserved("reserved1", 272, 112, { doc: "bytes 34..47 (the header comment's 35-47 is off by one)" }),
    struct("dst_mem_pattern", 384, TENSOR3D_FIELDS),
  ],
});
