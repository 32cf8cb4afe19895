// The CAYMAN DGE / XT memcopy band (seed 003 §2 NOTE): engine → XT map, the XT-local offsets
// 0x13a0 / 0x13c0 / 0x13e0, the feature flag at XT-local register 38, and the SUNDA silent no-op
// inherited from aws_reg_write_xt_local_reg.
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import {
  awsHalArchEngToXt,
  awsHalCaymanTpbDgeConfigureDma,
  awsHalCaymanTpbDgeGetRegisterOffsets,
  awsHalCaymanTpbXtConfigureFeatureFlag,
  HalDevice,
  XT_INVALID,
} from "../../src/hal/index.js";

const XT = 0x4000_0000n;

describe("aws_hal_arch_eng_to_xt", () => {
  it("maps engines 0..4 and gives the sentinel 6 otherwise", () => {
    expect([0, 1, 2, 3, 4].map(awsHalArchEngToXt)).toEqual([0, 1, 2, 3, 4]);
    expect([5, 6, -1, 1.5].map(awsHalArchEngToXt)).toEqual([XT_INVALID, XT_INVALID, XT_INVALID, XT_INVALID]);
  });
});

describe("aws_hal_cayman_tpb_dge_configure_dma", () => {
  it("writes the three memcopy registers at XT-local 0x13a0 / 0x13c0 / 0x13e0", () => {
    expect(awsHalCaymanTpbDgeGetRegisterOffsets()).toEqual({
      memcopy_dmas: 0x13a0,
      memcopy_queues: 0x13c0,
      memcopy_all_queues: 0x13e0,
    });
    const dev = new HalDevice("trn2");
    awsHalCaymanTpbDgeConfigureDma(dev, XT, {
      memcopy_dmas: 0xff,
      memcopy_queues: 0x3,
      memcopy_all_queues: 0xffff,
    });
    expect(dev.regs.writesSince().map((w) => [w.addr, w.value, w.accessor])).toEqual([
      [XT + 0x13a0n, 0xff, "aws_reg_write_xt_local_reg"],
      [XT + 0x13c0n, 0x3, "aws_reg_write_xt_local_reg"],
      [XT + 0x13e0n, 0xffff, "aws_reg_write_xt_local_reg"],
    ]);
  });
  it("is a silent no-op on SUNDA, like every XT-local write", () => {
    const dev = new HalDevice("trn1");
    expect(
      awsHalCaymanTpbDgeConfigureDma(dev, XT, { memcopy_dmas: 1, memcopy_queues: 1, memcopy_all_queues: 1 }),
    ).toEqual([]);
    expect(dev.regs.log).toEqual([]);
  });
});

describe("aws_hal_cayman_tpb_xt_configure_feature_flag", () => {
  it("writes XT-local register 38", () => {
    const dev = new HalDevice("trn2");
    expect(awsHalCaymanTpbXtConfigureFeatureFlag(dev, XT, 2, 0x5)).toBe(XT + 38n * 4n);
    expect(dev.regs.writesSince()).toEqual([expect.objectContaining({ addr: XT + 152n, value: 5 })]);
  });
  it("refuses an engine without an XT, naming it", () => {
    const dev = new HalDevice("trn2");
    expect(() => awsHalCaymanTpbXtConfigureFeatureFlag(dev, XT, 5, 1)).toThrow(FieldError);
    expect(() => awsHalCaymanTpbXtConfigureFeatureFlag(dev, XT, 5, 1)).toThrow(
      "(engine): 5 is out of range 0..4",
    );
  });
});
