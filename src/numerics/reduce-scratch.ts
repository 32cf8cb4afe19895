/**
 * Where {@link reduceInto} keeps its accumulator: in the WebAssembly arena the bytes live in, so the
 * kernels read the sources and write the output in place. An arena's owner reserves a scratch
 * block in it ({@link reserveReduceScratch}: device memory does so at the start of every page
 * arena); a reduce whose bytes lie in no such arena, or are too many for its block, uses numerics'
 * own arena, grown on demand and made on first use.
 */
import { FieldError } from "../bits/errors.js";
import { BufferTag } from "./wasm/buffer-tag.js";
import { WasmArena } from "./wasm/kernels.js";
import { reserveSrWords, SR_WORDS_BYTES } from "./wasm/sr-words.js";

/** One reduce's scratch, all in one arena: accumulator, decode scratch, one source's bytes, output. */
export interface ReduceScratch {
  /**
   * The arena's buffer, which all of them view: kept, as a typed array's `.buffer` is a call
   * (≈ 20 ns on Node 20) and a reduce compares its spans' buffers with it for every packet.
   */
  readonly buffer: ArrayBufferLike;
  readonly acc: Float32Array;
  readonly src: Float32Array;
  readonly input: Uint8Array;
  readonly out: Uint8Array;
}

/** Each arena's buffer carries its reserved scratch (wasm/buffer-tag.ts: one property load a packet). */
const SCRATCH = new BufferTag<ReduceScratch>("sdmakit reduce scratch");

/** The scratch views at byte `at` of an arena (a multiple of 16); SR's words reserved after them. */
function scratchViews(arena: WasmArena, elements: number, ioBytes: number, at = 0): ReduceScratch {
  const f32Bytes = 4 * elements;
  reserveSrWords(arena.buffer, at + srWordsAt(elements, ioBytes));
  return {
    buffer: arena.buffer,
    acc: arena.f32(at, elements),
    src: arena.f32(at + f32Bytes, elements),
    input: arena.u8(at + 2 * f32Bytes, ioBytes),
    out: arena.u8(at + 2 * f32Bytes + ioBytes, ioBytes),
  };
}

/** Where the SR words' block starts in a scratch block (16-byte aligned, after the output). */
function srWordsAt(elements: number, ioBytes: number): number {
  return Math.ceil((2 * 4 * elements + 2 * ioBytes) / 16) * 16;
}

/**
 * Bytes a scratch block of `elements` accumulator elements and `ioBytes` of input / output takes,
 * with the block where SR keeps a seed's random words (wasm/sr-words.ts reserveSrWords).
 */
export function reduceScratchBytes(elements: number, ioBytes: number): number {
  return srWordsAt(elements, ioBytes) + SR_WORDS_BYTES;
}

/**
 * Reserve {@link reduceScratchBytes}(elements, ioBytes) bytes of `arena` from byte `at` (default
 * its start; a multiple of 16) as this thread's scratch of every reduce whose output (else first
 * source) lives in it; the caller places nothing there. Another thread working on the same shared
 * arena (WasmArena.over) reserves a block of its own at another `at`.
 * @throws {FieldError} when the block does not fit the arena or its counts are not positive integers.
 * @example const at = reserveReduceScratch(arena, 1 << 14, 1 << 16); // pages start at `at`
 * @returns the bytes reserved.
 */
export function reserveReduceScratch(arena: WasmArena, elements: number, ioBytes: number, at = 0): number {
  const bytes = reduceScratchBytes(elements, ioBytes);
  if (!Number.isInteger(elements) || elements < 1 || !Number.isInteger(ioBytes) || ioBytes < 1)
    throw new FieldError("reserveReduceScratch", "elements", elements, "a block of 1 or more");
  if (!Number.isInteger(at) || at < 0 || at % 16 !== 0 || at + bytes > arena.buffer.byteLength)
    throw new FieldError(
      "reserveReduceScratch",
      "at",
      at,
      `a multiple of 16 in 0..${arena.buffer.byteLength - bytes}`,
    );
  SCRATCH.set(arena.buffer, scratchViews(arena, elements, ioBytes, at));
  return bytes;
}

/** The scratch reserved in the arena whose buffer is `buffer`, if any. */
export function arenaScratch(buffer: ArrayBufferLike): ReduceScratch | undefined {
  return SCRATCH.get(buffer);
}

let own: ReduceScratch | undefined;

/** Numerics' own scratch, grown to hold a reduce of this size. */
export function ownScratch(elements: number, outBytes: number, inBytes: number): ReduceScratch {
  const k = own;
  if (k && k.acc.length >= elements && k.out.length >= outBytes && k.input.length >= inBytes) return k;
  // At least a max-size packet's worth, so a run makes its arena once.
  const count = Math.max(elements, k?.acc.length ?? 0, 1 << 14);
  const io = Math.ceil(Math.max(outBytes, inBytes, k?.out.length ?? 0, 1 << 16) / 16) * 16;
  own = scratchViews(new WasmArena(reduceScratchBytes(count, io)), count, io);
  return own;
}
