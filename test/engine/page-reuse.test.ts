// Device memory touched once: fill in place (a page filled whole takes memory only when written),
// and arenas released by one memory reused by the next (engine/memory/page-arenas.ts) — a reused page must
// read as zero, as a fresh one does.
import { describe, expect, it } from "vitest";
import {
  DeviceMemory,
  PAGE_BYTES,
  POOL_MAX_BYTES,
  pageNumber,
  pageOffset,
  pooledArenaBytes,
  releaseFreeArenas,
} from "../../src/engine/index.js";

function memory(): DeviceMemory {
  const m = new DeviceMemory();
  m.map({ name: "hbm", base: 0x1000n, bytes: BigInt(64 * PAGE_BYTES), kind: "hbm" });
  return m;
}

/** A memory whose first pages are taken from a released memory that filled them with 0xff. */
function reused(): DeviceMemory {
  releaseFreeArenas();
  const a = memory();
  a.fill(0x1000n, 4 * PAGE_BYTES, 0xff);
  a.release();
  return memory();
}
/** A Number address as the fast paths take it: its page and the byte in it. */
const place = (a: number) => [pageNumber(a), pageOffset(a)] as const;
/** Device page p (page 0 starts below the region) at byte `off`. */
const at = (page: number, off: number) => BigInt((page + 1) * PAGE_BYTES + off);

describe("DeviceMemory.fill", () => {
  it("sets a span across pages in place, leaving its neighbours", () => {
    const m = memory();
    const at = BigInt(2 * PAGE_BYTES) - 5n; // 5 bytes before a page boundary
    m.fill(at, 10, 0xa5);
    expect([...m.read(at - 1n, 12)]).toEqual([0, ...new Array(10).fill(0xa5), 0]);
    expect(m.allocatedBytes).toBe(2 * PAGE_BYTES);
  });
  it("a whole page filled holds no memory until written, and reads as the byte meanwhile", () => {
    const m = memory();
    const page = BigInt(PAGE_BYTES);
    m.fill(page, 3 * PAGE_BYTES, 0xa5); // pages 1–3 whole
    expect(m.allocatedBytes).toBe(0);
    expect(m.peek(page, 4)).toBeUndefined();
    expect([...m.read(page - 2n, 4)]).toEqual([0, 0, 0xa5, 0xa5]);
    m.write(2n * page + 5n, Uint8Array.of(1)); // page 2 written: allocated, the byte around the write
    expect(m.allocatedBytes).toBe(PAGE_BYTES);
    expect([...m.read(2n * page + 3n, 4)]).toEqual([0xa5, 0xa5, 1, 0xa5]);
    m.write(3n * page, new Uint8Array(PAGE_BYTES).fill(7)); // overwritten whole
    expect([...m.read(3n * page - 1n, 2)]).toEqual([0xa5, 7]);
    const view = m.poke(page + 8n, 2); // written through a view: allocated with the byte
    expect([...(view ?? [])]).toEqual([0xa5, 0xa5]);
    m.fill(page, 4, 0); // a partial fill of an allocated page
    expect([...m.read(page, 6)]).toEqual([0, 0, 0, 0, 0xa5, 0xa5]);
    m.release();
    expect([...memory().read(page, 2)]).toEqual([0, 0]);
  });
  it("faults outside a region as a write does", () => {
    expect(() => memory().fill(0n, 4, 1)).toThrow(/not mapped/);
  });
});

describe("release and reuse", () => {
  it("a memory after another's release reads zero where the other wrote, and takes its arenas", () => {
    releaseFreeArenas();
    const a = memory();
    a.fill(0x1000n, 3 * PAGE_BYTES, 0xff);
    a.write(0x1000n + 5n, Uint8Array.of(1, 2, 3));
    a.release();
    expect(a.allocatedBytes).toBe(0);
    const b = memory();
    // A partial write: the rest of the reused page must be zero.
    b.write(0x1000n + 7n, Uint8Array.of(9));
    expect([...b.read(0x1000n, 16)]).toEqual([0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0]);
    // A peeked page is whole zero past the write, and the next page too (cleared on allocation).
    b.fill(0x1000n + BigInt(PAGE_BYTES), 1, 0);
    expect(b.read(0x1000n + 8n, 2 * PAGE_BYTES - 8).every((x) => x === 0)).toBe(true);
    // The arena came from the free list: nothing is left there to drop.
    expect(releaseFreeArenas()).toBe(0);
    b.release();
    expect(releaseFreeArenas()).toBeGreaterThan(0);
  });
  it("a released memory's number fast path finds none of its pages again (they are another's now)", () => {
    const a = memory();
    const first = Number(at(0, 0));
    a.write(at(0, 0), Uint8Array.of(1));
    expect(a.pageAt(...place(first), 16)).toBeDefined();
    expect(a.pageToOverwrite(...place(first), 16)).toBeDefined();
    a.release();
    expect(a.pageAt(...place(first), 16)).toBeUndefined();
    expect(a.pageToOverwrite(...place(first), 16)).toBeUndefined();
    // Written again, it takes a page of its own and reads what it wrote.
    a.write(at(0, 0), Uint8Array.of(7));
    expect(a.pageAt(...place(first), 1)?.[pageOffset(first)]).toBe(7);
    a.release();
  });
});

describe("reused pages read as zero past partial writes, in order or not", () => {
  it("tiles written from a page's start: the rest of the page reads as zero (read, peek, poke)", () => {
    const m = reused();
    m.write(at(0, 0), new Uint8Array(100).fill(1));
    m.write(at(0, 100), new Uint8Array(50).fill(2));
    expect([...m.read(at(0, 148), 4)]).toEqual([2, 2, 0, 0]);
    m.write(at(1, 0), new Uint8Array(10).fill(3));
    expect(m.peek(at(1, 0), PAGE_BYTES)?.subarray(8, 12)).toEqual(Uint8Array.of(3, 3, 0, 0));
    m.fill(at(2, 0), 5, 4);
    const view = m.poke(at(2, 3), 4);
    expect([...(view ?? [])]).toEqual([4, 4, 0, 0]);
  });
  it("a write past the written part clears the gap before it; a fill does too", () => {
    const m = reused();
    m.write(at(0, 0), Uint8Array.of(1));
    m.write(at(0, 10), Uint8Array.of(2));
    m.fill(at(1, 20), 2, 5);
    expect([...m.read(at(0, 0), 12)]).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]);
    expect([...m.read(at(1, 18), 6)]).toEqual([0, 0, 5, 5, 0, 0]);
  });
  it("a write across a page boundary keeps both pages right", () => {
    const m = reused();
    m.write(at(0, PAGE_BYTES - 2), Uint8Array.of(7, 8, 9, 10));
    expect([...m.read(at(0, PAGE_BYTES - 4), 8)]).toEqual([0, 0, 7, 8, 9, 10, 0, 0]);
  });
});

describe("stale bytes are set only where an access reaches them (engine/memory/lazy-clear.ts)", () => {
  const K = 64 << 10;

  it("four channels' packets 256 KiB apart, written in rounds: every gap reads zero, every write its bytes", () => {
    const m = reused();
    // Round 1 writes the first 64 KiB of each quarter; a read in between sees zero in the gaps.
    for (let c = 0; c < 4; c++) m.write(at(0, c * 4 * K), new Uint8Array(K).fill(c + 1));
    expect([...m.read(at(0, K - 1), 2)]).toEqual([1, 0]);
    expect(m.peek(at(0, 2 * K), 4)).toEqual(new Uint8Array(4));
    for (let r = 1; r < 4; r++)
      for (let c = 0; c < 4; c++) m.write(at(0, (c * 4 + r) * K), new Uint8Array(K).fill(16 * r + c + 1));
    const page = m.read(at(0, 0), PAGE_BYTES);
    for (let q = 0; q < 16; q++) {
      const [c, r] = [Math.floor(q / 4), q % 4];
      expect(page[q * K + 7]).toBe(r === 0 ? c + 1 : 16 * r + c + 1);
    }
  });
  it("a pre-filled page written in part reads its fill byte around the writes, out of order", () => {
    const m = reused();
    m.fill(at(1, 0), PAGE_BYTES, 0xa5);
    m.write(at(1, 300), Uint8Array.of(1, 2));
    m.write(at(1, 100), Uint8Array.of(3));
    m.write(at(1, 101), Uint8Array.of(4));
    expect([...m.read(at(1, 99), 4)]).toEqual([0xa5, 3, 4, 0xa5]);
    expect([...(m.poke(at(1, 299), 4) ?? [])]).toEqual([0xa5, 1, 2, 0xa5]);
  });
  it("the engine's number fast path (pageAt) sets what is stale in its span as peek does", () => {
    const m = reused();
    m.write(at(3, 0), Uint8Array.of(9)); // page 3 taken from the reused arena, its rest still stale
    const a = Number(at(3, 8192)); // where the released memory had written 0xff
    const page = m.pageAt(...place(a), 8);
    expect(page).toBeDefined();
    const off = pageOffset(a);
    expect([...(page ?? new Uint8Array()).subarray(off, off + 8)]).toEqual(new Array(8).fill(0));
  });
  it("the fast path, asked again of a page it found while stale, still sets what is stale", () => {
    const m = reused();
    m.write(at(3, 0), Uint8Array.of(9));
    const a = Number(at(3, 8192));
    expect(m.pageToOverwrite(...place(a), 8)).toBeDefined(); // found, nothing set
    const page = m.pageAt(...place(a), 8) as Uint8Array;
    const off = pageOffset(a);
    expect([...page.subarray(off, off + 8)]).toEqual(new Array(8).fill(0));
    // Written whole (overwritten), then read: what was written, not set again.
    page.fill(7, off, off + 8);
    m.overwritten(...place(a), 8);
    expect([...(m.pageAt(...place(a), 8) as Uint8Array).subarray(off, off + 8)]).toEqual(
      new Array(8).fill(7),
    );
    // Once every byte is set (the page written whole), the page reads what was written last.
    m.write(at(3, 0), new Uint8Array(PAGE_BYTES).fill(3));
    expect([...(m.pageAt(...place(a), 8) as Uint8Array).subarray(off, off + 8)]).toEqual(
      new Array(8).fill(3),
    );
    expect(m.read(at(3, PAGE_BYTES - 4), 4)).toEqual(new Uint8Array(4).fill(3));
  });
  it("a page written in more scattered spans than are tracked (4096) is set whole and still reads right", () => {
    const m = reused();
    const n = 4096;
    for (let k = 0; k < n; k++) m.write(at(2, 16 * k), Uint8Array.of(k & 0xff));
    const got = m.read(at(2, 0), 16 * n);
    expect(got).toEqual(Uint8Array.from({ length: 16 * n }, (_, i) => (i % 16 === 0 ? (i / 16) & 0xff : 0)));
    expect(m.read(at(2, PAGE_BYTES - 8), 8)).toEqual(new Uint8Array(8));
  });
  it("a page read in small pieces more often than tracked (a ring's slots) is set whole, reads unchanged", () => {
    const m = reused();
    // Two rings in one page, each written and read a slot at a time, never covering the page.
    for (let k = 0; k < 100; k++) {
      for (const base of [0, 64 * K]) {
        const slot = at(0, base + 16 * k);
        m.write(slot, new Uint8Array(16).fill(k + 1));
        expect(m.pageAt(...place(Number(slot)), 16)).toBeDefined();
        expect(m.peek(at(0, base + 16 * k + 16), 16)).toEqual(new Uint8Array(16));
      }
    }
    expect(m.read(at(0, 16 * 99), 32)).toEqual(Uint8Array.from({ length: 32 }, (_, i) => (i < 16 ? 100 : 0)));
    expect(m.read(at(0, PAGE_BYTES - 8), 8)).toEqual(new Uint8Array(8));
  });
});

describe("the free list is bounded", () => {
  it("keeps at most POOL_MAX_BYTES of released arenas, the largest first", () => {
    releaseFreeArenas();
    // Each memory writes one byte in 17 pages: the 16 MiB first arena, then a 1 GiB one.
    const big = Array.from({ length: 5 }, () => {
      const m = new DeviceMemory();
      m.map({ name: "hbm", base: 0n, bytes: BigInt(64 * PAGE_BYTES), kind: "hbm" });
      for (let p = 0; p < 17; p++) m.write(BigInt(p * PAGE_BYTES), Uint8Array.of(1));
      return m;
    });
    for (const m of big) m.release();
    expect(pooledArenaBytes()).toBeLessThanOrEqual(POOL_MAX_BYTES);
    expect(pooledArenaBytes()).toBeGreaterThanOrEqual(POOL_MAX_BYTES - (16 << 20) * 5);
    expect(releaseFreeArenas()).toBeGreaterThan(0);
    expect(pooledArenaBytes()).toBe(0);
  });
});
