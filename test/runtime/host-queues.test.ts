// The host's one posting loop (runtime/host-queues.ts), shared by the collectives' device machines
// and isa's SB2SB queues: a full ring drains the device and the call is retried; a drain's faults
// and stalls become one DeviceFault.
import { describe, expect, it } from "vitest";
import { DeviceFault } from "../../src/bits/index.js";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { addHostPacket, drainDevice, postHostPacket, VringPool } from "../../src/runtime/index.js";

const SRC = HBM_BASE + 0x100_0000n;
const DST = HBM_BASE + 0x200_0000n;

function setup() {
  const dev = new Device("trn2");
  const pool = new VringPool(dev, { ringBase: HBM_BASE, slots: 32 });
  dev.memory.write(
    SRC,
    Uint8Array.from({ length: 64 * 40 }, (_, i) => (i * 13) & 0xff),
  );
  return { dev, vring: pool.get({ engine: 0, queue: 0 }) };
}

describe("post / drain / retry", () => {
  it("40 copies on a 32-slot ring: each full ring drains once, then every copy lands", () => {
    const { dev, vring } = setup();
    let drains = 0;
    const drain = () => {
      drains++;
      drainDevice(dev, "test");
    };
    for (let i = 0; i < 40; i++) {
      const copy = { src: SRC + BigInt(64 * i), dst: DST + BigInt(64 * i), size: 64 };
      const r =
        i % 2 === 0
          ? postHostPacket(vring, { kind: "copy", copy }, drain)
          : addHostPacket(vring, { kind: "copy", copy }, drain);
      expect(Array.isArray(r) || r === undefined).toBe(true);
    }
    drainDevice(dev, "test");
    expect(drains).toBeGreaterThan(0);
    expect(drains).toBeLessThan(40);
    expect(dev.memory.read(DST, 64 * 40)).toEqual(dev.memory.read(SRC, 64 * 40));
  });

  it("a drain with a fault is one DeviceFault that starts with who drained", () => {
    const { dev, vring } = setup();
    const s0 = dev.profile.addressMap.hbmStacks[0]!;
    const unmapped = s0.base + s0.bytes + 0x1000n;
    postHostPacket(vring, { kind: "copy", copy: { src: SRC, dst: unmapped, size: 64 } }, () => {});
    expect(() => drainDevice(dev, "sb2sb")).toThrow(DeviceFault);
    expect(() => drainDevice(dev, "sb2sb")).not.toThrow();
  });
});
