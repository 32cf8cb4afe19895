import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SdmaAssertError } from "../../src/bits/index.js";
import { archProfile } from "../../src/hal/index.js";
import { chunkCount, chunkRun, reducePacketBytes } from "../../src/runtime/index.js";
import { Dtype } from "../../src/spec/index.js";

const SUNDA = archProfile("trn1");
const CAYMAN = archProfile("trn2");
const MARIANA = archProfile("trn3");

describe("reducePacketBytes: min(encd_get_cce_reduce_packet_size, max CCE elements · dsz)", () => {
  it("caps at the arch's max CCE elements (1024 on arch 2, 2048 on 3 and 4)", () => {
    expect(reducePacketBytes(SUNDA, 1_000_000, Dtype.FP32)).toBe(4096);
    expect(reducePacketBytes(CAYMAN, 4096, Dtype.FP32)).toBe(8192);
    expect(reducePacketBytes(MARIANA, 1_000_000, Dtype.BFLOAT16)).toBe(4096);
  });
  it("is the leg's bytes rounded down to 32 below the cap", () => {
    expect(reducePacketBytes(CAYMAN, 100, Dtype.FP32)).toBe(384);
    expect(reducePacketBytes(CAYMAN, 17, Dtype.BFLOAT16)).toBe(32);
  });
  it("is undefined under one 32-byte granule (the size function gives 0)", () => {
    expect(reducePacketBytes(CAYMAN, 3, Dtype.BFLOAT16)).toBeUndefined();
    expect(reducePacketBytes(CAYMAN, 31, Dtype.UINT8)).toBeUndefined();
    expect(reducePacketBytes(CAYMAN, 32, Dtype.UINT8)).toBe(32);
  });
  it("asserts as encd_get_cce_reduce_packet_size for fp32r (SDMA size 0)", () => {
    expect(() => reducePacketBytes(CAYMAN, 64, Dtype.FP32R)).toThrow(SdmaAssertError);
  });
});

describe("chunkRun: full packets, the last carries the remainder", () => {
  it("cuts at max and leaves the tail to the last chunk", () => {
    expect(chunkRun(100, 48)).toEqual([
      { start: 0, count: 48 },
      { start: 48, count: 48 },
      { start: 96, count: 4 },
    ]);
  });
  it("keeps a run whole when there is no packet size, and gives nothing for an empty run", () => {
    expect(chunkRun(7, undefined)).toEqual([{ start: 0, count: 7 }]);
    expect(chunkRun(0, undefined)).toEqual([]);
    expect(chunkRun(0, 32)).toEqual([]);
  });
  it("covers every unit exactly once, in order; chunkCount agrees", () => {
    fc.assert(
      fc.property(
        fc.nat(5000),
        fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }),
        (len, max) => {
          const chunks = chunkRun(len, max);
          expect(chunks.length).toBe(chunkCount(len, max));
          let next = 0;
          for (const [i, c] of chunks.entries()) {
            expect(c.start).toBe(next);
            expect(c.count).toBeGreaterThan(0);
            if (i < chunks.length - 1) expect(c.count).toBe(max ?? len);
            next += c.count;
          }
          expect(next).toBe(len);
        },
      ),
    );
  });
});
