/**
 * Float fields, bit-exact through `decode --json` and back through `encode`: JSON has no −0, NaN
 * or ±Inf (JSON.stringify writes 0 and null) and one NaN hides its payload. So every f32 field's raw
 * bits go beside the fields (`f32Bits`), and a value JSON cannot hold is written as those bits,
 * `"0x7fc00001"`, which `encode` takes back as exact bits (bits/layout.ts, f32 fields).
 */
import { type Fields, hex32, type Layout, readBits } from "../bits/index.js";

/** The binary32 bits of the f32 field at `bit` of `bytes`, as `0x%08x`. */
function bitsOf(bytes: Uint8Array, bit: number): string {
  return hex32(readBits(bytes, 0, bit, 32));
}

/** A float JSON keeps exactly: finite and not −0. */
const jsonExact = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0);

/**
 * The fields as JSON should carry them, and the raw bits of every f32 field.
 * @example bitExactJson(FMA_DESC, bytes, FMA_DESC.decode(bytes)).fields.scale; // "0x80000000" for −0
 */
export function bitExactJson(
  layout: Layout,
  bytes: Uint8Array,
  fields: Fields,
): { fields: Record<string, unknown>; f32Bits: Record<string, string> } {
  const out: Record<string, unknown> = { ...fields };
  const f32Bits: Record<string, string> = {};
  for (const l of layout.leaves) {
    if (l.kind !== "f32") continue;
    const bits = bitsOf(bytes, l.bit);
    f32Bits[l.path] = bits;
    if (!jsonExact(fields[l.path])) out[l.path] = bits;
  }
  return { fields: out, f32Bits };
}

/** A float field for people: the value, and its bits when the value alone does not say them. */
export function f32Text(bytes: Uint8Array, bit: number, value: number): string {
  if (Object.is(value, -0)) return "-0";
  return jsonExact(value) || value === 0 ? String(value) : `${value} (${bitsOf(bytes, bit)})`;
}
