// Golden tests from the seeds: each expected value is the seed's own literal formula or number,
// computed here independently of the layout declarations.
import { describe, expect, it } from "vitest";
import { hex32, type Layout, toHex, wordsOf } from "../../src/bits/index.js";
import {
  ADD_META,
  CCE_INFO,
  EXT_META,
  FMA_DESC,
  FMA_META,
  GCE_META,
  MIN_MAX_DESC,
  MIN_MAX_META,
  REPLICATION_META,
  S3D3,
  SEED_INIT_DESC,
  TRANSPOSE_META,
} from "../../src/spec/index.js";

const word = (bytes: Uint8Array, i = 0) => wordsOf(bytes)[i] as number;

describe("seed 000 §2.6 meta-control base constants", () => {
  it.each([
    [FMA_META, 0x2100000],
    [ADD_META, 0x2000000],
    [MIN_MAX_META, 0x2000000],
    [GCE_META, 0x2500000],
    [EXT_META, 0x2400000],
    [TRANSPOSE_META, 0x900000],
  ])("%s with all arguments 0 is its base constant", (layout, base) => {
    expect(hex32(word(layout.encode({})))).toBe(hex32(base));
  });
});

describe("seed 000 §2.6 meta-control formulas, bit for bit", () => {
  it("FMA @0x451bd0", () => {
    const [sub, inDt, scaleDt, accumDt, f4, f5, f6] = [5, 6, 10, 10, 1, 1, 1];
    const mc =
      (sub & 7) |
      ((inDt & 0xf) << 8) |
      ((scaleDt & 0xf) << 12) |
      ((accumDt & 0xf) << 16) |
      (f5 << 6) |
      (f6 << 4) |
      (f4 << 7) |
      0x2100000;
    const got = FMA_META.encode({
      sub,
      in_dt: inDt,
      scale_dt: scaleDt,
      accum_dt: accumDt,
      last: true,
      wrbar: true,
      flag4: true,
    });
    expect(word(got)).toBe(mc);
  });
  it("MIN/MAX @0x451ca0", () => {
    const [sub, constDt, inDt, outDt, accumDt, notif, wrbar, useConst, last] = [3, 2, 14, 10, 10, 1, 0, 1, 1];
    const mc =
      (sub & 7) |
      ((constDt & 7) << 20) |
      ((inDt & 0xf) << 8) |
      ((outDt & 0xf) << 12) |
      ((accumDt & 0xf) << 16) |
      (notif << 7) |
      (wrbar << 6) |
      (useConst << 5) |
      (last << 4) |
      0x2000000;
    const got = MIN_MAX_META.encode({
      sub,
      const_dt: constDt,
      in_dt: inDt,
      out_dt: outDt,
      accum_dt: accumDt,
      last: true,
      use_const: true,
      flag4: true,
    });
    expect(word(got)).toBe(mc);
  });
  it("ADD @0x451b80", () => {
    const [sub, outDt, accumDt, last, wrbar, f] = [1, 6, 10, 1, 1, 0];
    const mc =
      (sub & 7) |
      ((outDt & 0xf) << 12) |
      ((accumDt & 0xf) << 16) |
      (last << 7) |
      (wrbar << 6) |
      (f << 4) |
      0x2000000;
    expect(word(ADD_META.encode({ sub, out_dt: outDt, accum_dt: accumDt, last: true, wrbar: true }))).toBe(
      mc,
    );
  });
  it("GCE @0x451d70", () => {
    const mc = (2 & 7) | (15 << 8) | (10 << 12) | (10 << 16) | (1 << 6) | (1 << 4) | (0 << 7) | 0x2500000;
    expect(
      word(GCE_META.encode({ sub: 2, in_dt: 15, scale_dt: 10, accum_dt: 10, wrbar: true, flag4: true })),
    ).toBe(mc);
  });
  it("EXT @0x451dc0", () => {
    const mc = (7 & 7) | (6 << 12) | (10 << 16) | 0x2400000;
    expect(word(EXT_META.encode({ sub: 7, mid_dt: 6, accum_dt: 10 }))).toBe(mc);
  });
  it("transpose @0x451980 (seed 003 §3)", () => {
    const [elem, shapeIdx, dtype] = [4, 3, 10];
    const mc = (elem & 0x1f) | (shapeIdx > 1 ? 0x20 : 0) | (shapeIdx << 8) | ((dtype & 0xf) << 16) | 0x900000;
    expect(word(TRANSPOSE_META.encode({ elem, multi_shape: shapeIdx > 1, shape_idx: shapeIdx, dtype }))).toBe(
      mc,
    );
  });
  it("replication @0x451b00 with mode set: 0x4a00000 | mode << 29", () => {
    const mode = 3;
    expect(word(REPLICATION_META.encode({ optype: 2, op: 1, flag26: true, mode }))).toBe(
      (0x4a00000 | (mode << 29)) >>> 0,
    );
  });
});

describe("seed 000 §2.3 / §9.2: the FMA descriptor of the weighted average", () => {
  it("W0..W3 follow the encoder, W3 = 0x3F000000 for 0.5f, selectors 1 / 2 / 0", () => {
    const [wb, metaIdx, sema, aSel, bSel, cSel, a9, a10, a8] = [0x1234, 1, 0xabcdef, 1, 2, 0, 5, 1, 2];
    const bytes = FMA_DESC.encode({
      wb,
      meta_idx: metaIdx,
      sema,
      a_sel: aSel,
      b_sel: bSel,
      c_sel: cSel,
      scale: 0.5,
      sub: a9,
      wrbar: true,
      a8,
    });
    const w = wordsOf(bytes);
    expect(w[0]).toBe((wb | 0x800000 | (metaIdx << 24)) >>> 0);
    expect(w[1]).toBe(((a9 & 7) | ((a10 & 1) << 26) | (a8 << 29) | 0x2100000) >>> 0);
    expect(w[2]).toBe(
      ((sema & 0xffffff) | ((aSel & 3) << 24) | ((bSel & 3) << 26) | ((cSel & 3) << 28)) >>> 0,
    );
    expect(w[3]).toBe(0x3f000000);
    const d = FMA_DESC.decode(bytes);
    expect([d.a_sel, d.b_sel, d.c_sel, d.scale]).toEqual([1, 2, 0, 0.5]);
  });
});

describe("seed 000 §2.4 / §2.5: MIN/MAX and seed-init descriptors", () => {
  it("MIN/MAX with use_const: W1 = (const_dt & 7) << 20 | 0x6000000, W2 = length | 0x2000000, W3 = constant", () => {
    const bytes = MIN_MAX_DESC.encode({
      const_dt: 10 & 7,
      sub_desc: 3,
      length: 0x1234,
      constant: 0x3f800000,
    });
    expect(wordsOf(bytes)).toEqual([0x800000, ((10 & 7) << 20) | 0x6000000, 0x1234 | 0x2000000, 0x3f800000]);
  });
  it("MIN/MAX without use_const leaves W1 = 0", () => {
    expect(wordsOf(MIN_MAX_DESC.encode({ length: 64 }))[1]).toBe(0);
  });
  it("seed-init with seed-enable: W0 |= 0x800000, W1 = 0x6000000", () => {
    const w = wordsOf(SEED_INIT_DESC.encode({ sub_desc: 3 }));
    expect([w[0], w[1]]).toEqual([0x800000, 0x6000000]);
  });
});

describe("seed 000 §2.1: cce_info is 140 bytes and its union arms alias", () => {
  it("min_max_info.constant_dtype sits on the bytes of fma_info.scale[0]", () => {
    expect(CCE_INFO.bytes).toBe(140);
    expect(CCE_INFO.leaf("min_max_info.constant_dtype").bit).toBe(CCE_INFO.leaf("fma_info.scale.0").bit);
    expect(CCE_INFO.leaf("fma_info.scale_dtype").bit).toBe(4 * 8);
    expect(CCE_INFO.leaf("num_dests").bit).toBe(136 * 8);
    const bytes = (CCE_INFO as Layout).encode({
      num_sources: 2,
      num_dests: 1,
      fma_info: { scale_dtype: 10, scale: [0.5, 0.5] },
    });
    expect(toHex(bytes.subarray(8, 12))).toBe("0000003f");
    expect(CCE_INFO.decode(bytes)["min_max_info.constant_dtype"]).toBe(0x3f000000);
  });
  it("two arms that disagree on shared bytes are refused", () => {
    expect(() => CCE_INFO.encode({ "fma_info.scale.0": 0.5, "min_max_info.constant_dtype": 10 })).toThrow(
      /conflicts/,
    );
  });
});

describe("seed 002 §2: the 64-byte S3D3 word", () => {
  it("has the probe's offsets (reserved1 at 34, dst at 48)", () => {
    const at = (p: string) => (S3D3 as Layout).leaf(p).bit / 8; // any name: checked at run time
    expect(S3D3.bytes).toBe(64);
    expect([
      at("header.opcode"),
      at("events.wait_mode"),
      at("in_dtype"),
      at("out_dtype"),
      at("reserved0"),
    ]).toEqual([0, 4, 12, 13, 14]);
    expect([
      at("src_mem_pattern.start_addr.addr_immediate"),
      at("lnc_size_fmt"),
      at("num_active_channels"),
    ]).toEqual([16, 32, 33]);
    expect([
      at("reserved1"),
      S3D3.leaf("reserved1").width / 8,
      at("dst_mem_pattern.start_addr.addr_immediate"),
    ]).toEqual([34, 14, 48]);
    expect([at("src_mem_pattern.step_elem.0"), at("src_mem_pattern.num_elem.0")]).toEqual([20, 26]);
  });
});
