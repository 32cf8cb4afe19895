import { describe, expect, it } from "vitest";
import { SdmaAssertError, UsageError } from "../../src/bits/index.js";
import { archOf, HalDevice, halTpbGetArchType } from "../../src/hal/index.js";

describe("al_hal_tpb_get_arch_type", () => {
  it.each([
    ["trn1", 2],
    ["trn2", 3],
    ["trn3", 4],
  ])("%s latches hal_target %i", (name, code) => {
    expect(halTpbGetArchType(new HalDevice(name))).toBe(code);
  });

  it("asserts on INVALID (0)", () => {
    const dev = new HalDevice("trn2");
    dev.halTarget = 0;
    expect(() => halTpbGetArchType(dev)).toThrow(SdmaAssertError);
    expect(() => halTpbGetArchType(dev)).toThrow(/AL_HAL_TPB_ARCH_TYPE_INVALID/);
  });

  it.each([5, 6, 255, -1])("asserts on hal_target %i (≥ NUM or negative)", (t) => {
    const dev = new HalDevice("trn2");
    dev.halTarget = t;
    expect(() => halTpbGetArchType(dev)).toThrow(/AL_HAL_TPB_ARCH_TYPE_NUM/);
  });

  it("lets 1 through the assert but no profile names it", () => {
    const dev = new HalDevice("trn2");
    dev.halTarget = 1;
    expect(halTpbGetArchType(dev)).toBe(1);
    expect(() => archOf(dev)).toThrow(UsageError);
  });
});
