// The seeds' enums, tables and constants, pinned to the seeds' literal text. Every expected value
// is copied from the seed line named in the test, never read from the code's own constants.
import { describe, expect, it } from "vitest";
import type { Layout } from "../../src/bits/index.js";
import {
  ADDR4,
  Addr4Marker,
  ArchType,
  CCE_INFO_MAX_SOURCES,
  COMBO_MEMBER,
  COMBO_MORE,
  CSWTCH_19,
  CSWTCH_21,
  DATA_TYPE_SIZES,
  DEFAULT_COPY_META,
  Dtype,
  EncdNeigh,
  EVENTS,
  FmaOperand,
  HEADER,
  KbinDmaDescOp,
  LncSizeFmt,
  MARIANA_SDMA_BASE,
  MAX_CCE_ELEMENTS,
  Opcode,
  POOLING_NUM_CHANNELS,
  PSEUDO_ADDR8_TENSOR2D,
  ReductionType,
  S3D3,
  S3D3_MAX_ELEMENTS,
  SBUF_PARTITION_SHIFT,
  SBUF_WINDOW_BYTES,
  SBUF_WINDOWS,
  SDMA_DATA_TYPE_SIZE,
  SdmaCceType,
  SUB_DESCRIPTOR,
  TENSOR3D,
  W0_HAS_META,
} from "../../src/spec/index.js";

describe("seed 000 §1.1: the two op enums", () => {
  it("kbin_dma_desc_op: INVALID (u64)-1, COPY 0, FMA 1, ADD 2, MIN 3, MAX 4, TRANSPOSE 5, NUM 6", () => {
    expect({ ...KbinDmaDescOp }).toEqual({
      INVALID: -1,
      COPY: 0,
      FMA: 1,
      ADD: 2,
      MIN: 3,
      MAX: 4,
      TRANSPOSE: 5,
      NUM: 6,
    });
  });
  it("SDMA_CCETYPE: ADD 0, FMA 1, MAX 2, MIN 3, EXT 4, GCE 5", () => {
    expect({ ...SdmaCceType }).toEqual({ ADD: 0, FMA: 1, MAX: 2, MIN: 3, EXT: 4, GCE: 5 });
  });
  it("CSWTCH.21 @0x9d6e00 reads 01 00 00 00 | 00 00 00 00 | 03 00 00 00 | 02 00 00 00", () => {
    const bytes = new Uint8Array(new Uint32Array(CSWTCH_21).buffer);
    expect(Array.from(bytes)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0]);
  });
  it("CSWTCH.19 @0x9d6e20 has 15 entries (values: MODEL identity)", () => {
    expect(CSWTCH_19).toHaveLength(15);
  });
});

describe("seed 000 §1.2 / seed 003 §5: dtype sizes", () => {
  it("sdma_data_type_size @0x9be140: 16 entries; fp32 (idx 10) = 4, fp32r (idx 11) = 0, int64 (idx 12) = 8", () => {
    expect(SDMA_DATA_TYPE_SIZE).toHaveLength(16);
    expect([SDMA_DATA_TYPE_SIZE[10], SDMA_DATA_TYPE_SIZE[11], SDMA_DATA_TYPE_SIZE[12]]).toEqual([4, 0, 8]);
  });
  it("data_type_sizes (.3640 / .4241 / .4724) = { 0, 8, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 8, 1, 1, 1 }", () => {
    expect(DATA_TYPE_SIZES).toEqual([0, 8, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 8, 1, 1, 1]);
  });
});

describe("seed 002 §5: the dtype enum", () => {
  it("INVALID 0 UINT64 1 INT8 2 UINT8 3 INT16 4 UINT16 5 BFLOAT16 6 FP16 7 INT32 8 UINT32 9 FP32 10 FP32R 11 INT64 12 FP8_E3 13 FP8_E4 14 FP8_E5 15", () => {
    expect({ ...Dtype }).toEqual({
      INVALID: 0,
      UINT64: 1,
      INT8: 2,
      UINT8: 3,
      INT16: 4,
      UINT16: 5,
      BFLOAT16: 6,
      FP16: 7,
      INT32: 8,
      UINT32: 9,
      FP32: 10,
      FP32R: 11,
      INT64: 12,
      FP8_E3: 13,
      FP8_E4: 14,
      FP8_E5: 15,
    });
  });
});

describe("the other seed enums", () => {
  it("al_sdma_m2s_fma_operand: stored_buffer 0, input_buffer 1, scale 2 (seed 000 §3.1)", () => {
    expect({ ...FmaOperand }).toEqual({ STORED_BUFFER: 0, INPUT_BUFFER: 1, SCALE: 2 });
  });
  it("enc_primitive::reduction_type_t: RING_2R1W 0, RING_2R2W 1, KANGARING_NR1W 2 (seed 000 §8)", () => {
    expect({ ...ReductionType }).toEqual({ RING_2R1W: 0, RING_2R2W: 1, KANGARING_NR1W: 2 });
  });
  it("NEURON_ISA_TPB_LNC_SIZE_FMT: LNC1 0, LNC2 1, LNC4 2, LNC8 3 (seed 002 §7.1)", () => {
    expect({ ...LncSizeFmt }).toEqual({ LNC1: 0, LNC2: 1, LNC4: 2, LNC8: 3 });
  });
  it("encd_neigh: LOCAL … NUM in the declared order (seed 002 §4.4)", () => {
    const order = [
      "LOCAL",
      "NEXT",
      "PREV",
      "GATEWAY",
      "PEER_RMTV",
      "PEER_RMTV2",
      "PEER_LOCAL",
      "NEXT_PEER_RMTV",
      "INVALID",
      "NUM",
    ];
    expect({ ...EncdNeigh }).toEqual(Object.fromEntries(order.map((n, i) => [n, i])));
  });
  it("ADDR4 marker top bits: IMM 0x00, SHAPE_REG 0x40, ADDR_REG 0x80, ADDR_SHAPE_REG 0xC0 (seed 002 §3.2)", () => {
    expect({ ...Addr4Marker }).toEqual({ IMM: 0x00, SHAPE_REG: 0x40, ADDR_REG: 0x80, ADDR_SHAPE_REG: 0xc0 });
  });
  it("hal_target: SUNDA 2, CAYMAN 3, MARIANA 4, NUM 5, INVALID 0 (seed 003 §1, CORRECTION ARCH-SDMA-01)", () => {
    expect({ ...ArchType }).toEqual({ INVALID: 0, SUNDA: 2, CAYMAN: 3, MARIANA: 4, NUM: 5 });
  });
  it("opcodes: SB2SB_COLLECTIVE 0xbf, TRIGGER_ALL_REDUCE 0xc7, TRIGGER_COLLECTIVE 0xc8, COLLECTIVE2 0xd9 / 0xda (seed 002 §1)", () => {
    expect({ ...Opcode }).toEqual({
      SB2SB_COLLECTIVE: 0xbf,
      PSEUDO_TRIGGER_ALL_REDUCE: 0xc7,
      PSEUDO_TRIGGER_COLLECTIVE: 0xc8,
      PSEUDO_TRIGGER_COLLECTIVE2: 0xd9,
      PSEUDO_TRIGGER_COLLECTIVE2_EXT: 0xda,
    });
  });
});

describe("seed 003 §5: SBUF windows and mariana_sdma_base", () => {
  it("eight 32 MiB windows, tiles 4..7 with the +0x800000000000 high bit; 256 KiB partitions", () => {
    expect(SBUF_WINDOWS).toEqual([
      0x2000000000n,
      0x3000000000n,
      0x6000000000n,
      0x7000000000n,
      0x802000000000n,
      0x803000000000n,
      0x806000000000n,
      0x807000000000n,
    ]);
    for (let t = 4; t < 8; t++) {
      expect((SBUF_WINDOWS[t] as bigint) - (SBUF_WINDOWS[t - 4] as bigint)).toBe(0x800000000000n);
    }
    expect(SBUF_WINDOW_BYTES).toBe(0x2000000);
    expect(1 << SBUF_PARTITION_SHIFT).toBe(256 * 1024);
  });
  it("mariana_sdma_base @0x9df220: u64[128], entry0 = 0x001002000000, entry1 = 0x001002001000, stride 0x1000", () => {
    expect(MARIANA_SDMA_BASE).toHaveLength(128);
    expect([MARIANA_SDMA_BASE[0], MARIANA_SDMA_BASE[1]]).toEqual([0x001002000000n, 0x001002001000n]);
    expect(MARIANA_SDMA_BASE[127]).toBe(0x001002000000n + 127n * 0x1000n);
  });
});

describe("limits and constant words", () => {
  it("aws_hal_get_sdma_max_cce_elements: 0x400 on arch 2, 0x800 on 3 and 4 (seed 000 §7.1)", () => {
    expect([MAX_CCE_ELEMENTS[2], MAX_CCE_ELEMENTS[3], MAX_CCE_ELEMENTS[4]]).toEqual([0x400, 0x800, 0x800]);
  });
  it("POOLING_NUM_CHANNELS 128 (seed 002 §7.2), size_check_src ≤ 256 (§3.4), cce_info 32 sources (seed 000 §2.1)", () => {
    expect([POOLING_NUM_CHANNELS, S3D3_MAX_ELEMENTS, CCE_INFO_MAX_SOURCES]).toEqual([128, 256, 32]);
  });
  it("copy default 0x01080003 (seed 003 §3); W0 bit 23 0x800000, sub-descriptor 0x6000000 (seed 000 §2.2, §2.4)", () => {
    expect([DEFAULT_COPY_META, W0_HAS_META, SUB_DESCRIPTOR]).toEqual([0x01080003, 0x800000, 0x6000000]);
  });
  it("combo more-bit 0x40000000 (ORed at 0x44a83b), combo-member flag 0x4000000 (0x44ae3e) (seed 000 §5.1)", () => {
    expect([COMBO_MORE, COMBO_MEMBER]).toEqual([0x40000000, 0x4000000]);
  });
});

describe("seed 002 §2 probe: struct sizes and the header / events members", () => {
  it("sizeof TENSOR3D 16, PSEUDO_ADDR8TENSOR2D 24, ADDR4 4, PSEUDO_ADDR8 8, HEADER 4, EVENTS 8, S3D3 64", () => {
    expect([
      TENSOR3D.bytes,
      PSEUDO_ADDR8_TENSOR2D.bytes,
      ADDR4.bytes,
      HEADER.bytes,
      EVENTS.bytes,
      S3D3.bytes,
    ]).toEqual([16, 24, 4, 4, 8, 64]);
    expect(PSEUDO_ADDR8_TENSOR2D.leaf("start_addr").width).toBe(8 * 8);
  });
  it("HEADER {opcode, inst_word_len, debug_cmd, debug_hint} one byte each; EVENTS {wait_mode, wait_idx, update_mode, update_idx: 1 B, semaphore_value: u32}", () => {
    const s3d3: Layout = S3D3; // any name: checked at run time
    const at = (p: string) => [s3d3.leaf(p).bit / 8, s3d3.leaf(p).width / 8];
    expect(["opcode", "inst_word_len", "debug_cmd", "debug_hint"].map((f) => at(`header.${f}`))).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    expect(
      ["wait_mode", "wait_idx", "update_mode", "update_idx", "semaphore_value"].map((f) => at(`events.${f}`)),
    ).toEqual([
      [4, 1],
      [5, 1],
      [6, 1],
      [7, 1],
      [8, 4],
    ]);
  });
});
