// A copy packet whose source or destination runs across a page boundary goes page piece to page
// piece (PacketIo.copyPages), not through staging: the bytes must be exactly those a copy through
// a buffer gives — whichever side crosses, on stale (reused, pre-filled) pages, and with source
// and destination overlapping or a destination page never written (then staged, as before).
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE, PAGE_BYTES } from "../../src/engine/index.js";
import { DEFAULT_COPY_META } from "../../src/spec/index.js";
import { QueueWriter, rxData, txData } from "./helpers/packets.js";

const RING_TX = HBM_BASE + 0x10_0000n;
const RING_RX = HBM_BASE + 0x20_0000n;
const PAGE = BigInt(PAGE_BYTES);
/** A boundary well past the rings, and 4 KiB copied. */
const EDGE = HBM_BASE + 8n * PAGE;
const LEN = 4096;
/** The bytes compared: EDGE − 2 pages to EDGE + 4 pages (the last never written but by a copy). */
const WINDOW = 6 * PAGE_BYTES;

/** The bytes EDGE − 2 pages to EDGE + 2 pages hold: (7i + 3) mod 251, no period of a power of two. Made once. */
const PATTERN = new Uint8Array(4 * PAGE_BYTES);
for (let i = 0; i < PATTERN.length; i++) PATTERN[i] = (i * 7 + 3) % 251;

/**
 * Copy LEN bytes from `src` to `dst` by one packet, on a device whose memory from EDGE − 2 pages
 * to EDGE + 2 pages holds a pattern (`fill`: the page after it pre-filled); then the WINDOW's bytes.
 */
function copied(src: bigint, dst: bigint, fill?: number): Uint8Array {
  const dev = new Device("trn2");
  const from = EDGE - 2n * PAGE;
  dev.memory.write(from, PATTERN);
  if (fill !== undefined) dev.memory.fill(EDGE + PAGE, PAGE_BYTES, fill);
  const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32);
  w.post({ tx: [txData(src, LEN, DEFAULT_COPY_META)], rx: [rxData(dst, LEN)] });
  const r = dev.run();
  expect(r.faults).toEqual([]);
  expect(r.events).toHaveLength(1);
  return dev.memory.read(from, WINDOW);
}

/** The same copy through a buffer, on the window as {@link copied} sets it. */
function expected(src: bigint, dst: bigint, fill?: number): Uint8Array {
  const from = EDGE - 2n * PAGE;
  const bytes = new Uint8Array(WINDOW);
  bytes.set(PATTERN);
  if (fill !== undefined) bytes.fill(fill, 3 * PAGE_BYTES, 4 * PAGE_BYTES);
  const s = Number(src - from);
  bytes.set(bytes.slice(s, s + LEN), Number(dst - from));
  return bytes;
}

const cases: [string, bigint, bigint][] = [
  ["the source across a boundary", EDGE - 100n, EDGE - PAGE + 512n],
  ["the destination across a boundary", EDGE - PAGE + 512n, EDGE - 1000n],
  ["both across boundaries, at other offsets", EDGE - 100n, EDGE + PAGE - 3000n],
  ["the source across a boundary, into a page never written", EDGE - 100n, EDGE + 3n * PAGE + 64n],
  ["overlapping spans across a boundary (forward)", EDGE - 100n, EDGE - 50n],
  ["overlapping spans across a boundary (backward)", EDGE - 50n, EDGE - 100n],
  ["the source across a boundary, into a pre-filled page", EDGE - 100n, EDGE + PAGE + 64n],
];

describe("a copy packet across a page boundary", () => {
  it.each(cases)("%s: the bytes of a copy through a buffer", (_, src, dst) => {
    const got = copied(src, dst, 0x5a);
    const want = expected(src, dst, 0x5a);
    // The first byte that differs (−1: none), not an element-by-element diff of 6 MiB; looked for
    // only when the bytes differ (a callback a byte takes longer than the copy).
    const same = Buffer.compare(got, want) === 0;
    expect(same ? -1 : got.findIndex((b, i) => b !== want[i])).toBe(-1);
  });
});
