/**
 * Where device-memory pages live: in WebAssembly arenas (numerics `WasmArena`), so the numerics
 * kernels can read a source and write a destination in place, with no copy into a staging buffer.
 * The kernels need the accumulator in the same arena as the bytes. So every arena starts with a
 * kernel scratch block (accumulator, decode scratch, one source's bytes, output), and the executor
 * uses the block of the arena its first source lives in.
 *
 * Arenas never grow (their views must not detach), so pages fill one arena after another: 16 MiB
 * first, then 1 GiB each. A Device that touches a few pages costs one small arena (≈ 0.8 ms to make
 * here); one that touches more gets a large one at once (≈ 6 ms, address space only until touched),
 * so the buffers of a large run share an arena and reduce in place (growing by doubling spread the
 * sources of a 3 × 64 MiB reduce over four arenas). The arena memory starts zeroed, as a fresh page.
 */
import { WasmArena } from "../numerics/index.js";

/** The kernel scratch at the start of every arena. */
export interface KernelScratch {
  readonly acc: Float32Array;
  readonly src: Float32Array;
  readonly input: Uint8Array;
  readonly out: Uint8Array;
}

/** Elements of acc / src, bytes of input / out: one max-size CCE packet (16 KiB a stream). */
const SCRATCH_ELEMENTS = 1 << 14;
const SCRATCH_IO_BYTES = 1 << 16;
const SCRATCH_BYTES = 2 * 4 * SCRATCH_ELEMENTS + 2 * SCRATCH_IO_BYTES;
const FIRST_ARENA_BYTES = 16 << 20;
const MAX_ARENA_BYTES = 1 << 30;

/** The kernel scratch views of an arena, `at` bytes in. */
export function kernelScratch(
  arena: WasmArena,
  at: number,
  elements: number,
  ioBytes: number,
): KernelScratch {
  const f32Bytes = 4 * elements;
  return {
    acc: arena.f32(at, elements),
    src: arena.f32(at + f32Bytes, elements),
    input: arena.u8(at + 2 * f32Bytes, ioBytes),
    out: arena.u8(at + 2 * f32Bytes + ioBytes, ioBytes),
  };
}

export class PageArenas {
  private arena: WasmArena | undefined;
  private next = 0;
  private nextBytes = FIRST_ARENA_BYTES;
  private readonly scratch = new Map<ArrayBufferLike, KernelScratch>();

  /** A zeroed block of `bytes` (≤ 1 GiB − the scratch block) in the current arena, or a new one. */
  page(bytes: number): Uint8Array {
    if (this.arena === undefined || this.next + bytes > this.arena.buffer.byteLength) {
      const size = Math.max(this.nextBytes, SCRATCH_BYTES + bytes);
      this.arena = new WasmArena(size);
      this.scratch.set(this.arena.buffer, kernelScratch(this.arena, 0, SCRATCH_ELEMENTS, SCRATCH_IO_BYTES));
      this.next = SCRATCH_BYTES;
      this.nextBytes = MAX_ARENA_BYTES;
    }
    const view = this.arena.u8(this.next, bytes);
    this.next += bytes;
    return view;
  }

  /** The kernel scratch of the arena `view` lives in; undefined for memory outside the arenas. */
  scratchOf(view: ArrayBufferView): KernelScratch | undefined {
    return this.scratch.get(view.buffer);
  }
}
