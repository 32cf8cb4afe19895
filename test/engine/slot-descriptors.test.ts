// The engine reads a ring's descriptors in place through a few objects re-pointed packet after
// packet (slot-descriptor.ts): each packet's events and faults still name its own ring slots.
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { DEFAULT_COPY_META } from "../../src/spec/index.js";
import { QueueWriter, rxData, txData } from "./helpers/packets.js";

const SRC = HBM_BASE + 0x100_0000n;

describe("descriptors read in place, re-pointed packet after packet", () => {
  it("events carry each packet's first TX / RX slot; a later packet's fault names its slot", () => {
    const dev = new Device("trn2");
    dev.memory.write(SRC, new Uint8Array(64).fill(5));
    const w = new QueueWriter(dev, 0, 0, HBM_BASE + 0x10_0000n, HBM_BASE + 0x20_0000n, 32);
    // Two TX descriptors a packet (8 + 8 bytes) into one RX descriptor; the third's RX offers 20
    // (it covers the 16 bytes, so it is the packet's S2M side, and overshoots them).
    for (let k = 0; k < 3; k++)
      w.post({
        tx: [txData(SRC, 8, DEFAULT_COPY_META), txData(SRC + 8n, 8, DEFAULT_COPY_META)],
        rx: [rxData(HBM_BASE + BigInt(16 * k), k === 2 ? 20 : 16)],
      });
    const report = dev.run();
    expect(report.events.map((e) => [e.txSlot, e.rxSlot])).toEqual([
      [0, 0],
      [2, 1],
    ]);
    expect(report.faults).toHaveLength(1);
    expect(report.faults[0]?.message).toMatch(
      /^engine 0 queue 0 rx slot 2: TX chain moves 16 bytes but RX chain receives 20/,
    );
    expect(dev.memory.read(HBM_BASE, 32)).toEqual(new Uint8Array(32).fill(5));
  });
});

describe("the S2M side of a packet ends where the stream's bytes end (no FIRST / LAST on S2M)", () => {
  it("a copy's RX descriptors are taken until they cover the TX bytes; fewer stall the queue", () => {
    const dev = new Device("trn2");
    dev.memory.write(SRC, new Uint8Array(64).fill(7));
    const w = new QueueWriter(dev, 0, 0, HBM_BASE + 0x10_0000n, HBM_BASE + 0x20_0000n, 32);
    w.post({
      tx: [txData(SRC, 24, DEFAULT_COPY_META)],
      rx: [rxData(HBM_BASE, 8), rxData(HBM_BASE + 0x100n, 16)],
    });
    const first = dev.run();
    expect(first.events.map((e) => [e.txSlot, e.rxSlot, e.descriptors])).toEqual([[0, 0, 3]]);
    expect(dev.memory.read(HBM_BASE + 0x100n, 16)).toEqual(new Uint8Array(16).fill(7));
    w.post({ tx: [txData(SRC, 32, DEFAULT_COPY_META)], rx: [rxData(HBM_BASE + 0x200n, 16)] });
    const second = dev.run();
    expect(second.events).toEqual([]);
    expect(second.stalls[0]?.reason).toMatch(/cover 16 of the packet's 32 bytes: packet incomplete/);
  });
});
