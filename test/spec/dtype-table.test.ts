/**
 * One dtype table (spec/dtype.ts DTYPES): every name map, size table and validity check derives
 * from its rows; user-given names (dtypes, ops) are looked up as own keys only, so Object.prototype
 * names are refused everywhere.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { lookupOwn, UsageError } from "../../src/bits/index.js";
import { cceCommand } from "../../src/cli/index.js";
import { narrowFloatFormat } from "../../src/numerics/index.js";
import { parseBuildRequest } from "../../src/runtime/index.js";
import {
  CCE_OP_BY_NAME,
  DATA_TYPE_SIZES,
  DTYPE_ENUM_NAMES,
  DTYPE_NAMES,
  DTYPES,
  Dtype,
  dtypeFromName,
  FMA_META,
  isDtype,
  isFloatDtype,
  MIN_MAX_CONSTANT_DTYPES,
  SDMA_DATA_TYPE_SIZE,
} from "../../src/spec/index.js";
import { runInProcess } from "../helpers/cli.js";

const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];

describe("the dtype table", () => {
  it("is indexed by code, and every derived table reads its rows", () => {
    for (const r of DTYPES) {
      expect(DTYPE_NAMES[r.code]).toBe(r.name);
      expect(DTYPE_ENUM_NAMES[r.code]).toBe(r.name);
      expect(SDMA_DATA_TYPE_SIZE[r.code]).toBe(r.sdmaSize);
      expect(DATA_TYPE_SIZES[r.code]).toBe(r.dataSize);
      expect(isDtype(r.code)).toBe(r.kind !== "invalid");
      expect(isFloatDtype(r.code)).toBe(r.kind === "float");
      expect(narrowFloatFormat(r.code)?.name).toBe(r.float === undefined ? undefined : r.name);
      for (const n of [r.name, ...r.aliases])
        expect(dtypeFromName(n.toUpperCase())).toBe(r.kind === "invalid" ? undefined : r.code);
    }
    // The layouts' dtype enums are the table's names.
    expect(FMA_META.leaf("in_dt").names).toEqual(DTYPE_ENUM_NAMES);
    expect(MIN_MAX_CONSTANT_DTYPES).toEqual([Dtype.INT32, Dtype.UINT32, Dtype.FP32]);
    expect([isDtype(16), isDtype(-1), isDtype(1.5), isDtype("fp32")]).toEqual([false, false, false, false]);
    // The enum is derived from the rows and keeps its literal types.
    expectTypeOf(Dtype.FP32).toEqualTypeOf<10>();
    // @ts-expect-error 16 is no dtype code
    const bad: Dtype = 16;
    expect(bad).toBe(16);
  });
});

describe("Object.prototype names are no dtype and no op", () => {
  it.each(PROTOTYPE_NAMES)("%s", async (name) => {
    expect(dtypeFromName(name)).toBeUndefined();
    expect(lookupOwn(CCE_OP_BY_NAME, name)).toBeUndefined();
    expect(() =>
      parseBuildRequest(JSON.stringify({ op: name, sources: [1], dests: [2], inDtype: "fp32", size: 4 })),
    ).toThrow(UsageError);
    await expect(runInProcess(cceCommand, ["--op", name, "--in", "fp32", "00000000"])).rejects.toThrow(
      /--op/,
    );
    await expect(runInProcess(cceCommand, ["--op", "add", "--in", name, "00000000"])).rejects.toThrow();
  });
});
