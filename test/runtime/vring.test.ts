/** The vring writer: placement, queue registers, ring phase, refusal when full, the doorbell. */
import { describe, expect, it } from "vitest";
import { DeviceFault, FieldError } from "../../src/bits/index.js";
import { DeviceMemory } from "../../src/engine/index.js";
import { archProfile, RegisterFile } from "../../src/hal/index.js";
import {
  addDmaPacket,
  buildCopyPacket,
  DOORBELL_ACCESSOR,
  MAX_COPY_BYTES,
  RingFullError,
  Vring,
} from "../../src/runtime/index.js";
import { queueRegisterAddress } from "../../src/spec/index.js";
import { makeVring, RING_REGION, words } from "./fixtures.js";

/** A queue register of the trn2 map (the profile every ring below is made on, or one with the same map). */
const qreg = (
  q: { engine: number; queue: number },
  side: "tx" | "rx",
  reg: "drbp_lo" | "drbp_hi" | "drl" | "drhp" | "drtp_inc",
) => queueRegisterAddress(archProfile("trn2"), q, side, reg);

const copy = (size: number) => ({ src: 0x1000n, dst: 0x20_0000n, size });

describe("vring creation", () => {
  it("programs drbp_lo / drbp_hi / drl of both rings", () => {
    const memory = new DeviceMemory();
    memory.map({ name: "r", kind: "host", base: 0x12_0000_0000n, bytes: 0x10000n });
    const registers = new RegisterFile();
    new Vring({
      profile: archProfile("trn2"),
      memory,
      registers,
      engine: 3,
      queue: 2,
      txBase: 0x12_0000_0000n,
      rxBase: 0x12_0000_1000n,
      slots: 32,
    });
    const q = { engine: 3, queue: 2 };
    expect(registers.read32(qreg(q, "tx", "drbp_lo"))).toBe(0);
    expect(registers.read32(qreg(q, "tx", "drbp_hi"))).toBe(0x12);
    expect(registers.read32(qreg(q, "rx", "drbp_lo"))).toBe(0x1000);
    expect(registers.read32(qreg(q, "rx", "drl"))).toBe(32);
    // Engine 3's block: Trn2's SE 0 SDMA 0 (0x10_0200_0000) + 3 · 0x100000; TX queue 2 at 0x3000; drl at +0x30
    // (aws-neuron-driver udma_rings_regs: 8 reserved words, then cfg, status, drbp_low/high, drl).
    expect(qreg(q, "tx", "drl")).toBe(0x10_0200_0000n + 0x300000n + 0x3000n + 0x30n);
  });
  it.each([
    [{ txBase: RING_REGION.base + 0x80n }, /txBase/],
    [{ slots: 24 }, /slots/],
    // udma_q_init refuses rings below UDMA_MIN_Q_SIZE (32) descriptors.
    [{ slots: 16 }, /vring\(slots\): 16 is out of range: a multiple of 16 in 32\.\./],
    [{ slots: 0 }, /slots/],
    [{ slots: 2 ** 24 }, /slots/],
    [{ rxBase: RING_REGION.base }, /rxBase/],
    [{ engine: 16 * 8 }, /engine/],
    [{ queue: 16 }, /queue/],
    [{ srSeed: 2 ** 32 }, /vring\(srSeed\): 4294967296 is out of range: an integer 0\.\.4294967295/],
  ])("refuses %o with a FieldError", (over, field) => {
    const memory = new DeviceMemory();
    memory.map({ name: "r", kind: "host", base: RING_REGION.base, bytes: RING_REGION.bytes });
    const o = {
      profile: archProfile("trn2"),
      memory,
      registers: new RegisterFile(),
      engine: 0,
      queue: 0,
      txBase: RING_REGION.base,
      rxBase: RING_REGION.base + 0x8_0000n,
      slots: 32,
    };
    const e = (() => {
      try {
        new Vring({ ...o, ...over });
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(FieldError);
    expect((e as Error).message).toMatch(field);
  });
  it("faults when a ring is not in mapped memory", () => {
    const memory = new DeviceMemory();
    expect(
      () =>
        new Vring({
          profile: archProfile("trn1"),
          memory,
          registers: new RegisterFile(),
          engine: 0,
          queue: 0,
          txBase: 0n,
          rxBase: 0x1000n,
          slots: 32,
        }),
    ).toThrow(DeviceFault);
  });
});

describe("plain copy (add_dma_packet)", () => {
  it("65536 bytes is one descriptor with length written as 0", () => {
    const { vring } = makeVring();
    const w = addDmaPacket(vring, copy(65536));
    expect(w.map((d) => words(d.bytes)[0]! & 0xffff)).toEqual([0, 0]);
    expect(words(w[0]!.bytes)).toEqual([0x0d000000, 0x01080003, 0x1000, 0]);
  });
  it("65537 bytes splits into 64 KiB + 1 on both rings", () => {
    const { vring } = makeVring();
    const w = addDmaPacket(vring, { ...copy(65537), dmb: true, wrbar: true });
    const t = w.filter((d) => d.ring === "tx").map((d) => words(d.bytes));
    const r = w.filter((d) => d.ring === "rx").map((d) => words(d.bytes));
    expect(t).toEqual([
      [0x45000000, 0x01080003, 0x1000, 0], // FIRST | DMB, length 0 (= 65536)
      [0x09000001, 0x05080003, 0x11000, 0], // LAST, write barrier on the last
    ]);
    expect(r).toEqual([
      // S2M: length and ring id only, no FIRST / LAST (aws-neuron-driver udma_m2m_build_rx_descriptor).
      [0x01000000, 0, 0x20_0000, 0],
      [0x01000001, 0, 0x21_0000, 0],
    ]);
  });
  it("refuses 0 bytes and more than 64 descriptors' worth", () => {
    expect(() => buildCopyPacket(copy(0))).toThrow(FieldError);
    expect(buildCopyPacket(copy(MAX_COPY_BYTES)).tx).toHaveLength(64);
    expect(() => buildCopyPacket(copy(MAX_COPY_BYTES + 1))).toThrow(/copy-request\(size\)/);
  });
});

describe("ring phase and refusal", () => {
  it("phase starts at 1; a 32-slot ring takes 16 copies, 16 slots always free (udma_available_get)", () => {
    const { vring } = makeVring({ slots: 32 });
    const phases: number[] = [];
    // Without an engine the head stays 0: 16 single-descriptor copies fit, the 17th is refused.
    for (let i = 0; i < 16; i++)
      phases.push(
        ...addDmaPacket(vring, copy(4))
          .filter((d) => d.ring === "tx")
          .map((d) => d.phase),
      );
    expect(phases).toEqual(Array(16).fill(1));
    expect(vring.tx.available()).toBe(0);
    expect(() => addDmaPacket(vring, copy(4))).toThrow(RingFullError);
  });
  it("wraps when the engine advances the head (drhp), and stamps the new phase", () => {
    const { vring, registers, memory } = makeVring({ slots: 32 });
    const head = (n: number) => {
      registers.write32(qreg(vring.queue, "tx", "drhp"), n, "engine");
      registers.write32(qreg(vring.queue, "rx", "drhp"), n, "engine");
    };
    for (let i = 0; i < 16; i++) addDmaPacket(vring, copy(4));
    head(16);
    for (let i = 0; i < 14; i++) addDmaPacket(vring, copy(4));
    head(30);
    const w = addDmaPacket(vring, copy(3 * 65536)); // slots 30, 31, then 0 on the next pass
    expect(w.filter((d) => d.ring === "tx").map((d) => [d.slot, d.phase])).toEqual([
      [30, 1],
      [31, 1],
      [0, 2],
    ]);
    expect((memory.readU32(RING_REGION.base) >>> 24) & 3).toBe(2);
  });
  it("a refused packet writes nothing and rings no doorbell", () => {
    const { vring, registers, memory } = makeVring({ slots: 32 });
    for (let i = 0; i < 15; i++) addDmaPacket(vring, copy(4));
    const before = memory.read(RING_REGION.base, 32 * 16);
    const mark = registers.log.length;
    const e = (() => {
      try {
        addDmaPacket(vring, copy(2 * 65536));
      } catch (x) {
        return x as RingFullError;
      }
    })();
    expect(e).toBeInstanceOf(RingFullError);
    expect([e?.ring, e?.needed, e?.available]).toEqual(["tx", 2, 1]);
    expect(memory.read(RING_REGION.base, 32 * 16)).toEqual(before);
    expect(registers.writesSince(mark)).toEqual([]);
  });
});

describe("doorbell", () => {
  it("writes the RX count to the S2M drtp_inc, then the TX count to the M2S drtp_inc", () => {
    const { vring, registers } = makeVring({ sr: true });
    const mark = registers.log.length;
    addDmaPacket(vring, copy(3 * 65536));
    const writes = registers.writesSince(mark);
    expect(writes.map((w) => [w.addr, w.value, w.accessor])).toEqual([
      [qreg(vring.queue, "rx", "drtp_inc"), 3, DOORBELL_ACCESSOR],
      [qreg(vring.queue, "tx", "drtp_inc"), 3, DOORBELL_ACCESSOR],
    ]);
  });
  it("can be replaced through the one small interface", () => {
    const rings: [number, number][] = [];
    const memory = new DeviceMemory();
    memory.map({ name: "r", kind: "host", base: 0n, bytes: 0x10000n });
    const vring = new Vring({
      profile: archProfile("trn3"),
      memory,
      registers: new RegisterFile(),
      engine: 0,
      queue: 0,
      txBase: 0n,
      rxBase: 0x1000n,
      slots: 32,
      doorbell: { ring: (rx, tx) => rings.push([rx, tx]) },
    });
    addDmaPacket(vring, copy(8));
    expect(rings).toEqual([[1, 1]]);
  });
});
