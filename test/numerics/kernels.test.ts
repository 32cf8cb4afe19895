// The specialised fast kernels equal the generic paths bit for bit: the bf16 encoder (RNE and SR,
// every overflow policy) against the generic narrow-float encoder, and SrStream's bulk fill
// against its one-word-at-a-time stream.
import { describe, expect, it } from "vitest";
import {
  BF16_FORMAT,
  encodeNarrowFloat,
  OVERFLOW_POLICIES,
  RNE,
  type Rounding,
  SrStream,
} from "../../src/numerics/index.js";
import { bf16StressBits } from "./stress-bits.js";

function encodeBoth(bits: Uint32Array, rounding: () => Rounding, policy: (typeof OVERFLOW_POLICIES)[number]) {
  const fast = new Uint16Array(bits.length);
  const generic = new Uint16Array(bits.length);
  encodeNarrowFloat(BF16_FORMAT, bits, 0, bits.length, fast, 0, rounding(), policy);
  encodeNarrowFloat(BF16_FORMAT, bits, 0, bits.length, generic, 0, rounding(), policy, false);
  return { fast, generic };
}

function firstDifference(a: Uint16Array, b: Uint16Array, bits: Uint32Array): string | undefined {
  const i = a.findIndex((v, k) => v !== b[k]);
  return i < 0
    ? undefined
    : `input 0x${bits[i]!.toString(16)}: 0x${a[i]!.toString(16)} vs 0x${b[i]!.toString(16)}`;
}

describe("specialised bf16 encoder = generic encoder", () => {
  const bits = bf16StressBits();

  it.each(OVERFLOW_POLICIES)("RNE, overflow %s", (policy) => {
    const { fast, generic } = encodeBoth(bits, () => RNE, policy);
    expect(firstDifference(fast, generic, bits)).toBeUndefined();
  });

  it.each(OVERFLOW_POLICIES)("SR (same seed), overflow %s", (policy) => {
    const { fast, generic } = encodeBoth(bits, () => ({ mode: "sr", rng: new SrStream(7) }), policy);
    expect(firstDifference(fast, generic, bits)).toBeUndefined();
  });

  it("SR from a source without a bulk fill draws the same words as SrStream's fill", () => {
    const stream = new SrStream(9);
    const oneByOne = { nextU32: () => stream.nextU32() };
    const a = new Uint16Array(bits.length);
    const b = new Uint16Array(bits.length);
    encodeNarrowFloat(BF16_FORMAT, bits, 0, bits.length, a, 0, { mode: "sr", rng: oneByOne }, "ieee");
    encodeNarrowFloat(BF16_FORMAT, bits, 0, bits.length, b, 0, { mode: "sr", rng: new SrStream(9) }, "ieee");
    expect(firstDifference(a, b, bits)).toBeUndefined();
  });
});

describe("SrStream.fillU32", () => {
  it("gives the words nextU32 gives, and leaves the stream where nextU32 would", () => {
    for (const seed of [0, 1, 0xffffffff, 123456789]) {
      const a = new SrStream(seed);
      const b = new SrStream(seed);
      const filled = new Uint32Array(10_000);
      a.fillU32(filled, 7_777);
      const expected = Uint32Array.from({ length: 7_777 }, () => b.nextU32());
      expect(filled.subarray(0, 7_777)).toEqual(expected);
      expect(filled[7_777]).toBe(0);
      expect(a.nextU32()).toBe(b.nextU32());
    }
  });
});
