/**
 * Layout field values as the vector files write them, bit-exact and plain enough for any JSON
 * reader: a flag is a boolean, an f32 field its binary32 bits as `"0x%08x"` (−0 and NaN payloads
 * survive), a field wider than 32 bits a `"0x…"` hex string, every other field a number (signed
 * for `int`). `layout.encode` takes each of these forms back.
 */
import { hex32, type Layout, type Leaf, readBits } from "../bits/index.js";
import type { Json } from "./vector-set.js";

/** The JSON form of one decoded field (`bytes` gives an f32 field's raw bits). */
export function fieldJson(leaf: Leaf, value: unknown, bytes: Uint8Array): Json {
  if (leaf.kind === "f32") return hex32(readBits(bytes, 0, leaf.bit, 32));
  if (typeof value === "bigint") return `0x${BigInt.asUintN(leaf.width, value).toString(16)}`;
  if (leaf.width > 32 && typeof value === "number") return `0x${value.toString(16)}`;
  return value as Json;
}

/** Every field of `bytes` decoded as vector JSON, in the layout's leaf order. */
export function fieldsJson(layout: Layout, bytes: Uint8Array): Record<string, Json> {
  const decoded = layout.decode(bytes) as Record<string, unknown>;
  const out: Record<string, Json> = {};
  for (const l of layout.leaves) out[l.path] = fieldJson(l, decoded[l.path], bytes);
  return out;
}

/** A layout's declaration as data: what an independent reader packs and unpacks by. */
export function declarationJson(layout: Layout): Json {
  return {
    name: layout.name,
    bytes: layout.bytes,
    doc: layout.doc,
    leaves: layout.leaves.map((l) => ({
      path: l.path,
      bit: l.bit,
      width: l.width,
      kind: l.kind,
      ...(l.value === undefined ? {} : { value: l.value }),
      ...(l.zeroMeans === undefined ? {} : { zeroMeans: l.zeroMeans }),
      ...(l.names === undefined ? {} : { names: { ...l.names } }),
      arms: [...l.arms],
      fidelity: l.fidelity,
    })),
  };
}
