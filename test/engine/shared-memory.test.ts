// Device memory in shared memory (DeviceMemoryOptions.shared): its pages are SharedArrayBuffer views
// a worker thread can take (spansOf) — written whole in place, or read as they read here, an
// unallocated page as its byte — or take over whole (sharePages / adoptPages: a split execution);
// a plain memory refuses to hand them out.
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import { DeviceMemory, PAGE_BYTES, releaseFreeArenas } from "../../src/engine/index.js";

function memory(shared: boolean): DeviceMemory {
  const m = new DeviceMemory({ shared });
  m.map({ name: "hbm", base: 0n, bytes: BigInt(8 * PAGE_BYTES), kind: "hbm" });
  return m;
}

describe("shared device memory", () => {
  it("hands out a span's pages in address order, each inside one page, to write in place", () => {
    const m = memory(true);
    const at = PAGE_BYTES - 16;
    const spans = m.spansOf(BigInt(at), PAGE_BYTES + 32, true);
    expect(spans.map((s) => s.length)).toEqual([16, PAGE_BYTES, 16]);
    for (const s of spans) {
      expect(s).toBeInstanceOf(Uint8Array);
      expect((s as Uint8Array).buffer).toBeInstanceOf(SharedArrayBuffer);
      (s as Uint8Array).fill(7);
    }
    expect(m.allocatedBytes).toBe(3 * PAGE_BYTES);
    const want = new Uint8Array(PAGE_BYTES + 34).fill(7, 1, PAGE_BYTES + 33);
    expect(Buffer.compare(m.read(BigInt(at - 1), PAGE_BYTES + 34), want)).toBe(0);
  });

  it("reads a filled or never written page as its byte, an allocated one as it reads here", () => {
    const m = memory(true);
    m.fill(BigInt(2 * PAGE_BYTES), PAGE_BYTES, 0xab);
    m.write(3n, Uint8Array.of(1, 2, 3));
    const spans = m.spansOf(0n, 4 * PAGE_BYTES, false);
    expect(spans.slice(1)).toEqual([
      { byte: 0, length: PAGE_BYTES },
      { byte: 0xab, length: PAGE_BYTES },
      { byte: 0, length: PAGE_BYTES },
    ]);
    expect([...(spans[0] as Uint8Array).subarray(0, 6)]).toEqual([0, 0, 0, 1, 2, 3]);
    expect(m.allocatedBytes).toBe(PAGE_BYTES);
  });

  it("sets a partial fill and a reused page's stale bytes on shared pages as on plain ones", () => {
    const first = memory(true);
    first.write(0n, new Uint8Array(PAGE_BYTES).fill(9));
    first.release();
    // The next shared memory takes the released arena: its stale nines must read as zero.
    const m = memory(true);
    m.fill(100n, 5000, 0xcd);
    const want = new Uint8Array(8192).fill(0xcd, 100, 5100);
    expect(Buffer.compare(m.read(0n, 8192), want)).toBe(0);
  });

  it("shares its pages: another memory adopts them, new ones owed their byte until set", () => {
    releaseFreeArenas();
    const released = memory(true);
    released.write(0n, new Uint8Array(3 * PAGE_BYTES).fill(9)); // the first 3 blocks of its arena
    released.release();
    const m = memory(true); // takes that arena: blocks 0–2 hold nines, the rest reads as zero
    m.write(10n, Uint8Array.of(1, 2, 3));
    m.fill(BigInt(2 * PAGE_BYTES), PAGE_BYTES, 0xab);
    const shared = m.sharePages([0, 2, 3, 4]);
    // Page 0 holds its bytes; page 2 is owed its fill byte, page 3 zero (its block held nines);
    // page 4's block was never written: it reads as zero, owed nothing. Page 1 stays unallocated.
    expect(shared.pages.filter((_, i) => i % 3 === 0)).toEqual([0, 2, 3, 4]);
    expect(shared.owed).toEqual([
      [2, 0xab],
      [3, 0],
    ]);
    expect(() => m.write(BigInt(PAGE_BYTES), Uint8Array.of(1))).toThrow(/page 1 was not shared/);
    const other = new DeviceMemory({ shared: true });
    other.map({ name: "hbm", base: 0n, bytes: BigInt(8 * PAGE_BYTES), kind: "hbm" });
    other.adoptPages(shared, 1);
    other.setPages(shared, 0, 2);
    // The same bytes, seen and written from either memory.
    expect([...m.read(10n, 3)]).toEqual([1, 2, 3]);
    expect(m.read(BigInt(2 * PAGE_BYTES), PAGE_BYTES).every((b) => b === 0xab)).toBe(true);
    other.write(BigInt(3 * PAGE_BYTES + 5), Uint8Array.of(9));
    expect(m.read(BigInt(3 * PAGE_BYTES), 8)).toEqual(Uint8Array.of(0, 0, 0, 0, 0, 9, 0, 0));
    expect(m.read(BigInt(3 * PAGE_BYTES), 2 * PAGE_BYTES).filter((b) => b !== 0)).toEqual(Uint8Array.of(9));
    expect(() => other.write(BigInt(PAGE_BYTES), Uint8Array.of(1))).toThrow(/another thread's pages/);
    m.unseal();
    m.write(BigInt(PAGE_BYTES), Uint8Array.of(1));
    expect(m.allocatedBytes).toBe(5 * PAGE_BYTES);
    expect(() => memory(false).sharePages([0])).toThrow(/sharePages.*shared/);
  });

  it("refuses to hand out the pages of a plain memory", () => {
    expect(() => memory(false).spansOf(0n, 16, true)).toThrow(FieldError);
    expect(() => memory(false).spansOf(0n, 16, true)).toThrow(/spansOf.*addr.*0x0.*shared memory/);
  });
});
