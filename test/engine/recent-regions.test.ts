/**
 * DeviceMemory's look-up keeps the last region and seven recent ones (a KangaRing packet reads four
 * HBM stacks): however the accesses cycle through more regions than it keeps, each lands in its own
 * region, and a hit never lets an access run past that region's end or into a gap.
 */
import { describe, expect, it } from "vitest";
import { DeviceFault } from "../../src/bits/index.js";
import { DeviceMemory } from "../../src/engine/index.js";

const REGIONS = 12;
const BYTES = 0x1_0000;
/** Regions 0x10_0000 apart: the space between two is unmapped. */
const baseOf = (i: number): bigint => BigInt(i) * 0x10_0000n;

function memory(): DeviceMemory {
  const m = new DeviceMemory();
  for (let i = 0; i < REGIONS; i++)
    m.map({ name: `r${i}`, kind: "hbm", base: baseOf(i), bytes: BigInt(BYTES) });
  return m;
}

/** Region orders that evict from every slot: in turn, backwards, and a fixed scramble. */
const ORDERS: readonly number[][] = [
  Array.from({ length: 3 * REGIONS }, (_, k) => k % REGIONS),
  Array.from({ length: 3 * REGIONS }, (_, k) => REGIONS - 1 - (k % REGIONS)),
  Array.from({ length: 5 * REGIONS }, (_, k) => (k * 7 + (k >> 2)) % REGIONS),
];

describe("the recent-region cache", () => {
  it.each(ORDERS.map((o, i) => [i, o] as const))(
    "order %i: every word lands in its own region",
    (_, order) => {
      const m = memory();
      for (const [k, r] of order.entries()) m.writeU32(baseOf(r) + BigInt((k % 64) * 4), (r << 16) | k);
      order.forEach((r, k) => {
        const last = order.findLastIndex((r2, k2) => r2 === r && k2 % 64 === k % 64);
        expect(m.readU32(baseOf(r) + BigInt((k % 64) * 4))).toBe((r << 16) | last);
      });
    },
  );

  it("after a hit, an access past the region's end or into the gap is refused", () => {
    const m = memory();
    for (const r of [0, 5, 11, 5, 0]) {
      m.readU32(baseOf(r));
      expect(() => m.read(baseOf(r) + BigInt(BYTES) - 2n, 4)).toThrow(DeviceFault);
      expect(() => m.readU32(baseOf(r) + BigInt(BYTES))).toThrow(DeviceFault);
    }
  });
});
