/** Encode a 4-byte layout as its little-endian u32 (the meta-control words), and libnrt's masking. */
import type { InputOf, Layout, LayoutNode } from "../../bits/index.js";

/**
 * The u32 a 4-byte layout encodes `fields` to.
 * @throws FieldError for an unknown field or an out-of-range value (no silent masking).
 */
export function layoutWord<F extends readonly LayoutNode[]>(
  layout: Layout<F>,
  fields: Readonly<InputOf<F>>,
): number {
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

/**
 * libnrt's failure style for the arguments its encoders mask (`sub & 7`, `length & 0xFFFFFF`, …):
 * the named fields keep only the bits their layout field has, as the decompiled code does; every
 * other field stays strict. The masks come from the layout's widths, not from literals here.
 */
export function maskedAsLibnrt<F extends readonly LayoutNode[], V extends Readonly<InputOf<F>>>(
  layout: Layout<F>,
  values: V,
  masked: readonly (keyof V & string)[],
): V {
  const out: Record<string, unknown> = { ...values };
  for (const name of masked) {
    const v = out[name];
    const width = layout.leaf(name).width;
    if (typeof v === "number" && Number.isInteger(v))
      out[name] = width >= 32 ? v >>> 0 : (v >>> 0) % 2 ** width;
    else if (typeof v === "bigint") out[name] = BigInt.asUintN(width, v);
  }
  return out as V;
}
