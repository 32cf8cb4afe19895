// A packet's destination on a page whose bytes are still stale (pre-filled whole, or reused from a
// released memory: engine/memory/lazy-clear.ts) is not set before the engine overwrites it — checking a
// destination and computing into it in place leave what is stale there (DeviceMemory.pageToOverwrite).
// The bytes must still be exactly those of a page written out in full: the result where it goes,
// the fill (or zero) around it, and a source on the destination's own span read as its stale value.
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE, PAGE_BYTES, releaseFreeArenas } from "../../src/engine/index.js";
import { DEFAULT_COPY_META, Dtype } from "../../src/spec/index.js";
import { ccePacket, type Packet, QueueWriter, rxData, txData } from "./helpers/packets.js";

const RING_TX = HBM_BASE + 0x10_0000n;
const RING_RX = HBM_BASE + 0x20_0000n;
const SRC = HBM_BASE + 0x100_0000n;
/** The destination page: a page of its own (past the sources' and rings'), the result inside it. */
const PAGE = HBM_BASE + BigInt(40 * PAGE_BYTES);
const DST = PAGE + 4096n;

type Prepare = (dev: Device) => void;
/** How the destination page holds 0xa5 (or, reused, zero) before the packet. */
const pages: [string, Prepare][] = [
  ["pre-filled whole (no memory yet)", (dev) => dev.memory.fill(PAGE, PAGE_BYTES, 0xa5)],
  [
    "allocated, pre-filled after a write",
    (dev) => {
      dev.memory.write(PAGE + 8n, Uint8Array.of(1));
      dev.memory.fill(PAGE, PAGE_BYTES, 0xa5);
    },
  ],
  [
    "reused from a released memory",
    (dev) => {
      dev.memory.write(PAGE + 8n, Uint8Array.of(1)); // taken from the released arena, rest stale
      dev.memory.write(PAGE + 8n, Uint8Array.of(0));
    },
  ],
];

/** The same page written out in full, nothing stale: the reference. */
function written(prepare: Prepare): Prepare {
  return (dev) => {
    const fresh = new Device("trn2");
    prepare(fresh);
    dev.memory.write(PAGE, fresh.memory.read(PAGE, PAGE_BYTES));
  };
}

const packets: [string, Packet][] = [
  [
    "an fp32 ADD into the page",
    ccePacket({
      op: "add",
      sources: [SRC, SRC + 64n],
      elements: 16,
      inDt: Dtype.FP32,
      outDt: Dtype.FP32,
      dest: DST,
    }),
  ],
  [
    "an fp32 ADD in place (the first source is the destination)",
    ccePacket({
      op: "add",
      sources: [DST, SRC],
      elements: 16,
      inDt: Dtype.FP32,
      outDt: Dtype.FP32,
      dest: DST,
    }),
  ],
  [
    "a bf16 ADD with a replica, both into the page",
    ccePacket({
      op: "add",
      sources: [SRC, SRC + 64n],
      elements: 16,
      inDt: Dtype.BFLOAT16,
      outDt: Dtype.BFLOAT16,
      dest: DST,
      extraDests: [DST + 256n],
    }),
  ],
  ["a copy into the page", { tx: [txData(SRC, 64, DEFAULT_COPY_META)], rx: [rxData(DST, 64)] }],
];

/** The destination page after `packet` runs on a device prepared by `prepare`. */
function run(prepare: Prepare, packet: Packet): Uint8Array {
  // A released memory's pages hold 0xff: the next device's reused pages must not show it.
  const old = new Device("trn2");
  old.memory.write(HBM_BASE, new Uint8Array(24 * PAGE_BYTES).fill(0xff));
  old.memory.release();
  const dev = new Device("trn2");
  dev.memory.write(
    SRC,
    Uint8Array.from({ length: 128 }, (_, i) => (i * 37) & 0x3f),
  );
  prepare(dev);
  new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32).post(packet);
  expect(dev.run().faults).toEqual([]);
  return dev.memory.read(PAGE, PAGE_BYTES);
}

describe("a destination on a page still stale reads as one written out in full", () => {
  for (const [how, prepare] of pages) {
    for (const [what, packet] of packets) {
      it(`${what}, the page ${how}`, () => {
        releaseFreeArenas();
        const got = run(prepare, packet);
        releaseFreeArenas();
        const want = run(written(prepare), packet);
        // The first byte that differs (toEqual over a page's bytes takes seconds).
        expect(got.findIndex((b, i) => b !== want[i])).toBe(-1);
        expect(got[0]).toBe(how.startsWith("reused") ? 0 : 0xa5);
      });
    }
  }
});

describe("a replica on a stale page", () => {
  it("holds the result's bytes, as the destination does", () => {
    for (const [, prepare] of pages) {
      releaseFreeArenas();
      const [, packet] = packets.find(([what]) => what.includes("replica")) as [string, Packet];
      const page = run(prepare, packet);
      const at = Number(DST - PAGE);
      expect(page.subarray(at + 256, at + 288)).toEqual(page.subarray(at, at + 32));
      expect(page.subarray(at, at + 32).some((b) => b !== 0xa5 && b !== 0)).toBe(true);
    }
  });
});

describe("a copy whose source and destination overlap", () => {
  for (const shift of [16, -16]) {
    it(`moves the source's bytes as they were before the packet (destination ${shift} bytes on)`, () => {
      const dev = new Device("trn2");
      const bytes = Uint8Array.from({ length: 128 }, (_, i) => i + 1);
      dev.memory.write(DST, bytes);
      const to = DST + 32n + BigInt(shift);
      new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32).post({
        tx: [txData(DST + 32n, 64, DEFAULT_COPY_META)],
        rx: [rxData(to, 64)],
      });
      expect(dev.run().faults).toEqual([]);
      expect(dev.memory.read(to, 64)).toEqual(bytes.subarray(32, 96));
    });
  }
});
