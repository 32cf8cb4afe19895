import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError, FieldError } from "../../src/bits/index.js";
import {
  addr4FromU32,
  addr4ToU32,
  decodeS3d3,
  encodeS3d3,
  S3D3_BYTES,
  type S3d3Word,
} from "../../src/isa/index.js";
import { S3D3 } from "../../src/spec/index.js";
import { anyWord, counts, steps, VALID_WORD, withPattern } from "./s3d3-fixtures.js";

describe("S3D3 word codec (seed 002 §2, §3)", () => {
  it("is 64 bytes; the layout's members sit at the gcc-probed / DWARF offsets", () => {
    expect(S3D3_BYTES).toBe(64);
    const probe: [keyof S3d3Word & string, number][] = [
      ["header.opcode", 0],
      ["events.wait_mode", 4],
      ["in_dtype", 12],
      ["out_dtype", 13],
      ["reserved0", 14],
      ["src_mem_pattern.start_addr.addr_immediate", 16],
      ["src_mem_pattern.step_elem.0", 20],
      ["src_mem_pattern.num_elem.0", 26],
      ["lnc_size_fmt", 32],
      ["num_active_channels", 33],
      ["reserved1", 34],
      ["dst_mem_pattern.start_addr.addr_immediate", 48],
    ];
    for (const [field, byte] of probe) expect([field, S3D3.leaf(field).bit / 8]).toEqual([field, byte]);
    expect(S3D3.leaf("reserved1").width / 8).toBe(14);
  });

  it("places each member at its byte (reserved1 at 34, not 35; dst at 48)", () => {
    const b = encodeS3d3({ ...VALID_WORD, num_active_channels: 0x55, reserved1: 0xaan });
    expect(b[0]).toBe(0xbf);
    expect(b[1]).toBe(16);
    expect(b[12]).toBe(6);
    expect(b[13]).toBe(6);
    expect(b[33]).toBe(0x55);
    expect(b[34]).toBe(0xaa); // reserved1's first byte is 34: the header comment's "35-47" is off by one
    expect(b[35]).toBe(0);
    expect(new DataView(b.buffer).getUint32(48, true)).toBe(0x40200);
    expect(new DataView(b.buffer).getInt16(52, true)).toBe(-1);
    expect(new DataView(b.buffer).getUint16(58, true)).toBe(16);
  });

  it("reserved1 spans exactly bytes 34..47", () => {
    const b = encodeS3d3({ ...VALID_WORD, reserved1: (1n << 112n) - 1n });
    expect([...b.slice(34, 48)].every((x) => x === 0xff)).toBe(true);
    expect(b[33]).toBe(8);
    expect(b[48]).toBe(0x00);
  });

  it("TENSOR3D: strides signed, counts unsigned", () => {
    const w = decodeS3d3(
      encodeS3d3(
        withPattern(VALID_WORD, "src_mem_pattern", steps([-32768, 32767, -1]), counts([65535, 1, 0])),
      ),
    );
    expect(w).toMatchObject({
      ...withPattern(VALID_WORD, "src_mem_pattern", steps([-32768, 32767, -1]), counts([65535, 1, 0])),
    });
    expect(w["src_mem_pattern.step_elem.0"]).toBe(-32768);
  });

  it("ADDR4: the marker's top bits select the kind", () => {
    expect(addr4FromU32(0x0200_1000)).toEqual({ kind: "imm", partitionOffset: 0x0200_1000 });
    expect(addr4FromU32(0x8000_0007)).toEqual({ kind: "addr_reg", regnum: 7, reserved0: 0, markerLow: 0 });
    expect(addr4FromU32(0x4000_0003).kind).toBe("shape_reg");
    expect(addr4FromU32(0xc512_3402)).toEqual({
      kind: "addr_shape_reg",
      regnum: 2,
      reserved0: 0x1234,
      markerLow: 5,
    });
    expect(addr4ToU32({ kind: "addr_shape_reg", regnum: 2, reserved0: 0x1234, markerLow: 5 })).toBe(
      0xc512_3402,
    );
  });

  it("refuses values that do not fit, naming the field", () => {
    expect(() => addr4ToU32({ kind: "imm", partitionOffset: 2 ** 30 })).toThrow(FieldError);
    expect(() => encodeS3d3({ ...VALID_WORD, num_active_channels: 256 })).toThrow(/num_active_channels/);
    expect(() => encodeS3d3({ ...VALID_WORD, reserved1: 1n << 112n })).toThrow(/reserved1/);
    expect(() => encodeS3d3({ ...VALID_WORD, reserved0: 1.5 })).toThrow(FieldError);
    expect(() => encodeS3d3(withPattern(VALID_WORD, "src_mem_pattern", steps([32768, 0, 0])))).toThrow(
      /step_elem/,
    );
  });

  it("a short buffer is a DecodeError", () => {
    expect(() => decodeS3d3(new Uint8Array(63))).toThrow(DecodeError);
  });

  it("decode(encode(w)) = w for any word", () => {
    fc.assert(
      fc.property(anyWord, (w) => {
        expect(decodeS3d3(encodeS3d3(w))).toEqual(w);
      }),
    );
  });

  it("encode(decode(b)) = b for any 64 bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (b) => {
        expect(encodeS3d3(decodeS3d3(b))).toEqual(b);
      }),
    );
  });
});
