// The codecs against LLVM APFloat, bit for bit (NaN compared as "is NaN + sign").
import { describe, expect, it } from "vitest";
import { decodeToF32, encodeFromF32, narrowFloatFormat } from "../../src/numerics/index.js";
import { Dtype, dtypeFromName } from "../../src/spec/index.js";
import { hexBigints, hexWords, loadVectors, mismatches, sameF32 } from "./vectors.js";

const NARROW = ["bf16", "fp16", "fp8_e3", "fp8_e4", "fp8_e5"] as const;

function dtypeOf(name: string): Dtype {
  const dt = dtypeFromName(name);
  if (dt === undefined) throw new Error(name);
  return dt;
}

function describeMismatch(i: number, input: number, actual: number, expected: number): string {
  return `#${i}: input ${input.toString(16)} → ${actual.toString(16)}, APFloat ${expected.toString(16)}`;
}

describe("decode every narrow-float code (APFloat)", () => {
  const file = loadVectors("decode");
  for (const name of NARROW) {
    it(name, () => {
      const fmt = narrowFloatFormat(dtypeOf(name))!;
      const n = 1 << fmt.widthBits;
      const bytes = new Uint8Array(n * (fmt.widthBits / 8));
      const view = new DataView(bytes.buffer);
      for (let c = 0; c < n; c++) fmt.widthBits === 8 ? view.setUint8(c, c) : view.setUint16(2 * c, c, true);
      const out = new Float32Array(n);
      decodeToF32(fmt.dtype, bytes, 0, n, out);
      const actual = new Uint32Array(out.buffer);
      const expected = hexWords(file, name);
      expect(mismatches(actual, expected, sameF32)).toEqual([]);
    });
  }
});

describe("FP32 → narrow float, RNE, overflow to inf (APFloat)", () => {
  for (const name of NARROW) {
    it(`${name}: ≥ 100k stratified inputs`, () => {
      const file = loadVectors(`encode-${name}`);
      const inputs = hexWords(file, "inputs");
      const expected = file.expected as number[];
      expect(inputs.length).toBeGreaterThanOrEqual(100_000);
      const fmt = narrowFloatFormat(dtypeOf(name))!;
      const bytes = new Uint8Array(inputs.length * (fmt.widthBits / 8));
      encodeFromF32(fmt.dtype, new Float32Array(inputs.buffer), 0, inputs.length, bytes, 0);
      const codes = fmt.widthBits === 8 ? bytes : new Uint16Array(bytes.buffer);
      const sameCode = (a: number, e: number) =>
        (e & ~fmt.signBit) > fmt.infCode
          ? (a & ~fmt.signBit) > fmt.infCode && (a & fmt.signBit) === (e & fmt.signBit)
          : a === e;
      const bad = mismatches(codes, expected, sameCode);
      expect(bad.map((i) => describeMismatch(i, inputs[i]!, codes[i]!, expected[i]!))).toEqual([]);
    });
  }
});

describe("format facts read off APFloat", () => {
  const facts = loadVectors("facts");
  for (const name of NARROW) {
    it(name, () => {
      const [largest, inf, smallest, overflowAt, largestF32] = hexWords(facts, name);
      const fmt = narrowFloatFormat(dtypeOf(name))!;
      expect([fmt.maxCode, fmt.infCode, 1]).toEqual([largest, inf, smallest]);
      // The smallest FP32 that overflows, and the one just below it.
      const src = new Float32Array(new Uint32Array([overflowAt!, overflowAt! - 1, largestF32!]).buffer);
      const bytes = new Uint8Array(3 * (fmt.widthBits / 8));
      encodeFromF32(fmt.dtype, src, 0, 3, bytes, 0);
      const codes = fmt.widthBits === 8 ? bytes : new Uint16Array(bytes.buffer);
      expect([...codes]).toEqual([fmt.infCode, fmt.maxCode, fmt.maxCode]);
    });
  }

  it("e4m3 is the IEEE-like one: max 240 = 0x77, inf 0x78, |x| ≥ 248 → inf", () => {
    const [largest, inf, , overflowAt, largestF32] = hexWords(facts, "fp8_e4");
    expect([largest, inf]).toEqual([0x77, 0x78]);
    expect(new Float32Array(new Uint32Array([overflowAt!, largestF32!]).buffer)).toEqual(
      Float32Array.of(248, 240),
    );
  });

  it("e5m2 overflows at 61440 and e3m4 at 15.75", () => {
    const at = (name: string) => new Float32Array(Uint32Array.of(hexWords(facts, name)[3]!).buffer)[0];
    expect([at("fp8_e5"), at("fp8_e3")]).toEqual([61440, 15.75]);
  });
});

describe("integers → FP32, one correct rounding (APFloat convertFromAPInt)", () => {
  const file = loadVectors("int-to-fp32");
  for (const name of ["int32", "uint32", "int64", "uint64"] as const) {
    it(name, () => {
      const inputs = hexBigints(file, `${name}_inputs`);
      const expected = hexWords(file, `${name}_expected`);
      const width = name.endsWith("64") ? 8 : 4;
      const bytes = new Uint8Array(inputs.length * width);
      const view = new DataView(bytes.buffer);
      inputs.forEach((v, i) => {
        if (width === 8) view.setBigUint64(8 * i, v, true);
        else view.setUint32(4 * i, Number(v), true);
      });
      const out = new Float32Array(inputs.length);
      decodeToF32(dtypeOf(name), bytes, 0, inputs.length, out);
      expect(mismatches(new Uint32Array(out.buffer), expected, sameF32)).toEqual([]);
    });
  }

  it("2^60 + 2^36 + 1 rounds to 2^60 + 2^37 (Number(bigint) would double-round to 2^60)", () => {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, 2n ** 60n + 2n ** 36n + 1n, true);
    const out = new Float32Array(1);
    decodeToF32(Dtype.INT64, bytes, 0, 1, out);
    expect(out[0]).toBe(2 ** 60 + 2 ** 37);
  });
});

describe("FP32 → integers: RNE, saturate, NaN → 0 (APFloat convertToInteger)", () => {
  const file = loadVectors("fp32-to-int");
  const inputs = hexWords(file, "inputs");
  const src = new Float32Array(inputs.buffer);
  for (const name of ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"] as const) {
    it(name, () => {
      const dt = dtypeOf(name);
      const width = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8 }[
        name
      ];
      const bytes = new Uint8Array(inputs.length * width);
      encodeFromF32(dt, src, 0, inputs.length, bytes, 0);
      const view = new DataView(bytes.buffer);
      const actual = Array.from({ length: inputs.length }, (_, i) =>
        width === 8 ? view.getBigUint64(8 * i, true) : BigInt(readUint(view, i, width)),
      );
      const expected = hexBigints(file, name);
      const bad = actual.flatMap((a, i) =>
        a === expected[i] ? [] : [`${inputs[i]!.toString(16)}: ${a} vs ${expected[i]}`],
      );
      expect(bad.slice(0, 5)).toEqual([]);
    });
  }
});

function readUint(view: DataView, i: number, width: number): number {
  return width === 1
    ? view.getUint8(i)
    : width === 2
      ? view.getUint16(2 * i, true)
      : view.getUint32(4 * i, true);
}
