/**
 * Register-write traces of ring set-up and doorbells against what the public AWS Neuron driver's
 * code writes (aws-neuron-driver udma/udma_main.c, udma_m2m.c, v2/v3 neuron_dhal udma_q_config).
 * The expected sequences are derived by reading the driver and written out here as literal
 * offsets, so a change of sdmakit's register table cannot move both sides at once.
 */
import { describe, expect, it } from "vitest";
import { DeviceMemory, HBM_BASE } from "../../src/engine/index.js";
import { archProfile, RegisterFile } from "../../src/hal/index.js";
import { addDmaPacket, Vring } from "../../src/runtime/index.js";
import {
  engineCsrBase,
  Q_SW_CTRL_RST_Q,
  QUEUE_CFG_ENABLE,
  QUEUE_CFG_RESET,
  queueRegisterAddress,
} from "../../src/spec/index.js";
import { deviceVring } from "./fixtures.js";

const TX_BASE = 0x12_3456_7800n;
const RX_BASE = 0x12_3456_7c00n;

/** The driver's writes for udma_m2m_init_queue(qid) with one ring size and no completion ring. */
function driverInitQueue(m2sBlock: number, s2mBlock: number, slots: number): [number, number][] {
  return [
    // M2S queue: udma_q_config_v2/v3 (rlimit.mask = 0b111 & ~INTERNAL_PAUSE_DMB)
    [m2sBlock + 0x74, 0x3],
    // udma_q_reset: udma_q_pause (cfg = M2S_CFG_RESET_VALUE without EN_PREF|EN_SCHEDULING), RST_Q
    [m2sBlock + 0x20, 0x0300_0000],
    [m2sBlock + 0xb0, 0x100],
    // udma_q_set_pointers: drbp_low, drbp_high, drl; no completion ring → comp_cfg = 0
    [m2sBlock + 0x28, 0x3456_7800],
    [m2sBlock + 0x2c, 0x12],
    [m2sBlock + 0x30, slots],
    [m2sBlock + 0xa0, 0],
    // udma_q_enable(1)
    [m2sBlock + 0x20, 0x0303_0000],
    // S2M queue: no udma_q_config write; q_sw_ctrl at +0x64, comp_cfg at +0x54
    [s2mBlock + 0x20, 0x0300_0000],
    [s2mBlock + 0x64, 0x100],
    [s2mBlock + 0x28, 0x3456_7c00],
    [s2mBlock + 0x2c, 0x12],
    [s2mBlock + 0x30, slots],
    [s2mBlock + 0x54, 0],
    [s2mBlock + 0x20, 0x0303_0000],
  ];
}

function makeRing(arch: string, engine: number, queue: number, slots: number) {
  const memory = new DeviceMemory();
  memory.map({ name: "r", kind: "host", base: 0x12_3456_0000n, bytes: 0x10000n });
  memory.map({ name: "d", kind: "host", base: 0x1_0000n, bytes: 0x20_0000n });
  const registers = new RegisterFile();
  const profile = archProfile(arch);
  const vring = new Vring({
    profile,
    memory,
    registers,
    engine,
    queue,
    txBase: TX_BASE,
    rxBase: RX_BASE,
    slots,
  });
  return { vring, registers, engineBase: engineCsrBase(profile, engine) };
}

const rel = (base: bigint) => (w: { addr: bigint; value: number }) => [Number(w.addr - base), w.value];

describe("ring set-up writes what the driver's udma_m2m_init_queue writes", () => {
  it.each([
    ["trn1", 0, 0],
    ["trn2", 3, 2],
    ["trn3", 5, 15],
  ])("%s engine %i queue %i", (arch, engine, queue) => {
    const { registers, engineBase } = makeRing(arch, engine, queue, 64);
    const expected = driverInitQueue(0x1000 + queue * 0x1000, 0x21000 + queue * 0x1000, 64);
    expect(registers.writesSince(0).map(rel(engineBase))).toEqual(expected);
  });
});

describe("the doorbell writes what udma_m2m_copy_start writes", () => {
  it("S2M drtp_inc (+0x38) first, then M2S drtp_inc, one descriptor each for a copy", () => {
    const { vring, registers, engineBase } = makeRing("trn2", 1, 4, 32);
    const mark = registers.log.length;
    addDmaPacket(vring, { src: 0x1_0000n, dst: 0x2_0000n, size: 100 });
    expect(registers.writesSince(mark).map(rel(engineBase))).toEqual([
      [0x21000 + 4 * 0x1000 + 0x38, 1],
      [0x1000 + 4 * 0x1000 + 0x38, 1],
    ]);
  });
});

describe("the engine reads the set-up registers as the driver writes them", () => {
  const copyInto = (dst: bigint) => ({ src: HBM_BASE + 0x10000n, dst, size: 64 });
  const cfg = (vring: Vring, side: "tx" | "rx") =>
    queueRegisterAddress(vring.profile, { engine: 0, queue: 0 }, side, "cfg");

  it("a paused ring (cfg without EN_PREF | EN_SCHEDULING) runs nothing until enabled again", () => {
    const { dev, vring } = deviceVring();
    dev.regs.write32(cfg(vring, "rx"), QUEUE_CFG_RESET, "test");
    addDmaPacket(vring, copyInto(HBM_BASE + 0x20000n));
    expect(dev.run().events).toHaveLength(0);
    dev.regs.write32(cfg(vring, "rx"), QUEUE_CFG_RESET | QUEUE_CFG_ENABLE, "test");
    expect(dev.run().events).toHaveLength(1);
  });

  it("q_sw_ctrl RST_Q drops what was posted and restarts the ring at slot 0, phase 1", () => {
    const { dev, vring } = deviceVring();
    dev.regs.write32(cfg(vring, "tx"), QUEUE_CFG_RESET, "test");
    addDmaPacket(vring, copyInto(HBM_BASE + 0x20000n));
    for (const side of ["tx", "rx"] as const)
      dev.regs.write32(
        queueRegisterAddress(vring.profile, { engine: 0, queue: 0 }, side, "q_sw_ctrl"),
        Q_SW_CTRL_RST_Q,
        "test",
      );
    dev.regs.write32(cfg(vring, "tx"), QUEUE_CFG_RESET | QUEUE_CFG_ENABLE, "test");
    expect(dev.run().events).toHaveLength(0);
    expect(
      dev.regs.read32(queueRegisterAddress(vring.profile, { engine: 0, queue: 0 }, "tx", "drtp"), "test"),
    ).toBe(0);
  });
});
