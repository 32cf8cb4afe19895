import { describe, expect, it } from "vitest";
import { Device, HBM_BASE, semaphoreAddress } from "../../src/engine/index.js";
import {
  type EmbeddedSemFields,
  HalDevice,
  marianaInitEmbeddedSem,
  registerKhal,
  s2mSetEmbeddedSemFields,
} from "../../src/hal/index.js";
import { Dtype, engineCsrBase } from "../../src/spec/index.js";
import { ccePacket, copyPacket, type Packet, QueueWriter } from "./helpers/packets.js";

const RING_TX = HBM_BASE + 0x100000n;
const RING_RX = HBM_BASE + 0x200000n;
const SRC = HBM_BASE + 0x1000000n;
const DST = HBM_BASE + 0x2000000n;
const ENGINE = 3;

/** A device whose engine ENGINE's embedded-semaphore regions the HAL programmed on its register file. */
function setup(arch: string, init = true) {
  const dev = new Device(arch);
  const hal = new HalDevice(arch, dev.regs);
  registerKhal(hal);
  if (init) marianaInitEmbeddedSem(hal, engineCsrBase(dev.profile, ENGINE));
  const w = new QueueWriter(dev, ENGINE, 2, RING_TX, RING_RX, 32);
  const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);
  dev.memory.write(SRC, data);
  return { dev, hal, w, data };
}

/** A 300-byte plain copy whose last RX descriptor carries `sem` (packed by the HAL leaf). */
function copyWithSem(hal: HalDevice, sem: Partial<EmbeddedSemFields>): Packet {
  const p = copyPacket(SRC, DST, 300);
  const rx = p.rx[p.rx.length - 1] as Uint8Array;
  s2mSetEmbeddedSemFields(hal, rx, {
    sow: true,
    wr_mode: 0,
    wr_val: 1,
    reg_sel: 0,
    intra_reg_offset: 0,
    ...sem,
  });
  return p;
}

describe("MARIANA embedded-semaphore write on completion", () => {
  it("region from the HAL-programmed CSRs → evt-sem increment base → semaphore; the data lands", () => {
    const { dev, hal, w, data } = setup("trn3");
    w.post(copyWithSem(hal, { reg_sel: 2, intra_reg_offset: 7, wr_val: 3 }));
    w.post(copyWithSem(hal, { reg_sel: 2, intra_reg_offset: 7, wr_val: 4 }));
    const r = dev.run();
    expect(r.faults).toEqual([]);
    expect(r.events).toHaveLength(2);
    expect(dev.memory.read(DST, 300)).toEqual(data);
    expect(dev.semaphore(2, 7)).toBe(7);
  });

  it("TopSP regions 8..23; set and decrement modes", () => {
    const { dev, hal, w } = setup("trn3");
    w.post(copyWithSem(hal, { reg_sel: 8 + 5, intra_reg_offset: 255, wr_mode: 1, wr_val: 40 }));
    w.post(copyWithSem(hal, { reg_sel: 8 + 5, intra_reg_offset: 255, wr_mode: 2, wr_val: 2 }));
    expect(dev.run().faults).toEqual([]);
    expect(dev.semaphore(8 + 5, 255)).toBe(38);
  });

  it("reads the region address from the register file: reprogramming region 0 moves the write", () => {
    const { dev, hal, w } = setup("trn3");
    // Point region 0 at TPB 6's increment base through the HAL leaf, on the device's registers.
    const tpb6 = semaphoreAddress(dev.profile, 6, "increment", 0);
    hal.khal.embedded_sem_wr_address?.(hal, engineCsrBase(dev.profile, ENGINE), 0, tpb6);
    w.post(copyWithSem(hal, { reg_sel: 0, intra_reg_offset: 1 }));
    expect(dev.run().faults).toEqual([]);
    expect(dev.semaphore(6, 1)).toBe(1);
    expect(dev.semaphore(0, 1)).toBe(0);
  });

  it("sow clear: the data lands, no semaphore changes", () => {
    const { dev, hal, w, data } = setup("trn3");
    w.post(copyWithSem(hal, { sow: false, reg_sel: 1, intra_reg_offset: 3 }));
    expect(dev.run().faults).toEqual([]);
    expect(dev.memory.read(DST, 300)).toEqual(data);
    expect(dev.semaphore(1, 3)).toBe(0);
  });

  it.each([
    ["regions never initialised", false, {}, /not enabled/],
    ["region 24 (not programmed by init)", true, { reg_sel: 24 }, /region 24 .*no address/],
  ] as const)("%s: a fault, memory and semaphores untouched", (_, init, sem, why) => {
    const { dev, hal, w } = setup("trn3", init);
    dev.memory.write(DST, new Uint8Array(300).fill(0xa5));
    w.post(copyWithSem(hal, sem));
    const r = dev.run();
    expect(r.faults).toHaveLength(1);
    expect(r.faults[0]?.message).toMatch(why);
    expect(r.faults[0]?.message).toMatch(/engine 3 queue 2 rx slot 0/);
    expect(dev.memory.read(DST, 300)).toEqual(new Uint8Array(300).fill(0xa5));
  });

  it("wr_mode 3 is a fault", () => {
    const { dev, hal, w } = setup("trn3");
    const p = copyWithSem(hal, {});
    (p.rx[0] as Uint8Array)[7] = ((p.rx[0] as Uint8Array)[7] as number) | 0x60;
    w.post(p);
    expect(dev.run().faults[0]?.message).toMatch(/wr_mode 3/);
  });

  it.each(["trn1", "trn2"])("%s: the bit is a fault (MARIANA-only facility), nothing written", (arch) => {
    const { dev, w } = setup(arch, false);
    dev.memory.write(DST, new Uint8Array(300).fill(0xa5));
    const p = copyPacket(SRC, DST, 300);
    // The same bytes the trn3 leaf writes (a trn1/trn2 HAL has no slot to write them with).
    s2mSetEmbeddedSemFields(new HalDevice("trn3"), p.rx[0] as Uint8Array, {
      sow: true,
      wr_mode: 0,
      wr_val: 1,
      reg_sel: 0,
      intra_reg_offset: 0,
    });
    w.post(p);
    const r = dev.run();
    expect(r.faults).toHaveLength(1);
    expect(r.faults[0]?.message).toMatch(/MARIANA-only/);
    expect(dev.memory.read(DST, 300)).toEqual(new Uint8Array(300).fill(0xa5));
    expect(dev.semaphore(0, 0)).toBe(0);
  });

  it("on a compute packet's RX (W1 is the S2M meta) the bit is a fault", () => {
    const { dev, w } = setup("trn3");
    const p = ccePacket({
      op: "add",
      sources: [SRC, SRC + 64n],
      elements: 16,
      inDt: Dtype.FP32,
      outDt: Dtype.FP32,
      dest: DST,
    });
    (p.rx[0] as Uint8Array)[3] = ((p.rx[0] as Uint8Array)[3] as number) | 0x80;
    w.post(p);
    expect(dev.run().faults[0]?.message).toMatch(/compute packet/);
  });
});
