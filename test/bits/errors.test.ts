/**
 * The error contract: every error sdmakit throws has a code from one closed list, each code maps to
 * the CLI's exit status, and FieldError's first slot is the context the value was given in.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  DecodeError,
  DeviceFault,
  ERROR_EXIT_STATUS,
  type ErrorCode,
  FieldError,
  LayoutDefinitionError,
  SdmaAbortError,
  SdmaAssertError,
  SdmakitError,
  UsageError,
} from "../../src/bits/index.js";
import { DescriptorFault, WatchdogFault } from "../../src/engine/index.js";
import { RingFullError } from "../../src/runtime/index.js";

describe("error codes are a closed union", () => {
  it("every error class carries a code the exit-status map knows", () => {
    const ref = { engine: 0, queue: 0, ring: "tx" as const, slot: 0 };
    const errors: SdmakitError[] = [
      new SdmakitError("x"),
      new FieldError("ctx", "f", 1, "0..0"),
      new DecodeError("x"),
      new LayoutDefinitionError("x"),
      new UsageError("x"),
      new SdmaAssertError("f.c", 1, "fn", "a"),
      new SdmaAbortError("fn", "why"),
      new DeviceFault("x"),
      new DescriptorFault(ref, "why"),
      new WatchdogFault(ref, 1, []),
      new RingFullError("tx", 2, 1),
    ];
    for (const e of errors) expect([e.name, ERROR_EXIT_STATUS[e.code]]).toEqual([e.name, expect.any(Number)]);
    expect(new Set(errors.map((e) => e.code)).size).toBe(Object.keys(ERROR_EXIT_STATUS).length);
    expectTypeOf<SdmakitError["code"]>().toEqualTypeOf<ErrorCode>();
    // @ts-expect-error a code outside the list does not compile
    const bogus: ErrorCode = "OOPS";
    expect(bogus in ERROR_EXIT_STATUS).toBe(false);
  });

  it("FieldError's first slot is the context: a layout, a command or a libnrt symbol", () => {
    const e = new FieldError("run s3d3", "--core", 9, "0..7");
    expect([e.context, e.field, e.value, e.allowed]).toEqual(["run s3d3", "--core", 9, "0..7"]);
    expect(e.message).toBe("run s3d3(--core): 9 is out of range 0..7");
  });
});
