/**
 * Simulated device memory: named regions at exact 64-bit addresses, backed lazily by 1 MiB pages so
 * a Trn2 device does not cost its 96 GiB of HBM in host memory (a page filled whole with one byte
 * takes memory only once written). An access outside every region, or
 * one that runs past the end of its region, is a {@link DeviceFault} naming the address and the
 * reason — never a silent drop or a wrap. Pages live in WebAssembly arenas (page-arenas.ts) so the
 * numerics kernels read and write them in place.
 */
import {
  addrArg,
  boolArg,
  bytesArg,
  intArg,
  MAX_ADDRESS,
  MAX_U32,
  stringArg,
  uintArg,
} from "../../bits/arg-check.js";
import { DeviceFault, FieldError, UsageError } from "../../bits/errors.js";
import { checkOptions } from "../../bits/option-check.js";
import { HOST_IS_LITTLE_ENDIAN } from "../../numerics/byte-views.js";
import { letGoOfArenas } from "../../numerics/let-go.js";
import { isSharedBuffer } from "../../numerics/wasm/shared-memory.js";
import { fillBytes } from "./fill-bytes.js";
import { LazyClear } from "./lazy-clear.js";
import { adoptArenas, PageArenas, SHARED_SCRATCH_SLOTS } from "./page-arenas.js";

/**
 * A memory access that cannot be done: names the address, the access length and the reason, so the
 * engine can add which descriptor made it.
 */
export class MemoryFault extends DeviceFault {
  constructor(
    readonly addr: bigint,
    readonly len: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * A page this memory would allocate past its budget ({@link DeviceMemoryOptions.budgetBytes}):
 * refused before the page is allocated. Not a device fault — the host running the model has no room —
 * so the engine does not turn it into a queue's fault: it ends the step or run it happens in.
 */
export class MemoryBudgetError extends UsageError {
  override name = "MemoryBudgetError";
  constructor(
    /** The write or fill's address that needed a new page. */
    readonly addr: bigint,
    readonly budgetBytes: number,
    /** Page bytes allocated when it was refused (the new page would add {@link PAGE_BYTES}). */
    readonly allocatedBytes: number,
  ) {
    super(
      `device memory at ${hexAddr(addr)} needs a new ${PAGE_BYTES}-byte page past the memory budget: ` +
        `${allocatedBytes} bytes allocated, ${budgetBytes} allowed (Device memoryBudget); ` +
        "give a larger budget or a smaller run",
    );
  }
}

export interface DeviceMemoryOptions {
  /**
   * The most bytes of pages this memory may allocate in host memory (default Infinity): a write
   * that needs a page past it throws a {@link MemoryBudgetError} before allocating. A whole page
   * only filled takes none; the arenas' kernel scratch is not counted.
   */
  readonly budgetBytes?: number;
  /**
   * Back the pages with shared memory (SharedArrayBuffers), so worker threads can read and write
   * them in place through {@link spansOf} (default false: plain wasm memories).
   */
  readonly shared?: boolean;
}

/**
 * A piece of a span of device memory for another thread ({@link DeviceMemory.spansOf}): the bytes
 * in place, or a byte every byte of an unallocated (never written, or only filled) page reads as.
 */
export type MemorySpan = Uint8Array | { readonly byte: number; readonly length: number };

/**
 * A shared memory's pages as other threads take them over ({@link DeviceMemory.sharePages},
 * {@link DeviceMemory.adoptPages}): the arenas' handles (page-arenas.ts); per page three numbers —
 * its page number, its arena's index and its byte offset there; the pages new to the run that do
 * not read as their byte yet, each with the byte it must be set to before use
 * ({@link DeviceMemory.setPages}); and the pages only filled, with their byte.
 */
export interface SharedPages {
  readonly handles: readonly object[];
  readonly pages: readonly number[];
  readonly owed: readonly (readonly [number, number])[];
  readonly filled: readonly (readonly [number, number])[];
}

/** A page budget is a non-negative safe integer of bytes, or Infinity (an option-check.ts rule). */
export const MEMORY_BUDGET_RULE = {
  check: (bytes: unknown) =>
    bytes === Number.POSITIVE_INFINITY || (Number.isSafeInteger(bytes) && (bytes as number) >= 0),
  allowed: `0..${Number.MAX_SAFE_INTEGER} bytes or Infinity`,
};

export type RegionKind = "hbm" | "sbuf" | "psum" | "mmio" | "host";

export interface RegionSpec {
  readonly name: string;
  readonly base: bigint;
  readonly bytes: bigint;
  readonly kind: RegionKind;
  /** MMIO: called instead of storing, for each 32-bit word written (address aligned to 4). */
  readonly onWrite32?: (addr: bigint, value: number) => void;
  /** MMIO: called for each 32-bit word read. */
  readonly onRead32?: (addr: bigint) => number;
  /**
   * MMIO: why `onWrite32` would refuse a word at `addr` (undefined: it takes it). Asked before a
   * packet's first write (engine/memory/preflight.ts), so a refused word faults the packet with nothing
   * written; `onWrite32` must refuse exactly these.
   */
  readonly refuseWrite32?: (addr: bigint) => string | undefined;
}

export interface Region extends RegionSpec {
  readonly end: bigint;
}

const PAGE_SHIFT = 20n;
/** Device memory is backed in pages of this many bytes, each allocated on its first write. */
export const PAGE_BYTES = 1 << 20;
const PAGE_MASK = (1n << PAGE_SHIFT) - 1n;
/** The last page number of the 64-bit address space. */
const MAX_PAGE_NO = 2 ** (64 - Number(PAGE_SHIFT)) - 1;
/** Addresses up to here are exact as Numbers (2^53). */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** The longest access a call may ask for: the longest typed array a JS engine makes (V8: 2^32 bytes). */
export const MAX_ACCESS_BYTES = 2 ** 32;
const REGION_KINDS: readonly RegionKind[] = ["hbm", "sbuf", "psum", "mmio", "host"];

/** An access's length: an integer 0..MAX_ACCESS_BYTES. @throws FieldError otherwise. */
const lenArg = (context: string, len: unknown): number => uintArg(context, "len", len, MAX_ACCESS_BYTES);

/**
 * A Number address (the fast paths): an integer 0..2^64 — exact below 2^53; one above is never in
 * the fast path's region (the caller then takes the bigint path). @throws FieldError otherwise.
 */
const numberAddrArg = (context: string, a: unknown): number => uintArg(context, "a", a, 2 ** 64);

/**
 * The page and offset of a Number address (the fast paths take them: {@link pageNumber},
 * {@link pageOffset}) — a page number 0..2^44, the page of the Number addresses 0..2^64, and a byte
 * of its page. @throws FieldError otherwise.
 */
function pageArgs(context: string, pageNo: unknown, offset: unknown): void {
  uintArg(context, "pageNo", pageNo, 2 ** 44);
  uintArg(context, "offset", offset, PAGE_BYTES - 1);
}

/**
 * A region to map: a name, a bigint base and positive size ending by 2^64, a kind, handlers as
 * functions. @throws FieldError otherwise.
 */
function checkRegionSpec(context: string, spec: RegionSpec): void {
  if (typeof spec !== "object" || spec === null) throw new FieldError(context, "spec", spec, "a RegionSpec");
  stringArg(context, "name", spec.name);
  addrArg(context, "base", spec.base);
  const room = MAX_ADDRESS + 1n - spec.base;
  if (typeof spec.bytes !== "bigint" || spec.bytes <= 0n || spec.bytes > room)
    throw new FieldError(context, `${spec.name}.bytes`, spec.bytes, `a bigint 1..${room} (to end by 2^64)`);
  if (!REGION_KINDS.includes(spec.kind))
    throw new FieldError(context, `${spec.name}.kind`, spec.kind, REGION_KINDS.join(" | "));
  for (const h of ["onWrite32", "onRead32", "refuseWrite32"] as const) {
    if (spec[h] !== undefined && typeof spec[h] !== "function")
      throw new FieldError(context, `${spec.name}.${h}`, typeof spec[h], "a function");
  }
}

/**
 * A spec as a mapped region, its `end` computed (over any the spec carries). Object.assign, not
 * `{ ...spec, end }`: V8 takes a slow path for a spread with a field added (≈ 2 µs a region, ≈ 2 ms
 * of a Trn2 device's 1048; this way ≈ 0.2 µs).
 */
function regionOfSpec(spec: RegionSpec): Region {
  const region: { -readonly [K in keyof Region]: Region[K] } = Object.assign({ end: 0n }, spec);
  region.end = spec.base + spec.bytes;
  return region;
}

/** The page a Number address falls in (what {@link DeviceMemory.pageAt} takes with {@link pageOffset}). */
export function pageNumber(a: number): number {
  return Math.floor(a / PAGE_BYTES);
}

/** The byte a Number address falls on in its page ({@link DeviceMemory.pageAt}; no `%` of a double). */
export function pageOffset(a: number): number {
  return a - pageNumber(a) * PAGE_BYTES;
}

/**
 * A page's bytes as little-endian words, to read or write a descriptor's four words at once, when
 * the host and alignment allow; undefined otherwise (then byte by byte).
 */
export function pageWords(page: Uint8Array): Uint32Array | undefined {
  if (!HOST_IS_LITTLE_ENDIAN || page.byteOffset % 4 !== 0) return undefined;
  return new Uint32Array(page.buffer, page.byteOffset, page.length >> 2);
}

/** Format an address the way faults and logs print it. */
export function hexAddr(addr: bigint): string {
  return `0x${addr.toString(16)}`;
}

/** Regions a memory keeps besides the last one hit, for the look-up by number (DeviceMemory.recent). */
const RECENT_REGIONS = 7;
/** Slots of a memory's cache of pages by number (DeviceMemory.pageOf): 2^PAGE_CACHE_BITS. */
const PAGE_CACHE_BITS = 6;
const PAGE_CACHE_SLOTS = 1 << PAGE_CACHE_BITS;

/**
 * The cache slot of page `pageNo`: the top bits of its low word times 2^32 / φ (Fibonacci hashing).
 * Not the page number mod the slots: a run's buffers lie a multiple of 64 pages apart (64 MiB
 * each, HBM stacks 2^18 pages apart), so the sources a packet reads in several ranks shared one slot
 * and evicted each other — 4.2 misses a packet (82 %) in the 8-rank 64 MiB bf16 all-reduce with
 * auto, each a map and a lazy-clear look-up.
 */
function cacheSlot(pageNo: number): number {
  return Math.imul(pageNo | 0, 0x9e3779b1) >>> (32 - PAGE_CACHE_BITS);
}

/** The last page generation handed out, over all memories: a generation names one memory's pages. */
let lastGeneration = 0;

/**
 * A page a caller keeps for a span it asks for again and again (a descriptor ring's): the page
 * {@link DeviceMemory.keptPageAt} last gave for the span [a, a + len), in that memory's generation.
 */
export class PageKeep {
  page: Uint8Array | undefined = undefined;
  generation = -1;
  a = -1;
  len = -1;
}

export class DeviceMemory {
  private readonly regions: Region[] = [];
  /** Pages by page number (address >> 20; < 2^44, so a safe integer: number keys hash far faster than bigint). */
  private readonly pages = new Map<number, Uint8Array>();
  /**
   * Pages found in {@link pages} lately, direct-mapped by page number (−1: an empty slot): a packet
   * looks up its ring, source and destination pages a dozen times, and a Map look-up costs several
   * times a typed-array slot's. Pages are only added, or forgotten all at once ({@link release}) or
   * replaced ({@link adoptPages}), which empty it: a page held here is the page.
   */
  private readonly cachedNos = new Float64Array(PAGE_CACHE_SLOTS).fill(-1);
  private readonly cachedPages: (Uint8Array | undefined)[] = new Array(PAGE_CACHE_SLOTS).fill(undefined);
  /**
   * 1 where the cached page has no stale bytes (lazy-clear.ts tracks it no more): an access then
   * skips the tracker. A page is tracked only from its allocation, before it can be cached, and
   * leaves the tracker for good ({@link pageSet}): a 1 here stays true.
   */
  private readonly cachedSet = new Uint8Array(PAGE_CACHE_SLOTS);
  /** Whether the page {@link pageOf} last gave is one of those. */
  private lastPageSet = false;
  /**
   * Changed whenever a page found before may no longer be the page ({@link release},
   * {@link adoptPages}); nothing else takes a page away ({@link keptPageAt}).
   */
  private generation = ++lastGeneration;
  /** The region the last access hit: most accesses hit the region before them (HBM, one partition). */
  private lastRegion: Region | undefined;
  /** lastRegion's [base, end) as numbers (empty until the first hit). */
  private lastLo = 1;
  private lastHi = 0;
  /**
   * Regions hit before lastRegion, and their bounds (empty slots never match): a packet's accesses
   * move among its queue's descriptor rings and the regions of its sources and destination — a
   * KangaRing packet reads four ranks, in four HBM stacks — and each move outside these is a search
   * (with two kept, that search and the slow path it sends peek to took a tenth of such a run).
   */
  private readonly recent: (Region | undefined)[] = new Array(RECENT_REGIONS).fill(undefined);
  private readonly recentLo = new Float64Array(RECENT_REGIONS).fill(1);
  private readonly recentHi = new Float64Array(RECENT_REGIONS);
  /** The slot the next region to leave lastRegion goes to (round robin). */
  private nextRecent = 0;
  /** Pages are allocated in WebAssembly arenas, so the numerics kernels work on them in place. */
  private readonly arenas: PageArenas;
  /**
   * Pages never allocated that a {@link fill} set whole: they read as the byte, holding no host
   * memory until first written. A pre-fill the run never touches (the scratch of a plan that uses
   * none) then costs nothing, and a pre-filled page is touched once, when it is written.
   */
  private readonly filled = new Map<number, number>();
  /** Allocated pages whose stale bytes are set only when an access reaches them (lazy-clear.ts). */
  private readonly lazy = new LazyClear((pageNo) => this.pageSet(pageNo));
  /** The most page bytes this memory may allocate (DeviceMemoryOptions.budgetBytes). */
  readonly budgetBytes: number;
  /**
   * Why this memory may not allocate a page now (its pages are shared with other threads, which
   * would never see a new one); undefined: it may.
   */
  private sealed: string | undefined;

  /**
   * @throws FieldError for a budget that is not a non-negative safe integer or Infinity.
   * @example new DeviceMemory({ budgetBytes: 64 * PAGE_BYTES });
   */
  constructor(options: DeviceMemoryOptions = {}) {
    checkOptions("DeviceMemory", options, { budgetBytes: MEMORY_BUDGET_RULE, shared: { boolean: true } });
    this.budgetBytes = options.budgetBytes ?? Infinity;
    this.arenas = new PageArenas(options.shared === true);
  }

  /**
   * Map a region. @throws DeviceFault when it overlaps a region already mapped; FieldError for a
   * spec that is not one (an empty region, a base that is not a bigint, ...).
   */
  map(spec: RegionSpec): Region {
    checkRegionSpec("DeviceMemory.map", spec);
    const region = regionOfSpec(spec);
    for (const r of this.regions) {
      if (region.base < r.end && r.base < region.end) {
        throw new DeviceFault(
          `region ${spec.name} [${hexAddr(region.base)}, ${hexAddr(region.end)}) overlaps ${r.name}`,
        );
      }
    }
    this.regions.push(region);
    this.regions.sort((a, b) => (a.base < b.base ? -1 : 1));
    return region;
  }

  /**
   * Map many regions at once: one sort and one overlap pass instead of one per region (a Trn2
   * device maps over a thousand SBUF partitions). @throws DeviceFault, FieldError as {@link map}.
   */
  mapAll(specs: readonly RegionSpec[]): void {
    if (!Array.isArray(specs)) throw new FieldError("DeviceMemory.mapAll", "specs", specs, "an array");
    for (const spec of specs) {
      checkRegionSpec("DeviceMemory.mapAll", spec);
      this.regions.push(regionOfSpec(spec));
    }
    this.regions.sort((a, b) => (a.base < b.base ? -1 : a.base > b.base ? 1 : 0));
    for (let i = 1; i < this.regions.length; i++) {
      const prev = this.regions[i - 1] as Region;
      const r = this.regions[i] as Region;
      if (r.base < prev.end) {
        throw new DeviceFault(
          `region ${r.name} [${hexAddr(r.base)}, ${hexAddr(r.end)}) overlaps ${prev.name}`,
        );
      }
    }
  }

  /** All mapped regions, by address. */
  get mapped(): readonly Region[] {
    return this.regions;
  }

  /**
   * The region holding [addr, addr + len). @throws DeviceFault when there is none; FieldError for
   * an address that is not a bigint 0..2^64 − 1 or a length that is not an integer 0..2^32.
   */
  regionOf(addr: bigint, len: number, what = "access"): Region {
    return this.checkedRegion("DeviceMemory.regionOf", addr, len, what);
  }

  /**
   * The recent region holding `len` bytes from byte `offset` of page `pageNo` becomes the last one,
   * and the last one takes its slot; false when none holds it. (Page and offset, not the address:
   * small integers, where a Number address above 2^31 passed to a call not inlined is a heap number.)
   */
  private hitRecent(pageNo: number, offset: number, len: number): boolean {
    const a = pageNo * PAGE_BYTES + offset;
    for (let i = 0; i < RECENT_REGIONS; i++) {
      const lo = this.recentLo[i] as number;
      const hi = this.recentHi[i] as number;
      if (!(a >= lo && a + len <= hi)) continue;
      const r = this.recent[i];
      this.recent[i] = this.lastRegion;
      this.recentLo[i] = this.lastLo;
      this.recentHi[i] = this.lastHi;
      this.lastRegion = r;
      this.lastLo = lo;
      this.lastHi = hi;
      return true;
    }
    return false;
  }

  /** `r`, found by a search, becomes the last region; the last one takes the next recent slot. */
  private makeLast(r: Region): void {
    const k = this.nextRecent;
    this.recent[k] = this.lastRegion;
    this.recentLo[k] = this.lastLo;
    this.recentHi[k] = this.lastHi;
    this.nextRecent = (k + 1) % RECENT_REGIONS;
    this.lastRegion = r;
    // Only a region below 2^53 is kept as numbers (an empty span otherwise: it never matches).
    const safe = r.end <= MAX_SAFE;
    this.lastLo = safe ? Number(r.base) : 1;
    this.lastHi = safe ? Number(r.end) : 0;
  }

  /** {@link regionOf} for the public call `context`, which the refusal names. */
  private checkedRegion(context: string, addr: bigint, len: number, what: string): Region {
    addrArg(context, "addr", addr);
    lenArg(context, len);
    return this.region(addr, len, stringArg(context, "what", what));
  }

  /** {@link regionOf} for arguments checked already (the public calls' own look-up). */
  private region(addr: bigint, len: number, what: string): Region {
    // The cache test in numbers, no bigint arithmetic. Only a region below 2^53 is cached this way,
    // so an address a Number cannot hold exactly misses here and takes the exact search below.
    const a = Number(addr);
    if (a >= this.lastLo && a + len <= this.lastHi) return this.lastRegion as Region;
    if (this.hitRecent(pageNumber(a), pageOffset(a), len)) return this.lastRegion as Region;
    let lo = 0;
    let hi = this.regions.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.regions[mid] as Region;
      if (addr < r.base) hi = mid - 1;
      else if (addr >= r.end) lo = mid + 1;
      else {
        if (addr + BigInt(len) > r.end) {
          throw new MemoryFault(
            addr,
            len,
            `${what} of ${len} bytes at ${hexAddr(addr)} runs past the end of ${r.name} (ends ${hexAddr(r.end)})`,
          );
        }
        this.makeLast(r);
        return r;
      }
    }
    throw new MemoryFault(addr, len, `${what} of ${len} bytes at ${hexAddr(addr)}: address is not mapped`);
  }

  /** Copy `len` bytes out of device memory. @throws MemoryFault as {@link regionOf}; FieldError. */
  read(addr: bigint, len: number, what = "read"): Uint8Array {
    addrArg("DeviceMemory.read", "addr", addr);
    lenArg("DeviceMemory.read", len);
    const out = new Uint8Array(len);
    this.readInto(addr, out, what);
    return out;
  }

  /** Fill `out` from device memory at `addr`. @throws MemoryFault as {@link regionOf}; FieldError. */
  readInto(addr: bigint, out: Uint8Array, what = "read"): void {
    const c = "DeviceMemory.readInto";
    const region = this.checkedRegion(c, addr, bytesArg(c, "out", out).length, what);
    if (region.onRead32) {
      this.mmioRead(region, addr, out);
      return;
    }
    let done = 0;
    let pageNo = Number(addr >> PAGE_SHIFT);
    let off = Number(addr & PAGE_MASK);
    while (done < out.length) {
      const n = Math.min(PAGE_BYTES - off, out.length - done);
      const page = this.pages.get(pageNo);
      if (page) {
        this.lazy.settle(pageNo, page, off, off + n);
        out.set(n === PAGE_BYTES ? page : page.subarray(off, off + n), done);
      } else out.fill(this.filled.size > 0 ? (this.filled.get(pageNo) ?? 0) : 0, done, done + n);
      done += n;
      pageNo += 1;
      off = 0;
    }
  }

  /**
   * The bytes [addr, addr + len) in place, without a copy, when they are plain memory inside one
   * allocated page; undefined otherwise (MMIO, a page boundary, a never-written page, a page only
   * filled) — then use
   * {@link readInto}. The view is only valid until the next write to those bytes.
   * @throws MemoryFault as {@link readInto}.
   */
  peek(addr: bigint, len: number, what = "read"): Uint8Array | undefined {
    const region = this.checkedRegion("DeviceMemory.peek", addr, len, what);
    if (region.onRead32) return undefined;
    const a = Number(addr);
    if (!Number.isSafeInteger(a)) return undefined;
    const off = a % PAGE_BYTES;
    if (off + len > PAGE_BYTES) return undefined;
    const pageNo = (a - off) / PAGE_BYTES;
    const page = this.pages.get(pageNo);
    if (page === undefined) return undefined;
    this.lazy.settle(pageNo, page, off, off + len);
    return page.subarray(off, off + len);
  }

  /**
   * The number-address fast path of {@link peek} / {@link poke} for the engine's per-packet work (no
   * bigint, no view made): the allocated page holding the `len` bytes from byte `offset` of page
   * `pageNo` ({@link pageNumber} and {@link pageOffset} of a Number address), when the span lies in
   * that page, in the region the last access hit (or a recent one), and that region is plain
   * memory; undefined otherwise (then peek / poke, which also name a fault). A page and an offset,
   * not the address: a Number above 2^31 passed to a call that is not inlined is a heap number
   * made, and the engine asks for several pages a packet (its addresses are above 2^32 in HBM).
   */
  pageAt(pageNo: number, offset: number, len: number): Uint8Array | undefined {
    pageArgs("DeviceMemory.pageAt", pageNo, offset);
    return this.settledPage(pageNo, offset, lenArg("DeviceMemory.pageAt", len));
  }

  /** {@link pageAt} of a checked span. */
  private settledPage(pageNo: number, offset: number, len: number): Uint8Array | undefined {
    const page = this.pageSpan(pageNo, offset, len);
    // As peek / poke: the span is handed out, so what is still stale in it is set first.
    if (page !== undefined && !this.lastPageSet) this.lazy.settle(pageNo, page, offset, offset + len);
    return page;
  }

  /**
   * {@link pageAt} for a span the caller only tests for (is it an allocated page of plain memory?)
   * or overwrites whole, and then reports with {@link overwritten}: what is still stale in it is
   * left so (setting it costs as much as the write that covers it). Reading the span through this
   * page before it is overwritten reads stale bytes: read through pageAt / peek, which set them.
   */
  pageToOverwrite(pageNo: number, offset: number, len: number): Uint8Array | undefined {
    pageArgs("DeviceMemory.pageToOverwrite", pageNo, offset);
    return this.pageSpan(pageNo, offset, lenArg("DeviceMemory.pageToOverwrite", len));
  }

  /** The page of {@link pageToOverwrite}, its arguments checked already. */
  private pageSpan(pageNo: number, offset: number, len: number): Uint8Array | undefined {
    // lastLo / lastHi are exact Numbers below 2^53 (regionOf), so `a` is exact when inside them.
    const a = pageNo * PAGE_BYTES + offset;
    if (!(a >= this.lastLo && a + len <= this.lastHi) && !this.hitRecent(pageNo, offset, len))
      return undefined;
    const r = this.lastRegion as Region;
    if (r.onRead32 !== undefined || r.onWrite32 !== undefined) return undefined;
    if (offset + len > PAGE_BYTES) return undefined;
    return this.pageOf(pageNo);
  }

  /** The allocated page `pageNo` (through {@link cachedPages}), or undefined. */
  private pageOf(pageNo: number): Uint8Array | undefined {
    const slot = cacheSlot(pageNo);
    if (this.cachedNos[slot] === pageNo) {
      this.lastPageSet = this.cachedSet[slot] === 1;
      return this.cachedPages[slot];
    }
    const page = this.pages.get(pageNo);
    this.lastPageSet = false;
    if (page !== undefined) {
      this.cachedNos[slot] = pageNo;
      this.cachedPages[slot] = page;
      this.cachedSet[slot] = this.lazy.tracks(pageNo) ? 0 : 1;
    }
    return page;
  }

  /** The tracker has set every stale byte of page `pageNo`: so its cache slot says, if it holds it. */
  private pageSet(pageNo: number): void {
    const slot = cacheSlot(pageNo);
    if (this.cachedNos[slot] === pageNo) this.cachedSet[slot] = 1;
  }

  /** Empty {@link cachedPages}: a page of {@link pages} is forgotten or replaced. */
  private forgetCachedPages(): void {
    this.cachedNos.fill(-1);
    this.cachedPages.fill(undefined);
    this.cachedSet.fill(0);
    this.generation = ++lastGeneration;
  }

  /**
   * {@link pageAt}(a, len), kept in `keep` for the next call for the same span: while this memory's
   * generation holds, the page is the page and what was stale in the span stays set, so it is
   * handed back with no look-up (a descriptor ring's page, asked for twice a packet). The hit is
   * all this method does, small enough to be inlined where it is called: a Number address above
   * 2^31 passed to a call that is not inlined is a heap number made (the rings lie above 2^32).
   * @throws FieldError when `keep` is not a PageKeep, or as {@link pageAt}.
   */
  keptPageAt(keep: PageKeep, a: number, len: number): Uint8Array | undefined {
    // A hit is a span checked when it was kept.
    if (keep instanceof PageKeep && keep.generation === this.generation && keep.a === a && keep.len === len)
      return keep.page;
    return this.keepPage(keep, a, len);
  }

  /** {@link keptPageAt}'s miss: the span checked, looked up and, when it is a page, kept. */
  private keepPage(keep: PageKeep, a: number, len: number): Uint8Array | undefined {
    const c = "DeviceMemory.keptPageAt";
    if (!(keep instanceof PageKeep)) throw new FieldError(c, "keep", String(keep), "a PageKeep");
    numberAddrArg(c, a);
    const page = this.settledPage(pageNumber(a), pageOffset(a), lenArg(c, len));
    if (page !== undefined) {
      keep.page = page;
      keep.generation = this.generation;
      keep.a = a;
      keep.len = len;
    }
    return page;
  }

  /**
   * The `len` bytes from byte `offset` of page `pageNo` (as {@link pageAt}), one allocated page's
   * (from {@link pageToOverwrite} or an overwriting {@link poke}), have just been written whole
   * through a view: nothing there is stale any more.
   */
  overwritten(pageNo: number, offset: number, len: number): void {
    pageArgs("DeviceMemory.overwritten", pageNo, offset);
    lenArg("DeviceMemory.overwritten", len);
    const page = this.pageOf(pageNo);
    if (page !== undefined && !this.lastPageSet) this.lazy.written(pageNo, page, offset, offset + len);
  }

  /** Copy `data` into device memory at `addr`. @throws MemoryFault as {@link regionOf}; FieldError. */
  write(addr: bigint, data: Uint8Array, what = "write"): void {
    const c = "DeviceMemory.write";
    const region = this.checkedRegion(c, addr, bytesArg(c, "data", data).length, what);
    if (region.onWrite32) {
      this.mmioWrite(region, addr, data);
      return;
    }
    let done = 0;
    let pageNo = Number(addr >> PAGE_SHIFT);
    let off = Number(addr & PAGE_MASK);
    while (done < data.length) {
      const n = Math.min(PAGE_BYTES - off, data.length - done);
      const page = this.pages.get(pageNo) ?? this.allocate(pageNo, n === PAGE_BYTES);
      this.lazy.written(pageNo, page, off, off + n);
      page.set(n === data.length ? data : data.subarray(done, done + n), off);
      done += n;
      pageNo += 1;
      off = 0;
    }
  }

  /**
   * Set `len` bytes at `addr` to `byte`, in place (no buffer of the span's size is made).
   * @throws MemoryFault as {@link write}; MMIO takes whole words of the byte. FieldError for a byte
   *   outside 0..255 (never wrapped), an address or length as {@link regionOf}.
   */
  fill(addr: bigint, len: number, byte: number, what = "write"): void {
    uintArg("DeviceMemory.fill", "byte", byte, 0xff);
    const region = this.checkedRegion("DeviceMemory.fill", addr, len, what);
    if (region.onWrite32) {
      this.mmioWrite(region, addr, new Uint8Array(len).fill(byte));
      return;
    }
    let done = 0;
    let pageNo = Number(addr >> PAGE_SHIFT);
    let off = Number(addr & PAGE_MASK);
    while (done < len) {
      const n = Math.min(PAGE_BYTES - off, len - done);
      const allocated = this.pages.get(pageNo);
      if (allocated === undefined && n === PAGE_BYTES) this.filled.set(pageNo, byte);
      else {
        const page = allocated ?? this.allocate(pageNo);
        this.lazy.written(pageNo, page, off, off + n);
        fillBytes(page, byte, off, off + n);
      }
      done += n;
      pageNo += 1;
      off = 0;
    }
  }

  /**
   * A writable view of [addr, addr + len) when it is plain memory inside one page (allocated now if
   * it was never written); undefined otherwise (MMIO, a page boundary). Writing through the view is
   * a write to device memory: check the span first (`regionOf` with "write"). With `overwrite`, the
   * caller writes the whole span and then reports it ({@link overwritten}): its stale bytes are not set.
   * @throws MemoryFault as {@link write}.
   */
  poke(addr: bigint, len: number, what = "write", overwrite = false): Uint8Array | undefined {
    boolArg("DeviceMemory.poke", "overwrite", overwrite);
    const region = this.checkedRegion("DeviceMemory.poke", addr, len, what);
    if (region.onWrite32) return undefined;
    const a = Number(addr);
    if (!Number.isSafeInteger(a)) return undefined;
    const off = a % PAGE_BYTES;
    if (off + len > PAGE_BYTES) return undefined;
    const pageNo = (a - off) / PAGE_BYTES;
    const page = this.pages.get(pageNo) ?? this.allocate(pageNo);
    if (!overwrite) this.lazy.settle(pageNo, page, off, off + len);
    return page.subarray(off, off + len);
  }

  /**
   * [addr, addr + len) of plain memory as pieces in address order, each inside one page, for a
   * worker thread to read or write in place (shared memory only): a view of an allocated page, or
   * the byte an unallocated page reads as. `write`: the caller writes every byte of the span before
   * anything reads it — its pages are allocated now (in address order, as {@link write} would) and
   * nothing stale in them is set; else what is stale is set first, so the views read right.
   * @throws MemoryFault as {@link write} / {@link readInto}; FieldError when the memory is not
   *   shared or the span is MMIO or past 2^53.
   */
  spansOf(addr: bigint, len: number, write: boolean): MemorySpan[] {
    boolArg("DeviceMemory.spansOf", "write", write);
    const region = this.checkedRegion("DeviceMemory.spansOf", addr, len, write ? "write" : "read");
    if (!this.arenas.shared || region.onRead32 !== undefined || region.onWrite32 !== undefined)
      throw new FieldError("DeviceMemory.spansOf", "addr", hexAddr(addr), "plain memory of a shared memory");
    const a = Number(addr);
    if (!Number.isSafeInteger(a + len))
      throw new FieldError("DeviceMemory.spansOf", "addr", hexAddr(addr), `below 2^53 − ${len}`);
    const out: MemorySpan[] = [];
    for (let at = a; at < a + len; ) {
      const pageNo = Math.floor(at / PAGE_BYTES);
      const off = at - pageNo * PAGE_BYTES;
      const n = Math.min(PAGE_BYTES - off, a + len - at);
      let page = this.pages.get(pageNo);
      if (write) {
        page ??= this.allocate(pageNo, n === PAGE_BYTES);
        this.lazy.written(pageNo, page, off, off + n);
      } else if (page !== undefined) this.lazy.settle(pageNo, page, off, off + n);
      out.push(
        page === undefined ? { byte: this.filled.get(pageNo) ?? 0, length: n } : page.subarray(off, off + n),
      );
      at += n;
    }
    return out;
  }

  /** @throws MemoryFault as {@link read}; FieldError for an address that is not one. */
  readU32(addr: bigint): number {
    const b = this.read(addrArg("DeviceMemory.readU32", "addr", addr), 4);
    return (
      ((b[0] as number) | ((b[1] as number) << 8) | ((b[2] as number) << 16) | ((b[3] as number) << 24)) >>> 0
    );
  }

  /** @throws FieldError for a value outside 0..2^32 − 1 (never wrapped); MemoryFault as {@link write}. */
  writeU32(addr: bigint, value: number): void {
    addrArg("DeviceMemory.writeU32", "addr", addr);
    uintArg("DeviceMemory.writeU32", "value", value, MAX_U32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, value, true);
    this.write(addr, b);
  }

  /** @throws FieldError naming `caller` when this memory is not shared. */
  private requireShared(caller: string): void {
    if (!this.arenas.shared)
      throw new FieldError(caller, "shared", false, "a shared memory (DeviceMemoryOptions.shared)");
  }

  /**
   * The handles of the arenas this memory's pages lie in (shared memory only), in order: what a
   * worker adopts (page-arenas.ts adoptArenas) to rebuild views {@link spansOf} handed out over
   * its own kernels' buffers ({@link arenaIndexOf}), so those kernels work on them in place. (A view
   * posted as it is arrives with a buffer object of its own, which no kernels there know.)
   * @throws FieldError when the memory is not shared.
   */
  arenaHandles(): readonly object[] {
    this.requireShared("DeviceMemory.arenaHandles");
    return this.arenas.handles;
  }

  /**
   * The index in {@link arenaHandles} of the arena whose buffer is `buffer` (a view's from
   * {@link spansOf}); −1 when it is none of this memory's.
   * @throws FieldError when `buffer` is not an ArrayBuffer or SharedArrayBuffer.
   */
  arenaIndexOf(buffer: ArrayBufferLike): number {
    if (!(buffer instanceof ArrayBuffer) && !isSharedBuffer(buffer))
      throw new FieldError(
        "DeviceMemory.arenaIndexOf",
        "buffer",
        String(buffer),
        "an ArrayBuffer or SharedArrayBuffer",
      );
    return this.arenas.indexOf(buffer);
  }

  /**
   * Share this memory's pages with other threads (shared memory only): allocate now every page of
   * `pageNos` not allocated yet, in the order given, set what is stale in every allocated page, and
   * hand out the table another thread adopts ({@link adoptPages}). The new pages are not set here:
   * each is owed the byte it reads as (its fill byte, else 0) until {@link setPages} sets it — so
   * their first touch can be split over the threads — but for a zero page whose block no memory
   * wrote (it reads as zero: setting it would only touch all of it). Until {@link unseal} this memory allocates no
   * page (a page no other thread knows): a write that needs one throws.
   * @throws FieldError when the memory is not shared; MemoryBudgetError past the budget.
   */
  sharePages(pageNos: Iterable<number>): SharedPages {
    const c = "DeviceMemory.sharePages";
    if (typeof (pageNos as Partial<Iterable<number>> | null)?.[Symbol.iterator] !== "function")
      throw new FieldError(c, "pageNos", pageNos, "an iterable of page numbers");
    const wanted = [...pageNos].map((p) => uintArg(c, "pageNos", p, MAX_PAGE_NO));
    this.requireShared(c);
    const owed: [number, number][] = [];
    for (const pageNo of wanted) {
      if (this.pages.has(pageNo)) continue;
      // A block no memory wrote reads as zero already: setting it would only touch all of it (a
      // queue's rings take 32 KiB of their page).
      const page = this.allocateOwing(pageNo, true);
      if (page.owed > 0) owed.push([pageNo, page.byte]);
    }
    this.lazy.settleAll((pageNo) => this.pages.get(pageNo) as Uint8Array);
    const pages: number[] = [];
    for (const [pageNo, view] of this.pages)
      pages.push(pageNo, this.arenas.indexOf(view.buffer), view.byteOffset);
    this.sealed = "its pages are shared with worker threads";
    return { handles: this.arenas.handles, pages, owed, filled: [...this.filled] };
  }

  /**
   * Take over another thread's shared pages ({@link sharePages}), working on them through this
   * thread's kernels with the reduce scratch of worker `slot` (page-arenas.ts adoptArenas). This
   * memory never allocates a page of its own after: every page a run writes is in the table.
   */
  adoptPages(shared: SharedPages, slot: number): void {
    const c = "DeviceMemory.adoptPages";
    sharedArg(c, shared);
    intArg(c, "slot", slot, { min: 1, max: SHARED_SCRATCH_SLOTS - 1 });
    const buffers = adoptArenas(shared.handles, slot);
    const p = shared.pages;
    for (let i = 0; i < p.length; i += 3)
      this.pages.set(
        p[i] as number,
        new Uint8Array(buffers[p[i + 1] as number] as ArrayBufferLike, p[i + 2], PAGE_BYTES),
      );
    this.forgetCachedPages();
    for (const [pageNo, byte] of shared.filled) this.filled.set(pageNo, byte);
    this.sealed = "it works on another thread's pages";
  }

  /** Set the pages [from, to) of `shared`'s new pages (`owed`) to the byte each is owed. */
  setPages(shared: SharedPages, from: number, to: number): void {
    const c = "DeviceMemory.setPages";
    const owed = sharedArg(c, shared).owed;
    uintArg(c, "to", to, owed.length);
    uintArg(c, "from", from, to);
    for (const [pageNo, byte] of owed.slice(from, to))
      fillBytes(this.pages.get(pageNo) as Uint8Array, byte, 0, PAGE_BYTES);
  }

  /** This memory may allocate pages again (its pages are no longer worked on by other threads). */
  unseal(): void {
    this.sealed = undefined;
  }

  /** Bytes of host memory actually allocated for pages (for tests of lazy allocation; filled pages hold none). */
  get allocatedBytes(): number {
    return this.pages.size * PAGE_BYTES;
  }

  /**
   * Forget every page and give the arenas back for the next memory to reuse (already touched, so
   * cheap): the memory reads as zero again. Views from {@link peek} / {@link poke} are then invalid.
   * Numerics lets go of them too (its look-ups' last arena), so arenas dropped are freed.
   */
  release(): void {
    this.sealed = undefined;
    this.pages.clear();
    this.forgetCachedPages();
    this.filled.clear();
    this.lazy.clear();
    this.arenas.release();
    letGoOfArenas();
  }

  /**
   * A page for `pageNo`, reading as what it read as (zero, or the byte a fill set it to) — set
   * lazily (lazy-clear.ts), so every access to an allocated page goes through `lazy`;
   * `overwritten`: the caller writes all of it at once (nothing to set).
   */
  private allocate(pageNo: number, overwritten = false): Uint8Array {
    return this.allocateOwing(pageNo, overwritten).view;
  }

  /**
   * {@link allocate}, and what of the page does not read as its `byte` yet: its first `owed` bytes
   * (a fill byte other than zero: all of it; zero: what a released memory wrote there; 0: none).
   */
  private allocateOwing(
    pageNo: number,
    overwritten: boolean,
  ): { readonly view: Uint8Array; readonly byte: number; readonly owed: number } {
    if (this.sealed !== undefined)
      throw new Error(`device page ${pageNo} was not shared before the run, and ${this.sealed}`);
    if (this.allocatedBytes + PAGE_BYTES > this.budgetBytes)
      throw new MemoryBudgetError(BigInt(pageNo) << PAGE_SHIFT, this.budgetBytes, this.allocatedBytes);
    const filled = this.filled.size > 0 ? this.filled.get(pageNo) : undefined;
    if (filled !== undefined) this.filled.delete(pageNo);
    const { view, dirty } = this.arenas.page(PAGE_BYTES);
    const byte = filled ?? 0;
    const owed = byte !== 0 ? PAGE_BYTES : dirty;
    if (!overwritten) this.lazy.track(pageNo, byte, owed);
    this.pages.set(pageNo, view);
    return { view, byte, owed };
  }

  private mmioWrite(region: Region, addr: bigint, data: Uint8Array): void {
    checkWholeWords(region, addr, data.length, "write");
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let i = 0; i < data.length; i += 4) region.onWrite32?.(addr + BigInt(i), view.getUint32(i, true));
  }

  private mmioRead(region: Region, addr: bigint, out: Uint8Array): void {
    checkWholeWords(region, addr, out.length, "read");
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    for (let i = 0; i < out.length; i += 4) view.setUint32(i, region.onRead32?.(addr + BigInt(i)) ?? 0, true);
  }
}

/** A {@link SharedPages} as sharePages gives it. @throws FieldError otherwise. */
function sharedArg(context: string, shared: SharedPages): SharedPages {
  const s = shared as Partial<SharedPages> | null;
  const lists = [s?.handles, s?.pages, s?.owed, s?.filled];
  if (!lists.every((l) => Array.isArray(l)) || (s?.pages?.length ?? 0) % 3 !== 0)
    throw new FieldError(context, "shared", String(shared), "a SharedPages (DeviceMemory.sharePages)");
  return shared;
}

/** MMIO moves whole aligned 32-bit words. @throws MemoryFault otherwise. */
export function checkWholeWords(region: Region, addr: bigint, len: number, what: "read" | "write"): void {
  if ((addr & 3n) !== 0n || len % 4 !== 0) {
    throw new MemoryFault(
      addr,
      len,
      `MMIO ${what} of ${len} bytes at ${hexAddr(addr)} in ${region.name} is not whole aligned words`,
    );
  }
}
