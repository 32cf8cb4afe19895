import { DecodeError } from "./errors.js";

/** Lowercase hex, no spaces. */
export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/**
 * Parse hex (optional `0x`, spaces and `_` ignored) into bytes.
 * @throws DecodeError when the text is not an even number of hex digits.
 */
export function fromHex(text: string): Uint8Array {
  const clean = text.replace(/^0x/i, "").replace(/[\s_]/g, "");
  if (!/^[0-9a-fA-F]*$/.test(clean)) throw new DecodeError(`not hex: ${JSON.stringify(text)}`);
  if (clean.length % 2 !== 0)
    throw new DecodeError(`odd number of hex digits (${clean.length}) in ${JSON.stringify(text)}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The little-endian u32 words of a byte string (its length a multiple of 4). */
export function wordsOf(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i += 4) out.push(view.getUint32(i, true));
  return out;
}

/** The little-endian u32 at byte `i` (no DataView: the engine reads one for every descriptor fetched). */
export function wordAt(b: Uint8Array, i: number): number {
  return (
    ((b[i] as number) |
      ((b[i + 1] as number) << 8) |
      ((b[i + 2] as number) << 16) |
      ((b[i + 3] as number) << 24)) >>>
    0
  );
}

/** `0x%08x` of a u32. */
export function hex32(word: number): string {
  return `0x${(word >>> 0).toString(16).padStart(8, "0")}`;
}

/**
 * A value made JSON-safe the way sdmakit's JSON writes results: bigints as `0x…`, bytes as hex,
 * objects and arrays walked; everything else as it is.
 * @example jsonSafe({ addr: 0x1000n, bytes: Uint8Array.of(1, 2) }); // { addr: "0x1000", bytes: "0102" }
 */
export function jsonSafe(v: unknown): unknown {
  if (typeof v === "bigint") return `0x${v.toString(16)}`;
  if (v instanceof Uint8Array) return toHex(v);
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  return v;
}
