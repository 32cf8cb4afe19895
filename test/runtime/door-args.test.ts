// The HAL's and runtime's door functions that take numbers refuse a wrong one from plain JavaScript
// with a FieldError naming the call, the argument and the value (issue 27, review N7): a register
// word past 32 bits or a fraction, a Number where an address is a bigint, a negative or fractional
// count — each used to wrap silently, run on, or end in an internal TypeError.
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import { Device } from "../../src/engine/index.js";
import {
  actSequencerForceRspcombEightDeep,
  createHalDevice,
  csrAccessor,
  csrWrite,
  marianaEnableB0Features,
  marianaSetFp8Defaults,
  marianaSetUdmaQos,
  marianaWriteSeed,
  RegisterFile,
} from "../../src/hal/index.js";
import {
  buildCopyPacket,
  chunkCount,
  chunkRun,
  queueSetupWrites,
  VringPool,
} from "../../src/runtime/index.js";
import { thrown } from "../helpers/thrown.js";

const regs = () => new RegisterFile({ logLimit: 0 });
const trn3 = () => createHalDevice("trn3");
const vring = () =>
  new VringPool(new Device("trn2"), { ringBase: 0x100000n, slots: 64 }).get({ engine: 0, queue: 0 });
const COPY = { src: 0x1000n, dst: 0x2000n, size: 64 };

/** [call, argument named, the call]. */
const CASES: readonly (readonly [string, string, () => unknown])[] = [
  ["RegisterFile.write32", "value", () => regs().write32(0x1000n, 2 ** 32 + 1)],
  ["RegisterFile.write32", "value", () => regs().write32(0x1000n, 0.5)],
  ["RegisterFile.write32", "value", () => regs().write32(0x1000n, -(2 ** 31) - 1)],
  ["RegisterFile.write32", "value", () => regs().write32(0x1000n, "1" as unknown as number)],
  ["RegisterFile.write32", "addr", () => regs().write32(4096 as unknown as bigint, 1)],
  ["RegisterFile.read32", "addr", () => regs().read32(4096 as unknown as bigint)],
  ["RegisterFile.handle", "base", () => regs().handle(-4n, 4n, {})],
  ["RegisterFile.handle", "bytes", () => regs().handle(0n, 0n, {})],
  ["RegisterFile.handle", "onWrite", () => regs().handle(0n, 4n, { onWrite: 1 as never })],
  ["RegisterFile", "logLimit", () => new RegisterFile({ logLimit: 0.5 })],
  ["chunkRun", "length", () => chunkRun(0.5, 4)],
  ["chunkRun", "length", () => chunkRun(-4, 4)],
  ["chunkRun", "max", () => chunkRun(10, 0)],
  ["chunkCount", "max", () => chunkCount(10, -1)],
  ["chunkCount", "length", () => chunkCount(Number.NaN, 4)],
  ["queueSetupWrites", "slots", () => queueSetupWrites("tx", 0n, 0.5)],
  ["queueSetupWrites", "base", () => queueSetupWrites("tx", 4096 as unknown as bigint, 64)],
  ["queueSetupWrites", "side", () => queueSetupWrites("m2s" as never, 0n, 64)],
  ["Vring.checkRoomFor", "txCount", () => vring().checkRoomFor(-1, 1)],
  ["Vring.checkRoomFor", "rxCount", () => vring().checkRoomFor(1, 0.5)],
  ["copy-request", "src", () => buildCopyPacket({ ...COPY, src: -1n })],
  ["copy-request", "src", () => buildCopyPacket({ ...COPY, src: 0x1000 as unknown as bigint })],
  ["copy-request", "dst", () => buildCopyPacket({ ...COPY, dst: (1n << 64n) - 8n })],
  ["aws_hal_mariana_sdma_set_udma_qos", "csr", () => marianaSetUdmaQos(trn3(), 0.5 as never, 0, 1)],
  [
    "aws_mariana_sdma_write_seed",
    "csr",
    () => marianaWriteSeed(trn3(), 1 as never, { queue: 0, dataConverter: 0 }, 1),
  ],
  ["aws_hal_mariana_sdma_set_fp8_defaults", "csr", () => marianaSetFp8Defaults(trn3(), null as never)],
  ["aws_hal_mariana_sdma_enable_b0_features", "csr", () => marianaEnableB0Features(trn3(), -1n)],
  ["VringPool", "options", () => new VringPool(new Device("trn2"), undefined as never)],
  ["VringPool", "ringBase", () => new VringPool(new Device("trn2"), { ringBase: 4096 as never, slots: 64 })],
  ["VringPool", "slots", () => new VringPool(new Device("trn2"), { ringBase: 0n, slots: 0.5 })],
  ["VringPool", "slots", () => new VringPool(new Device("trn2"), { ringBase: 0n } as never)],
  [
    "VringPool",
    "knownFree",
    () => new VringPool(new Device("trn2"), { ringBase: 0n, slots: 64, knownFree: 1 as never }),
  ],
  [
    "act_sequencer_force_rspcomb_eight_deep_cayman_neff",
    "base",
    () => actSequencerForceRspcombEightDeep(trn3(), 0 as never, true),
  ],
];

describe("HAL and runtime doors refuse bad numbers", () => {
  it.each(CASES)("%s(%s)", (context, field, call) => {
    const e = thrown(call);
    expect(e, String(e)).toBeInstanceOf(FieldError);
    expect(e).toMatchObject({ context, field });
  });

  it("a HAL register word is checked as every door checks one (bits uintArg): the same range said", () => {
    const slot = { queue: 0, dataConverter: 0 };
    const notific = csrAccessor("aws_reg_write_tdma_model_notific_cfg_per_queue_m2s_trigger");
    const words: [string, string, () => unknown][] = [
      ["aws_mariana_sdma_write_seed", "seed", () => marianaWriteSeed(trn3(), 0x1000n, slot, 2 ** 32)],
      [notific.symbol, "value", () => csrWrite(trn3(), notific, { base: 0x1000n, index: 0 }, -1)],
    ];
    for (const [context, field, call] of words)
      expect(thrown(call)).toMatchObject({ context, field, allowed: "an integer 0..4294967295" });
    const qos = thrown(() => marianaSetUdmaQos(trn3(), 0x1000n, 0, 4));
    expect(qos).toMatchObject({
      context: "aws_hal_mariana_sdma_set_udma_qos",
      field: "qos",
      allowed: "an integer 0..3",
    });
  });

  it("a register word is its 32 bits, signed or unsigned: stored unsigned", () => {
    const r = regs();
    r.write32(0x1000n, -1);
    expect(r.read32(0x1000n)).toBe(0xffff_ffff);
    r.write32(0x1004n, 0xffff_ffff);
    expect(r.read32(0x1004n)).toBe(0xffff_ffff);
    expect(chunkRun(10, 4)).toEqual([
      { start: 0, count: 4 },
      { start: 4, count: 4 },
      { start: 8, count: 2 },
    ]);
    expect(chunkCount(0, undefined)).toBe(0);
  });
});
