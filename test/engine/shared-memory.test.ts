// Device memory in shared memory (DeviceMemoryOptions.shared): its pages are SharedArrayBuffer views
// a worker thread can take (spansOf) — written whole in place, or read as they read here, an
// unallocated page as its byte — and a plain memory refuses to hand them out.
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import { DeviceMemory, PAGE_BYTES } from "../../src/engine/index.js";

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

  it("takes ahead the arenas the next pages go to, and gives their untouched spans", () => {
    const m = new DeviceMemory({ shared: true });
    m.map({ name: "hbm", base: 0n, bytes: BigInt(64 * PAGE_BYTES), kind: "hbm" });
    m.write(0n, Uint8Array.of(1));
    const ahead = m.pagesAhead(40 * PAGE_BYTES);
    const room = ahead.reduce((n, s) => n + s.to - s.from, 0);
    expect(room).toBeLessThanOrEqual(40 * PAGE_BYTES);
    // Each page written next lies in a span given (unless a reused arena's was touched before).
    for (let p = 1; p <= 40; p++) {
      const [view] = m.spansOf(BigInt(p * PAGE_BYTES), PAGE_BYTES, true) as Uint8Array[];
      const inside = ahead.some(
        (s) => s.buffer === view?.buffer && view.byteOffset >= s.from && view.byteOffset + PAGE_BYTES <= s.to,
      );
      if (room === 40 * PAGE_BYTES) expect(inside, `page ${p}`).toBe(true);
    }
    expect(() => m.pagesAhead(-1)).toThrow(/pagesAhead.*bytes/);
  });

  it("refuses to hand out the pages of a plain memory", () => {
    expect(() => memory(false).spansOf(0n, 16, true)).toThrow(FieldError);
    expect(() => memory(false).spansOf(0n, 16, true)).toThrow(/spansOf.*addr.*0x0.*shared memory/);
  });
});
