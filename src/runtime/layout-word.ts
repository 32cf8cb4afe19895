/** Encode a 4-byte layout as its little-endian u32 (the meta-control words). */
import type { Layout } from "../bits/index.js";

/**
 * The u32 a 4-byte layout encodes `fields` to.
 * @throws FieldError for an unknown field or an out-of-range value (no silent masking).
 */
export function layoutWord(layout: Layout, fields: Readonly<Record<string, unknown>>): number {
  const b = layout.encode(fields);
  return (
    ((b[0] as number) | ((b[1] as number) << 8) | ((b[2] as number) << 16) | ((b[3] as number) << 24)) >>> 0
  );
}

/** The u32 as 4 little-endian bytes (to decode a word with its layout). */
export function wordBytes(word: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, word >>> 0, true);
  return b;
}
