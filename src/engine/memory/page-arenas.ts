/**
 * Where device-memory pages live: in WebAssembly arenas (numerics `WasmArena`), so the numerics
 * kernels can read a source and write a destination in place, with no copy into a staging buffer.
 * The kernels need the accumulator in the same arena as the bytes. So every arena starts with a
 * reduce scratch block (numerics reserveReduceScratch: accumulator, decode scratch, one source's
 * bytes, output, and where SR keeps a seed's random words), which numerics uses for a reduce whose
 * output (else first source) lives there.
 *
 * Arenas never grow (their views must not detach), so pages fill one arena after another: 16 MiB
 * first, then 1 GiB each. A Device that touches a few pages costs one small arena (≈ 0.8 ms to make
 * here); one that touches more gets a large one at once (≈ 6 ms, address space only until touched),
 * so the buffers of a large run share an arena and reduce in place (growing by doubling spread the
 * sources of a 3 × 64 MiB reduce over four arenas). After the scratch block comes a host block
 * ({@link HOST_BLOCK_BYTES}), each thread's.
 *
 * Arenas are reused: a released memory hands its arenas back to a process-wide free list (at most
 * {@link POOL_MAX_BYTES}; {@link releaseFreeArenas} empties it) and the next device takes them
 * before making new ones. On our VMs the first touch of a 4 KiB page costs
 * ≈ 19 µs (docs/reviews: a cold 512 MiB copy 2.3 s, a warm one 40 ms), so a sweep or a bench that
 * reuses touched memory runs at memory speed, and peak memory is the largest run, not the sum.
 * A page is handed out as it is, with how many of its first bytes a released memory may have
 * written (the rest reads as zero): the caller clears what it reads before writing it
 * (memory.ts, lazy-clear.ts), so a page still reads as zero, as a fresh one, without a clearing
 * pass over bytes about to be overwritten.
 */
import { intArg } from "../../bits/arg-check.js";
import { FieldError } from "../../bits/errors.js";
import { reduceScratchBytes, reserveReduceScratch, WasmArena } from "../../numerics/index.js";
import { keepAtHandUntilLetGo } from "../../numerics/let-go.js";
import { isSharedBuffer } from "../../numerics/wasm/shared-memory.js";

/** The reduce scratch of every arena (numerics reserveReduceScratch): one max-size CCE packet. */
const SCRATCH_ELEMENTS = 1 << 14;
const SCRATCH_IO_BYTES = 1 << 16;
/** Bytes of a thread's reduce scratch in an arena. */
const REDUCE_SCRATCH_BYTES = reduceScratchBytes(SCRATCH_ELEMENTS, SCRATCH_IO_BYTES);
/**
 * Bytes of a thread's host block in an arena, after its reduce scratch: room for a host-side kernel
 * module's working tiles over the arena (the collectives' check module, which then draws inputs
 * straight into device pages and checks outputs where they lie), untouched until one uses it.
 */
export const HOST_BLOCK_BYTES = 1 << 20;
/** Bytes at the start of every arena that a thread keeps: its reduce scratch, then its host block. */
export const ARENA_SCRATCH_BYTES = REDUCE_SCRATCH_BYTES + HOST_BLOCK_BYTES;
/**
 * Scratch blocks a shared arena holds, one a thread working on it (collectives/threads: the
 * calling thread's first, then each worker's at {@link workerScratchAt}): at most this many
 * threads execute packets on one shared memory.
 */
export const SHARED_SCRATCH_SLOTS = 8;
/** Where the pages of an arena start: after its scratch block, or a shared one's blocks. */
const pagesStart = (shared: boolean): number => ARENA_SCRATCH_BYTES * (shared ? SHARED_SCRATCH_SLOTS : 1);
/** The first arena of a memory; later ones are {@link MAX_ARENA_BYTES}. */
export const FIRST_ARENA_BYTES = 16 << 20;
export const MAX_ARENA_BYTES = 1 << 30;

/** An arena and how far it was written before (bytes past that are zero). */
interface ArenaEntry {
  readonly arena: WasmArena;
  dirtyBytes: number;
}

/** Arenas released by memories, for the next ones to take. */
const freeArenas: ArenaEntry[] = [];

/**
 * The most arena bytes the free list keeps (4 GiB: a few of the largest runs a 2-core host takes);
 * beyond it a release drops its smallest arenas to the garbage collector instead.
 */
export const POOL_MAX_BYTES = 4 * 2 ** 30;

/** Bytes of arena the free list holds now. */
export function pooledArenaBytes(): number {
  return freeArenas.reduce((s, e) => s + e.arena.buffer.byteLength, 0);
}

/**
 * Drop the arenas released memories left for reuse, so the garbage collector can return them to
 * the system (a library user done with simulating; the CLI keeps them for the next size).
 * @returns the bytes of arena dropped.
 * @example releaseFreeArenas();
 */
export function releaseFreeArenas(): number {
  let bytes = 0;
  for (const e of freeArenas.splice(0)) bytes += e.arena.buffer.byteLength;
  return bytes;
}

/**
 * A free arena of at least `bytes`, shared or not as asked, the smallest that fits, or a new one
 * of `size`.
 */
function takeArena(bytes: number, size: number, shared: boolean): ArenaEntry {
  let best = -1;
  for (let i = 0; i < freeArenas.length; i++) {
    const buffer = (freeArenas[i] as ArenaEntry).arena.buffer;
    const len = buffer.byteLength;
    if (isSharedBuffer(buffer) !== shared || len < bytes) continue;
    if (best < 0 || len < (freeArenas[best] as ArenaEntry).arena.buffer.byteLength) best = i;
  }
  if (best >= 0) return freeArenas.splice(best, 1)[0] as ArenaEntry;
  const arena = new WasmArena(size, shared);
  // Device memory's release lets numerics forget it (memory.ts).
  keepAtHandUntilLetGo(arena.buffer);
  reserveBlocks(arena, 0);
  return { arena, dirtyBytes: 0 };
}

export class PageArenas {
  /** `shared`: arenas over SharedArrayBuffers, which worker threads can view (collectives/threads). */
  constructor(readonly shared = false) {}

  private readonly held: ArenaEntry[] = [];
  private current: ArenaEntry | undefined;
  private next = 0;

  /** A new arena for blocks of `bytes` (the first small, the rest MAX_ARENA_BYTES), held. */
  private take(bytes: number): ArenaEntry {
    const need = pagesStart(this.shared) + bytes;
    const size = Math.max(this.held.length === 0 ? FIRST_ARENA_BYTES : MAX_ARENA_BYTES, need);
    const e = takeArena(need, size, this.shared);
    this.held.push(e);
    return e;
  }

  /**
   * A block of `bytes` (≤ 1 GiB − the scratch block) in the current arena, or a new one, not
   * cleared: `dirty` of its first bytes may hold a released memory's data, the rest reads as zero.
   */
  page(bytes: number): { readonly view: Uint8Array; readonly dirty: number } {
    let e = this.current;
    if (e === undefined || this.next + bytes > e.arena.buffer.byteLength) {
      e = this.take(bytes);
      this.current = e;
      this.next = pagesStart(this.shared);
    }
    const view = e.arena.u8(this.next, bytes);
    const dirty = Math.max(0, Math.min(bytes, e.dirtyBytes - this.next));
    this.next += bytes;
    e.dirtyBytes = Math.max(e.dirtyBytes, this.next);
    return { view, dirty };
  }

  /** What another thread is handed to reach each held arena (WasmArena.handle), in order. */
  get handles(): object[] {
    return this.held.map((e) => e.arena.handle);
  }

  /** The index in {@link handles} of the arena whose buffer is `buffer` (−1: none held). */
  indexOf(buffer: ArrayBufferLike): number {
    return this.held.findIndex((e) => e.arena.buffer === buffer);
  }

  /** Bytes of arena this memory holds (touched or not). */
  get arenaBytes(): number {
    return this.held.reduce((s, e) => s + e.arena.buffer.byteLength, 0);
  }

  /**
   * Give every arena back for reuse. Views handed out before are then invalid: the next memory
   * writes over them.
   */
  release(): void {
    for (const e of this.held.splice(0)) freeArenas.push(e);
    freeArenas.sort((a, b) => b.arena.buffer.byteLength - a.arena.buffer.byteLength);
    while (pooledArenaBytes() > POOL_MAX_BYTES) freeArenas.pop();
    this.current = undefined;
    this.next = 0;
  }
}

/** Where worker `slot` (1..SHARED_SCRATCH_SLOTS − 1) keeps its reduce scratch in a shared arena. */
export const workerScratchAt = (slot: number): number => slot * ARENA_SCRATCH_BYTES;

/** This thread's host block in each arena it made or adopted, by the arena's buffer. */
const HOST_BLOCKS = new WeakMap<ArrayBufferLike, number>();

/** Thread `slot`'s reduce scratch and host block in `arena`, this thread's from now on. */
function reserveBlocks(arena: WasmArena, slot: number): void {
  const at = workerScratchAt(slot);
  reserveReduceScratch(arena, SCRATCH_ELEMENTS, SCRATCH_IO_BYTES, at);
  HOST_BLOCKS.set(arena.buffer, at + REDUCE_SCRATCH_BYTES);
}

/**
 * Where this thread's host block ({@link HOST_BLOCK_BYTES}) starts in the arena whose buffer is
 * `buffer`; undefined when `buffer` is no arena this thread made or adopted.
 */
export function hostBlockOf(buffer: ArrayBufferLike): number | undefined {
  return HOST_BLOCKS.get(buffer);
}

/**
 * The shared arenas another thread made, from their handles, as this thread's: the same bytes, this
 * thread's kernels over them, and its reduce scratch in block `slot` of each (never the maker's).
 * Their buffers, in order.
 * @throws FieldError when `handles` is not an array (of handles: WasmArena.over says which is not)
 *   or `slot` is outside 1..SHARED_SCRATCH_SLOTS − 1.
 */
export function adoptArenas(handles: readonly object[], slot: number): ArrayBufferLike[] {
  if (!Array.isArray(handles))
    throw new FieldError("adoptArenas", "handles", String(handles), "an array of arena handles");
  intArg("adoptArenas", "slot", slot, { min: 1, max: SHARED_SCRATCH_SLOTS - 1 });
  return handles.map((h) => {
    const arena = WasmArena.over(h);
    // The worker lets numerics forget it after each task (worker.ts).
    keepAtHandUntilLetGo(arena.buffer);
    reserveBlocks(arena, slot);
    return arena.buffer;
  });
}
