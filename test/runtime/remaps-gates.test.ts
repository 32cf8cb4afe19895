import { describe, expect, it } from "vitest";
import { FieldError, SdmaAssertError } from "../../src/bits/index.js";
import {
  awsHalGetSdmaMaxCceElements,
  encdGetCceReducePacketSize,
  hasValidDmaCceInoutDtypeNcV1,
  kbinCceOpToSdmaCceOp,
  kbinDtypeToSdmaDtype,
} from "../../src/runtime/index.js";
import { ArchType, Dtype, KbinDmaDescOp, SdmaCceType } from "../../src/spec/index.js";

function assertOf(fn: () => unknown): SdmaAssertError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SdmaAssertError) return e;
    throw e;
  }
  throw new Error("no assert");
}

describe("kbin_cce_op_to_sdma_cce_op (CSWTCH.21)", () => {
  it("maps FMA, ADD, MIN, MAX to the SDMA op", () => {
    expect(kbinCceOpToSdmaCceOp(KbinDmaDescOp.FMA)).toBe(SdmaCceType.FMA);
    expect(kbinCceOpToSdmaCceOp(KbinDmaDescOp.ADD)).toBe(SdmaCceType.ADD);
    expect(kbinCceOpToSdmaCceOp(KbinDmaDescOp.MIN)).toBe(SdmaCceType.MIN);
    expect(kbinCceOpToSdmaCceOp(KbinDmaDescOp.MAX)).toBe(SdmaCceType.MAX);
  });
  it.each([KbinDmaDescOp.COPY, KbinDmaDescOp.TRANSPOSE, KbinDmaDescOp.NUM, KbinDmaDescOp.INVALID])(
    "asserts at helper.c:0x1C0 for op %i",
    (op) => {
      const e = assertOf(() => kbinCceOpToSdmaCceOp(op));
      expect([e.file, e.line, e.func]).toEqual(["tdrv/helper.c", 0x1c0, "kbin_cce_op_to_sdma_cce_op"]);
      expect(e.assertion).toBe(`Unsupported CCE Op! ${op >>> 0}`);
    },
  );
});

describe("kbin_dtype_to_sdma_dtype (CSWTCH.19, MODEL identity)", () => {
  it("maps 1..15", () => {
    for (let d = 1; d <= 15; d++) expect(kbinDtypeToSdmaDtype(d)).toBe(d);
  });
  it.each([0, 16, -1])("asserts at helper.c:0x1AF for %i", (d) => {
    const e = assertOf(() => kbinDtypeToSdmaDtype(d));
    expect([e.file, e.line, e.func, e.assertion]).toEqual([
      "tdrv/helper.c",
      0x1af,
      "kbin_dtype_to_sdma_dtype",
      "Unsupported data type!",
    ]);
  });
});

describe("has_valid_dma_cce_inout_dtype_nc_v1", () => {
  it("is the seed's band formula for every pair", () => {
    for (let i = 0; i < 16; i++) {
      for (let o = 0; o < 16; o++) {
        const lit = ((i - 8) & 0xff) <= 3 === ((o - 8) & 0xff) <= 3;
        expect(hasValidDmaCceInoutDtypeNcV1(true, i, o)).toBe(lit);
        expect(hasValidDmaCceInoutDtypeNcV1(false, i, o)).toBe(true);
      }
    }
    expect(hasValidDmaCceInoutDtypeNcV1(true, Dtype.BFLOAT16, Dtype.FP32)).toBe(false);
    expect(hasValidDmaCceInoutDtypeNcV1(true, Dtype.FP32R, Dtype.INT32)).toBe(true);
  });
});

describe("aws_hal_get_sdma_max_cce_elements", () => {
  it("is 1024 on arch 2 and 2048 on 3 and 4", () => {
    expect(awsHalGetSdmaMaxCceElements(ArchType.SUNDA)).toBe(1024);
    expect(awsHalGetSdmaMaxCceElements(ArchType.CAYMAN)).toBe(2048);
    expect(awsHalGetSdmaMaxCceElements(ArchType.MARIANA)).toBe(2048);
  });
  it.each([0, 1, 5])("asserts at line 0x2C for arch %i", (a) => {
    const e = assertOf(() => awsHalGetSdmaMaxCceElements(a));
    expect(e.line).toBe(0x2c);
    expect(e.func).toBe("aws_hal_get_sdma_max_cce_elements");
  });
});

describe("encd_get_cce_reduce_packet_size", () => {
  const caps = { ccCceReducePrioPktSize: [0, 256, 1000, 0, 64] as [number, number, number, number, number] };
  it("is dsz × elements rounded down to 32 bytes when uncapped", () => {
    expect(encdGetCceReducePacketSize({ priorityClass: 0, elemCount: 100 }, Dtype.FP32)).toBe(384);
    expect(encdGetCceReducePacketSize({ priorityClass: 0, elemCount: 15 }, Dtype.BFLOAT16)).toBe(0);
    expect(encdGetCceReducePacketSize({ priorityClass: 0, elemCount: 16 }, Dtype.BFLOAT16)).toBe(32);
  });
  it("caps per priority class; class 4 is the last", () => {
    expect(encdGetCceReducePacketSize({ priorityClass: 1, elemCount: 100 }, Dtype.FP32, caps)).toBe(256);
    expect(encdGetCceReducePacketSize({ priorityClass: 2, elemCount: 1000 }, Dtype.FP32, caps)).toBe(992);
    expect(encdGetCceReducePacketSize({ priorityClass: 2, elemCount: 10 }, Dtype.FP32, caps)).toBe(32);
    expect(encdGetCceReducePacketSize({ priorityClass: 4, elemCount: 100 }, Dtype.FP32, caps)).toBe(64);
  });
  it("asserts at 0x1202 for priority class 5", () => {
    const e = assertOf(() => encdGetCceReducePacketSize({ priorityClass: 5, elemCount: 100 }, Dtype.FP32));
    expect([e.line, e.func, e.assertion]).toEqual([0x1202, "encd_get_cce_reduce_packet_size", "pc <= 4"]);
  });
  it("asserts at 0x1204 when the dtype has size 0 (fp32r)", () => {
    const e = assertOf(() => encdGetCceReducePacketSize({ priorityClass: 0, elemCount: 100 }, Dtype.FP32R));
    expect([e.line, e.assertion]).toEqual([0x1204, "dsz != 0"]);
  });
  it("refuses a class or count that is not a u8 / non-negative integer", () => {
    expect(() => encdGetCceReducePacketSize({ priorityClass: -1, elemCount: 1 }, Dtype.FP32)).toThrow(
      FieldError,
    );
    expect(() => encdGetCceReducePacketSize({ priorityClass: 0, elemCount: 1.5 }, Dtype.FP32)).toThrow(
      FieldError,
    );
  });
});
