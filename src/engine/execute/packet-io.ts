/**
 * A packet's reads and writes of device memory: every memory fault turned into a fault naming the
 * descriptor, the address and what lives there; the number-address fast paths (an allocated page of
 * plain memory, no bigint, no view made) where the executor runs per packet; and reusable staging
 * buffers, grown on demand, so a packet allocates little.
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import { ARENA_VIEWS } from "../../numerics/wasm/kernels.js";
import type { Descriptor } from "../decode/descriptor.js";
import { DescriptorFault } from "../decode/faults.js";
import { type Segment, segmentAddr } from "../decode/packet-plan.js";
import { type DeviceMemory, MemoryFault, PAGE_BYTES, pageNumber, pageOffset } from "../memory/memory.js";
import { describeAddress } from "../memory/memory-map.js";
import { checkWritable } from "../memory/preflight.js";

/** Bytes in place: `bytes` (a page, or a view of one) from byte `offset`. */
export interface Place {
  bytes: Uint8Array;
  offset: number;
}

/** A segment's address as a Number for memory's number fast path (the plan's, else converted). */
export function numberAt(s: Segment): number {
  return s.at ?? Number(segmentAddr(s));
}

/** A staging buffer, grown on demand: the view is valid until the next call. */
class Staging {
  private bytes = new Uint8Array(1 << 16);

  get(n: number): Uint8Array {
    if (this.bytes.length < n) this.bytes = new Uint8Array(Math.max(n, 2 * this.bytes.length));
    return this.bytes.subarray(0, n);
  }
}

/** The span is an allocated page's, of plain memory (a test: nothing set). */
const allocated = (m: DeviceMemory, at: number, n: number): boolean =>
  m.pageToOverwrite(pageNumber(at), pageOffset(at), n) !== undefined;

export class PacketIo {
  /** Copies, transposes, GCE payloads. */
  readonly staging = new Staging();
  /** Sources memory cannot give in place. */
  readonly sources = new Staging();
  /** A result that cannot be written in place. */
  readonly result = new Staging();
  /**
   * The buffer {@link putFrom} last copied within, and a view of all of it. It holds that arena
   * until a copy within another one or until the device is dropped — past the memory's release
   * too, after which the device is not used (a per-device let-go registration would grow
   * let-go.ts's list with every device made).
   */
  private wholeBuffer: ArrayBufferLike | undefined;
  private whole: Uint8Array = new Uint8Array(0);

  constructor(
    readonly profile: ArchProfile,
    readonly memory: DeviceMemory,
  ) {}

  read(desc: Descriptor, addr: bigint, into: Uint8Array): Uint8Array {
    try {
      this.memory.readInto(addr, into, "read");
    } catch (e) {
      this.rethrow(desc, e);
    }
    return into;
  }

  write(desc: Descriptor, addr: bigint, data: Uint8Array): void {
    try {
      this.memory.write(addr, data, "write");
    } catch (e) {
      this.rethrow(desc, e);
    }
  }

  writeU32(desc: Descriptor, addr: bigint, value: number): void {
    try {
      this.memory.writeU32(addr, value);
    } catch (e) {
      this.rethrow(desc, e);
    }
  }

  /** The source bytes in place (DeviceMemory.peek), or undefined. */
  peek(s: Segment): Uint8Array | undefined {
    try {
      return this.memory.peek(segmentAddr(s), s.len, "read");
    } catch (e) {
      this.rethrow(s.desc, e);
    }
  }

  /**
   * Point `into` at a segment's bytes in place — a page of device memory and the offset in it,
   * through memory's number fast path (no bigint, no view made), else the view {@link peek}
   * gives; false when memory cannot give them in place (then read them). @throws DescriptorFault.
   */
  inPlace(s: Segment, into: Place): boolean {
    const a = numberAt(s);
    const offset = pageOffset(a);
    const page = this.memory.pageAt(pageNumber(a), offset, s.len);
    if (page !== undefined) {
      into.bytes = page;
      into.offset = offset;
      return true;
    }
    const view = this.peek(s);
    if (view === undefined) return false;
    into.bytes = view;
    into.offset = 0;
    return true;
  }

  /** Write `data` across the segments in order. */
  scatter(rx: readonly Segment[], data: Uint8Array): void {
    // One segment the data's length (most packets): no view made.
    if (rx.length === 1 && (rx[0] as Segment).len === data.length) {
      this.put(rx[0] as Segment, data);
      return;
    }
    let off = 0;
    for (const s of rx) {
      this.put(s, data.subarray(off, off + s.len));
      off += s.len;
    }
  }

  /**
   * Write `data`, a segment's length, over a checked segment: straight into the page when it lies
   * in an allocated page of plain memory (no bigint, no region search: a staged result comes here),
   * else as {@link write} ({@link putFrom} of all of `data`).
   */
  put(d: Segment, data: Uint8Array): void {
    this.putFrom(d, data, 0, data.length);
  }

  /**
   * Every segment must be writable (preflight.ts): a fault before the first byte is written. With
   * `pages`, the page memory's fast path found for segment i is put in `pages[i]` (undefined: one
   * checked the slow way), so the write that follows does not look it up again: a page stays the
   * page while the packet runs (DeviceMemory.pageToOverwrite).
   */
  checkWrites(segs: readonly Segment[], pages?: (Uint8Array | undefined)[]): void {
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i] as Segment;
      // An allocated page of plain memory (memory's number fast path) takes any write.
      // A test only: what is stale there stays so until the write (pageToOverwrite).
      const a = numberAt(s);
      const page = this.memory.pageToOverwrite(pageNumber(a), pageOffset(a), s.len);
      if (pages !== undefined) pages[i] = page;
      if (page !== undefined) continue;
      try {
        checkWritable(this.memory, segmentAddr(s), s.len);
      } catch (e) {
        this.rethrow(s.desc, e);
      }
    }
  }

  /**
   * Point `into` at the destination in place when it is one writable span of plain memory (already
   * checked; a page never written is allocated now); false otherwise. What is stale in the span is
   * not set first: the result is written over every byte of it after every source is read (each
   * source read sets its own span, so one that overlaps the destination reads right), and the
   * caller then reports it {@link DeviceMemory.overwritten}; a fault before that (every
   * destination is checked first, a source read) leaves it untouched and still stale. `checked`:
   * the page {@link checkWrites} found for `rx[0]` (undefined: none, and none is allocated since).
   */
  destination(
    rx: readonly Segment[],
    outBytes: number,
    into: Place,
    checked: Uint8Array | undefined,
  ): boolean {
    const only = rx.length === 1 ? (rx[0] as Segment) : undefined;
    if (!only || only.len !== outBytes) return false;
    if (checked !== undefined) {
      into.bytes = checked;
      into.offset = pageOffset(numberAt(only));
      return true;
    }
    try {
      const view = this.memory.poke(segmentAddr(only), only.len, "write", true);
      if (view === undefined) return false;
      into.bytes = view;
      into.offset = 0;
      return true;
    } catch (e) {
      this.rethrow(only.desc, e);
    }
  }

  /**
   * A copy of one TX segment to one RX segment of as many bytes: the source in place, when it lies
   * in an allocated page of plain memory (so reading it cannot fault), into `into`; else false. One RX
   * segment only: its one write copies as if through a buffer when the spans overlap (TypedArray
   * set), where a chain's first write could change what a later one reads.
   */
  directCopy(tx: readonly Segment[], rx: readonly Segment[], into: Place): boolean {
    if (tx.length !== 1 || rx.length !== 1) return false;
    const s = tx[0] as Segment;
    if ((rx[0] as Segment).len !== s.len) return false;
    const a = numberAt(s);
    const offset = pageOffset(a);
    const page = this.memory.pageAt(pageNumber(a), offset, s.len);
    if (page === undefined) return false;
    into.bytes = page;
    into.offset = offset;
    return true;
  }

  /**
   * Whether a copy of one TX segment to one RX segment of as many bytes can go page piece to page
   * piece ({@link copyPages}): both spans apart, every page they touch an allocated page of plain
   * memory (so reading cannot fault). What {@link directCopy} leaves: a span across a page
   * boundary, which would otherwise be read into staging and written out again.
   */
  pagesCopyable(tx: readonly Segment[], rx: readonly Segment[]): boolean {
    if (tx.length !== 1 || rx.length !== 1) return false;
    const s = tx[0] as Segment;
    const d = rx[0] as Segment;
    if (d.len !== s.len) return false;
    const a = numberAt(s);
    const b = numberAt(d);
    if (a < b + s.len && b < a + s.len) return false;
    return this.eachPiece(a, s.len, allocated) && this.eachPiece(b, s.len, allocated);
  }

  /** The copy {@link pagesCopyable} allowed (the destination checked): source pieces set, destination pieces overwritten. */
  copyPages(s: Segment, d: Segment): void {
    const a = numberAt(s);
    const b = numberAt(d);
    for (let done = 0; done < s.len; ) {
      const from = pageOffset(a + done);
      const to = pageOffset(b + done);
      const n = Math.min(PAGE_BYTES - from, PAGE_BYTES - to, s.len - done);
      const src = this.memory.pageAt(pageNumber(a + done), from, n) as Uint8Array;
      const toPage = pageNumber(b + done);
      (this.memory.pageToOverwrite(toPage, to, n) as Uint8Array).set(src.subarray(from, from + n), to);
      this.memory.overwritten(toPage, to, n);
      done += n;
    }
  }

  /** `test(memory, at, n)` for each piece of [a, a + len) inside one page; false at the first false. */
  private eachPiece(
    a: number,
    len: number,
    test: (m: DeviceMemory, at: number, n: number) => boolean,
  ): boolean {
    for (let done = 0; done < len; ) {
      const n = Math.min(PAGE_BYTES - pageOffset(a + done), len - done);
      if (!test(this.memory, a + done, n)) return false;
      done += n;
    }
    return true;
  }

  /**
   * {@link put} of the `len` bytes of `from` at byte `at`, with no view of them made where both lie
   * in one buffer (a result and its replica in one arena, a copy's source and destination): a
   * copyWithin over that buffer, which moves the bytes as `set` would (as if through a buffer when
   * the spans overlap). A KangaRing packet's replica and a copy made a view each, ≈ 50 000 a run.
   * `checked`: the page {@link checkWrites} found for `d`, when it found one.
   */
  putFrom(d: Segment, from: Uint8Array, at: number, len: number, checked?: Uint8Array): void {
    const b = numberAt(d);
    const pageNo = pageNumber(b);
    const offset = pageOffset(b);
    const page = d.len === len ? (checked ?? this.memory.pageToOverwrite(pageNo, offset, len)) : undefined;
    if (page === undefined) {
      this.write(d.desc, segmentAddr(d), from.subarray(at, at + len));
      return;
    }
    // Through numerics' memo of arena views: a typed array's .buffer / .byteOffset is a call.
    const buffer = ARENA_VIEWS.bufferOf(page);
    if (buffer === ARENA_VIEWS.bufferOf(from)) {
      const src = ARENA_VIEWS.byteOffsetOf(from) + at;
      this.wholeOf(buffer).copyWithin(ARENA_VIEWS.byteOffsetOf(page) + offset, src, src + len);
    } else page.set(from.subarray(at, at + len), offset);
    this.memory.overwritten(pageNo, offset, len);
  }

  /** A view of all of `buffer`, kept for the next call (an arena's: the device's pages live in a few). */
  private wholeOf(buffer: ArrayBufferLike): Uint8Array {
    if (buffer !== this.wholeBuffer) {
      this.wholeBuffer = buffer;
      this.whole = new Uint8Array(buffer);
    }
    return this.whole;
  }

  /** Turn a memory fault into a fault naming the descriptor, the address and what is there. */
  rethrow(desc: Descriptor, e: unknown): never {
    if (e instanceof MemoryFault)
      throw new DescriptorFault(desc.ref, e.reason, e.addr, describeAddress(this.profile, e.addr));
    throw e;
  }
}
