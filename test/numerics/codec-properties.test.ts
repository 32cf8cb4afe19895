// Properties of the codecs that the golden vectors do not state: round trips, bit-preserving
// FP32 copies, alignment independence, overflow policies, argument errors.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeToF32,
  encodeFromF32,
  narrowFloatFormat,
  OVERFLOW_POLICIES,
  RNE,
  SrStream,
} from "../../src/numerics/index.js";
import { Dtype, dtypeBytes } from "../../src/spec/index.js";

const ALL_DTYPES = Array.from({ length: 15 }, (_, i) => (i + 1) as Dtype);
const NARROW = [Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E3, Dtype.FP8_E4, Dtype.FP8_E5];

describe("round trips", () => {
  it.each(NARROW)("dtype %i: encode(decode(code)) = code for every non-NaN code", (dt) => {
    const fmt = narrowFloatFormat(dt)!;
    const n = 1 << fmt.widthBits;
    const codes =
      fmt.widthBits === 8
        ? Uint8Array.from({ length: n }, (_, i) => i)
        : Uint16Array.from({ length: n }, (_, i) => i);
    const bytes = new Uint8Array(codes.buffer);
    const values = new Float32Array(n);
    decodeToF32(dt, bytes, 0, n, values);
    const again = new Uint8Array(bytes.length);
    encodeFromF32(dt, values, 0, n, again, 0);
    const back = fmt.widthBits === 8 ? again : new Uint16Array(again.buffer);
    const bad = [...codes].filter((c, i) => (c & ~fmt.signBit) <= fmt.infCode && back[i] !== c);
    expect(bad).toEqual([]);
  });

  it("FP32 and FP32R copy bits, signalling NaNs included", () => {
    fc.assert(
      fc.property(fc.uint32Array({ minLength: 1, maxLength: 64 }), (words) => {
        for (const dt of [Dtype.FP32, Dtype.FP32R]) {
          const bytes = new Uint8Array(words.buffer);
          const values = new Float32Array(words.length);
          decodeToF32(dt, bytes, 0, words.length, values);
          const out = new Uint8Array(bytes.length);
          encodeFromF32(dt, values, 0, words.length, out, 0);
          if (!out.every((b, i) => b === bytes[i])) return false;
        }
        return true;
      }),
    );
    const snan = new Uint8Array(Uint32Array.of(0x7f800001).buffer);
    const v = new Float32Array(1);
    decodeToF32(Dtype.FP32, snan, 0, 1, v);
    expect(new Uint32Array(v.buffer)[0]).toBe(0x7f800001);
  });

  it("bf16 decode keeps a signalling NaN's bits (widening is a shift)", () => {
    const v = new Float32Array(1);
    decodeToF32(Dtype.BFLOAT16, new Uint8Array(Uint16Array.of(0xff81).buffer), 0, 1, v);
    expect(new Uint32Array(v.buffer)[0]).toBe(0xff810000);
  });

  it("integers of up to 24 bits round-trip exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 24), max: 2 ** 24 }), (x) => {
        const bytes = new Uint8Array(8);
        encodeFromF32(Dtype.INT64, Float32Array.of(x), 0, 1, bytes, 0);
        const back = new Float32Array(1);
        decodeToF32(Dtype.INT64, bytes, 0, 1, back);
        return back[0] === x && new DataView(bytes.buffer).getBigInt64(0, true) === BigInt(x);
      }),
    );
  });
});

describe("alignment does not change results", () => {
  it.each(ALL_DTYPES)("dtype %i at byte offsets 0..7", (dt) => {
    const width = dtypeBytes(dt);
    const count = 33;
    const raw = Uint8Array.from({ length: count * width }, (_, i) => (i * 97 + 13) & 0xff);
    const reference = new Float32Array(count);
    decodeToF32(dt, raw, 0, count, reference);
    const encoded = new Uint8Array(raw.length);
    encodeFromF32(dt, reference, 0, count, encoded, 0, { mode: "sr", rng: new SrStream(9) });
    for (let offset = 1; offset < 8; offset++) {
      const shifted = new Uint8Array(raw.length + 8);
      shifted.set(raw, offset);
      const values = new Float32Array(count + 2);
      decodeToF32(dt, shifted, offset, count, values, 2);
      expect(new Uint32Array(values.buffer, 8)).toEqual(new Uint32Array(reference.buffer));
      const out = new Uint8Array(raw.length + 8).fill(0xa5);
      encodeFromF32(dt, reference, 0, count, out, offset, { mode: "sr", rng: new SrStream(9) });
      expect(out.subarray(offset, offset + raw.length)).toEqual(encoded);
      // Guard bytes on both sides are untouched.
      expect(
        [...out.subarray(0, offset), ...out.subarray(offset + raw.length)].every((b) => b === 0xa5),
      ).toBe(true);
    }
  });
});

describe("overflow policies (RNE)", () => {
  const cases = Float32Array.of(1e9, -1e9, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, 1);
  const expected: Record<string, Record<(typeof OVERFLOW_POLICIES)[number], number[]>> = {
    fp8_e4: {
      ieee: [0x78, 0xf8, 0x78, 0xf8, 0x7c, 0x38],
      nan: [0x7c, 0xfc, 0x78, 0xf8, 0x7c, 0x38],
      satfinite: [0x77, 0xf7, 0x77, 0xf7, 0x7c, 0x38],
    },
    bf16: {
      // 1e9 fits bf16 (no overflow); only the infinities differ between policies.
      ieee: [0x4e6e, 0xce6e, 0x7f80, 0xff80, 0x7fc0, 0x3f80],
      nan: [0x4e6e, 0xce6e, 0x7f80, 0xff80, 0x7fc0, 0x3f80],
      satfinite: [0x4e6e, 0xce6e, 0x7f7f, 0xff7f, 0x7fc0, 0x3f80],
    },
  };
  for (const policy of OVERFLOW_POLICIES) {
    it(`${policy}: e4m3 and bf16`, () => {
      const e4 = new Uint8Array(cases.length);
      encodeFromF32(Dtype.FP8_E4, cases, 0, cases.length, e4, 0, RNE, policy);
      expect([...e4]).toEqual(expected.fp8_e4![policy]);
      const b16 = new Uint8Array(2 * cases.length);
      encodeFromF32(Dtype.BFLOAT16, cases, 0, cases.length, b16, 0, RNE, policy);
      expect([...new Uint16Array(b16.buffer)]).toEqual(expected.bf16![policy]);
    });
  }

  it("NaN keeps its sign: −NaN → the canonical quiet NaN with the sign bit", () => {
    const out = new Uint8Array(2);
    const negNaN = new Float32Array(Uint32Array.of(0xffc00000).buffer);
    encodeFromF32(Dtype.FP16, negNaN, 0, 1, out, 0);
    expect(new Uint16Array(out.buffer)[0]).toBe(0xfe00);
  });
});

describe("argument errors name the argument and the range", () => {
  const bytes = new Uint8Array(8);
  const values = new Float32Array(2);
  it.each([
    [() => decodeToF32(0 as Dtype, bytes, 0, 1, values), /decodeToF32\(dt\): 0 is out of range 1..15/],
    [() => decodeToF32(16 as Dtype, bytes, 0, 1, values), /decodeToF32\(dt\): 16/],
    [() => decodeToF32(Dtype.FP32, bytes, 0, 3, values), /decodeToF32\(byteOffset\)/],
    [() => decodeToF32(Dtype.FP16, bytes, 0, 2, values, 1), /decodeToF32\(outOffset\)/],
    [() => decodeToF32(Dtype.FP16, bytes, 0, -1, values), /decodeToF32\(count\)/],
    [() => encodeFromF32(Dtype.INT64, values, 0, 2, bytes, 0), /encodeFromF32\(byteOffset\)/],
    [() => encodeFromF32(Dtype.FP8_E4, values, 1.5, 1, bytes, 0), /encodeFromF32\(srcOffset\)/],
  ])("%#", (call, message) => {
    expect(call).toThrow(message);
  });
});
