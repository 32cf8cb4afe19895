/**
 * Setting a span of a page to one byte. `Uint8Array.prototype.fill` on a SharedArrayBuffer (a
 * shared device memory: memory.ts) stores byte by byte, ≈ 10× slower here than on a plain buffer,
 * while `set` from a plain array copies at memory speed on either: so a shared page is set from a
 * block of the byte, and a plain one filled.
 */
import { isSharedBuffer } from "../../numerics/wasm/shared-memory.js";

/** Bytes of the block a shared page is set from (a copy that stays in L2). */
const BLOCK = 1 << 16;
const blocks = new Map<number, Uint8Array>();

/** page[from, to) ← byte. */
export function fillBytes(page: Uint8Array, byte: number, from: number, to: number): void {
  if (to - from < 256 || !isSharedBuffer(page.buffer)) {
    page.fill(byte, from, to);
    return;
  }
  let block = blocks.get(byte);
  if (block === undefined) {
    block = new Uint8Array(BLOCK).fill(byte);
    blocks.set(byte, block);
  }
  for (let at = from; at < to; at += BLOCK)
    page.set(to - at >= BLOCK ? block : block.subarray(0, to - at), at);
}
