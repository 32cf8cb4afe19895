/**
 * A buffer of device memory as another thread sees it: its pieces in address order
 * (engine DeviceMemory.spansOf), each a view in place or the byte an unallocated page reads as.
 * Bytes are found by their offset in the buffer; a cursor remembers the last piece, since the
 * inputs are written and the check reads in buffer order.
 */
import type { DeviceMemory, MemorySpan } from "../../engine/index.js";

/**
 * A view of a span as posted to a worker: its arena's index (engine DeviceMemory.arenaHandles) and
 * its place there. The worker rebuilds it over the arena it adopted, whose buffer its kernels know
 * (a view posted as it is arrives over a buffer object of its own, which they do not).
 */
export interface ArenaPiece {
  readonly arena: number;
  readonly offset: number;
  readonly length: number;
}

/** A span's pieces as a task carries them: on the calling thread as they are, for a worker placed. */
export type TaskPiece = MemorySpan | ArenaPiece;

/** `pieces` of `memory` for a worker: each view as its {@link ArenaPiece}. */
export function placePieces(memory: DeviceMemory, pieces: readonly MemorySpan[]): TaskPiece[] {
  return pieces.map((p) => {
    if (!(p instanceof Uint8Array)) return p;
    const arena = memory.arenaIndexOf(p.buffer);
    // A view over no arena of the memory would arrive empty, shifting every later byte.
    if (arena < 0) throw new Error("a span's view lies in none of its memory's arenas");
    return { arena, offset: p.byteOffset, length: p.length };
  });
}

/** `pieces` with each {@link ArenaPiece} a view again, over `buffers` (the adopted arenas'). */
export function piecesOver(pieces: readonly TaskPiece[], buffers: readonly ArrayBufferLike[]): MemorySpan[] {
  return pieces.map((p) =>
    "arena" in p ? new Uint8Array(buffers[p.arena] as ArrayBufferLike, p.offset, p.length) : p,
  );
}

export class SpanBuffer {
  private piece = 0;
  private start = 0;

  constructor(private readonly pieces: readonly MemorySpan[]) {}

  /** Move the cursor to the piece holding byte `at`; its index. */
  private seek(at: number): number {
    if (at < this.start) {
      this.piece = 0;
      this.start = 0;
    }
    for (;;) {
      const p = this.pieces[this.piece];
      if (p === undefined) throw new RangeError(`byte ${at} is past the buffer's end`);
      if (at < this.start + p.length) return this.piece;
      this.start += p.length;
      this.piece++;
    }
  }

  /**
   * The bytes from byte `at` to the end of its piece (at most `maxBytes`), in place: what a draw
   * writes into directly. Undefined where the piece is not a view.
   */
  viewAt(at: number, maxBytes: number): Uint8Array | undefined {
    const p = this.pieces[this.seek(at)];
    if (!(p instanceof Uint8Array)) return undefined;
    const off = at - this.start;
    return p.subarray(off, Math.min(p.length, off + maxBytes));
  }

  /** Write `bytes` at byte `at` of the buffer. @throws RangeError on a piece that is not a view. */
  write(at: number, bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length; ) {
      const p = this.pieces[this.seek(at + done)];
      if (!(p instanceof Uint8Array)) throw new RangeError("a written span is allocated whole");
      const off = at + done - this.start;
      const n = Math.min(p.length - off, bytes.length - done);
      p.set(n === bytes.length ? bytes : bytes.subarray(done, done + n), off);
      done += n;
    }
  }

  /**
   * `len` bytes at byte `at`: a view in place when they lie in one allocated piece, else copied
   * into `tile` (unallocated pieces read as their byte).
   */
  read(at: number, len: number, tile: Uint8Array): Uint8Array {
    const first = this.pieces[this.seek(at)];
    const off = at - this.start;
    if (first instanceof Uint8Array && off + len <= first.length) return first.subarray(off, off + len);
    const out = tile.subarray(0, len);
    for (let done = 0; done < len; ) {
      const p = this.pieces[this.seek(at + done)] as MemorySpan;
      const o = at + done - this.start;
      const n = Math.min(p.length - o, len - done);
      if (p instanceof Uint8Array) out.set(p.subarray(o, o + n), done);
      else out.fill(p.byte, done, done + n);
      done += n;
    }
    return out;
  }
}
