import { describe, expect, it } from "vitest";
import { isEinval, SdmaAbortError } from "../../src/bits/index.js";
import {
  buildCaymanTransposeFlushPacket,
  buildCaymanTransposePacket,
  buildTransposeDescriptor,
  buildTransposeMetaCtrl,
  type CaymanTransposeRequest,
  classifySbuf,
  type DmaPacket,
  tpbBase,
  verifyTransposeDimensions,
} from "../../src/hal/index.js";
import { SBUF_WINDOWS, TRANSPOSE_DESC, UDMA_RX, UDMA_TX } from "../../src/spec/index.js";

const BF16 = 6;
const FP32 = 10;
const req = (to: bigint, over: Partial<CaymanTransposeRequest> = {}): CaymanTransposeRequest => ({
  dtype: BF16,
  cols: 4,
  dir: 1,
  ctrl: 0,
  a2: 0n,
  op: 1,
  wDim: 1,
  zDim: 1,
  from: [{ addr: 0x1000n, len: 8 }],
  to: [{ addr: to, len: 8 }],
  ...over,
});
const rxAddr = (r: ReturnType<typeof buildCaymanTransposePacket>) =>
  UDMA_RX.decode((r as DmaPacket).rx).buf1_ptr;

describe("SBUF window classification at the edges", () => {
  for (const base of SBUF_WINDOWS) {
    it(`window 0x${base.toString(16)}: first and last byte in, one past and one before out`, () => {
      expect(classifySbuf(base)).toEqual({ base, rel: 0n });
      expect(classifySbuf(base + 0x1ffffffn)).toEqual({ base, rel: 0x1ffffffn });
      expect(classifySbuf(base + 0x2000000n)).toBeUndefined();
      expect(classifySbuf(base - 1n)).toBeUndefined();
      expect(isEinval(buildCaymanTransposePacket(req(base)))).toBe(false);
      expect(isEinval(buildCaymanTransposePacket(req(base + 0x1ffffffn)))).toBe(false);
      const past = buildCaymanTransposePacket(req(base + 0x2000000n));
      expect(past).toEqual({
        status: -22,
        message: "v3 arch only supports transpose with SB as the destination",
      });
    });
  }
});

describe("to-descriptor bit packing (seed 003 §2)", () => {
  const W = SBUF_WINDOWS[0] as bigint;
  it("first byte of a window: everything zero but the base", () => {
    expect(rxAddr(buildCaymanTransposePacket(req(W)))).toBe(W);
  });
  it("bf16, last byte: partition 127, offset 0x3FFFF, low byte 2·127", () => {
    expect(rxAddr(buildCaymanTransposePacket(req(W + 0x1ffffffn)))).toBe(W + 0x1_ffff_fffen);
  });
  it("partition base from a2 byte 6 is added at bit 26", () => {
    const r = buildCaymanTransposePacket(req(W + (3n << 18n) + 0x10n, { a2: (5n << 48n) | 0xffn }));
    expect(rxAddr(r)).toBe(W + ((0x10n << 8n) | ((3n + 5n) << 26n) | 6n));
  });
  it("fp32, partition 0x3F: byte 4 |= 4, no +0x80", () => {
    const r = buildCaymanTransposePacket(req(W + (0x3fn << 18n), { dtype: FP32 }));
    expect(rxAddr(r)).toBe(W + ((0x3fn << 26n) | (4n << 32n) | ((4n * 0x3fn) & 0xffn)));
  });
  it("fp32, partition 0x40: +0x80 on top of the low byte", () => {
    const r = buildCaymanTransposePacket(req(W + (0x40n << 18n), { dtype: FP32 }));
    expect(rxAddr(r)).toBe(W + ((0x40n << 26n) | (4n << 32n)) + 0x80n);
  });
  it("fp32, last byte: the +0x80 carries out of the low byte (an add, not an OR)", () => {
    expect(rxAddr(buildCaymanTransposePacket(req(W + 0x1ffffffn, { dtype: FP32 })))).toBe(W + 0x6_0000_007cn);
  });
  it("TX carries the transpose meta; RX carries v51 = (cols−1) | 16·ctrl | 2·dir << 24", () => {
    const r = buildCaymanTransposePacket(req(W, { cols: 16, ctrl: 3, dir: 5 })) as DmaPacket;
    const tx = UDMA_TX.decode(r.tx);
    expect(tx.meta_ctrl).toBe(buildTransposeMetaCtrl(2, BF16, 0));
    expect(tx.buf_ptr).toBe(0x1000n);
    expect(UDMA_RX.decode(r.rx).buf2_ptr_lo).toBe(0xf | (3 << 4) | (10 << 24));
    expect([
      tx["len_ctrl.length"],
      tx["len_ctrl.first"],
      tx["len_ctrl.last"],
      tx["len_ctrl.ring_id"],
    ]).toEqual([8, true, true, 1]);
  });
});

describe("rejections", () => {
  const W = SBUF_WINDOWS[0] as bigint;
  it.each([0, 16])("dtype %i: Invalid dtype %i passed", (dt) => {
    expect(buildCaymanTransposePacket(req(W, { dtype: dt }))).toEqual({
      status: -22,
      message: `Invalid dtype ${dt} passed`,
    });
  });
  it("a W or Z dim: transpose op currently unsupported", () => {
    expect(buildCaymanTransposePacket(req(W, { wDim: 2, op: 7 }))).toEqual({
      status: -22,
      message: "transpose op 7 currently unsupported on v3 arch",
    });
  });
  it("different from / to sizes or counts", () => {
    const msg = "v3 arch does not currently support transposes of different from/to sizes";
    expect(buildCaymanTransposePacket(req(W, { to: [{ addr: W, len: 4 }] }))).toEqual({
      status: -22,
      message: msg,
    });
    expect(buildCaymanTransposePacket(req(W, { to: [] }))).toEqual({ status: -22, message: msg });
  });
  it("HBM destination", () => {
    expect(isEinval(buildCaymanTransposePacket(req(0x4000_0000n)))).toBe(true);
  });
});

describe("flush packet", () => {
  it("one 4-byte copy to tpb_base + 0x200000004000000", () => {
    const p = buildCaymanTransposeFlushPacket(2);
    const rx = UDMA_RX.decode(p.rx);
    expect(rx.buf1_ptr).toBe(tpbBase(2) + 0x200000004000000n);
    expect(rx["len_ctrl.length"]).toBe(4);
    expect(UDMA_TX.decode(p.tx).meta_ctrl).toBe(0x01080003);
    expect(() => buildCaymanTransposeFlushPacket(8)).toThrow(SdmaAbortError);
  });
});

describe("al_sdma_m2s_build_transpose_descriptor", () => {
  it("meta ctrl matches the seed formula", () => {
    for (const [elem, dt, shape] of [
      [2, 6, 0],
      [4, 10, 2],
      [1, 13, 1],
    ] as const) {
      const expected = (elem & 0x1f) | (shape > 1 ? 0x20 : 0) | (shape << 8) | ((dt & 0xf) << 16) | 0x900000;
      expect(buildTransposeMetaCtrl(elem, dt, shape)).toBe(expected);
    }
  });
  it("word0 = elem | 0x800000 | a2 << 24, dims in words 2..3", () => {
    const slot = new Uint8Array(32);
    expect(
      buildTransposeDescriptor(slot.subarray(16), 0x15, BF16, {
        dims: { w: 1, x: 4, y: 8, z: 1 },
        shapeIdx: 0,
      }),
    ).toBe(0);
    const dv = new DataView(slot.buffer);
    expect(dv.getUint32(16, true)).toBe((2 | 0x800000 | (0x15 << 24)) >>> 0);
    expect(dv.getUint32(20, true)).toBe(buildTransposeMetaCtrl(2, BF16, 0));
    expect(TRANSPOSE_DESC.decode(slot, 16)).toMatchObject({ w_dim: 1, x_dim: 4, y_dim: 8, z_dim: 1 });
    expect([...slot.slice(0, 16)]).toEqual(new Array(16).fill(0));
  });
  it("bad dtype and bad dims are -EINVAL with nothing written", () => {
    const slot = new Uint8Array(16);
    expect(buildTransposeDescriptor(slot, 0, 0, { dims: { w: 1, x: 1, y: 1, z: 1 }, shapeIdx: 0 })).toEqual({
      status: -22,
      message: "Invalid dtype 0 passed",
    });
    const r = buildTransposeDescriptor(slot, 0, BF16, { dims: { w: 1, x: 0, y: 1, z: 1 }, shapeIdx: 0 });
    expect(r).toEqual({ status: -22, message: "invalid matrix dimensions w_dim 1 x_dim 0 y_dim 1 z_dim 1" });
    expect([...slot]).toEqual(new Array(16).fill(0));
  });
  it("verify_transpose_dimensions: MODEL budget 0x4000 >> class and per-shape caps", () => {
    expect(verifyTransposeDimensions(1, { w: 1, x: 128, y: 128, z: 1 }, 1)).toBe(0);
    expect(verifyTransposeDimensions(1, { w: 1, x: 128, y: 129, z: 1 }, 1)).toBe(1);
    expect(verifyTransposeDimensions(4, { w: 1, x: 64, y: 64, z: 1 }, 1)).toBe(0);
    expect(verifyTransposeDimensions(4, { w: 1, x: 64, y: 65, z: 1 }, 1)).toBe(1);
    expect(verifyTransposeDimensions(1, { w: 1, x: 513, y: 1, z: 1 }, 0)).toBe(1);
    expect(verifyTransposeDimensions(1, { w: 1, x: 512, y: 1, z: 1 }, 0)).toBe(0);
    expect(verifyTransposeDimensions(1, { w: 1, x: 1, y: 1, z: 1 }, 4)).toBe(1);
  });
});
