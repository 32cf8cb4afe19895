// The collective dtype facts are read off the one dtype table (spec/dtype.ts), not kept as lists of
// their own: these pin what they must come to, so a table row that moved would show here.
import { describe, expect, it } from "vitest";
import { COLLECTIVE_DTYPES, collectiveDtype, exactIntegerRange } from "../../src/collectives/index.js";
import { Dtype, dtypeName } from "../../src/spec/index.js";

describe("collective dtypes", () => {
  it("are every CCE dtype but fp32r (sdma size 0), the floats first", () => {
    expect(COLLECTIVE_DTYPES.map(dtypeName)).toEqual(
      "bf16 fp16 fp32 fp8_e3 fp8_e4 fp8_e5 uint64 int8 uint8 int16 uint16 int32 uint32 int64".split(" "),
    );
    expect(() => collectiveDtype("fp32r")).toThrow(/expected one of bf16, fp16/);
  });

  // Integers: the dtype's own largest value below 2^24; floats: the smaller of 2^(mantissa + 1)
  // and the largest finite value (fp8 e3m4's 15.5 → 15).
  it.each([
    [Dtype.INT8, 127],
    [Dtype.UINT8, 255],
    [Dtype.INT16, 32767],
    [Dtype.UINT16, 65535],
    [Dtype.INT32, 2 ** 24],
    [Dtype.UINT64, 2 ** 24],
    [Dtype.FP32, 2 ** 24],
    [Dtype.BFLOAT16, 256],
    [Dtype.FP16, 2048],
    [Dtype.FP8_E3, 15],
    [Dtype.FP8_E4, 16],
    [Dtype.FP8_E5, 8],
  ])("exact integer range of %s is %s", (dt, e) => {
    expect(exactIntegerRange(dt)).toBe(e);
  });
});
