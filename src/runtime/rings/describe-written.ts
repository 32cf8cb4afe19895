/**
 * A written descriptor as people read it: its hex, its layout's fields decoded from the ring bytes,
 * the meta-control word it carries decoded with its own layout, and a one-line summary.
 */
import { type Fields, type FieldValue, hex32, type Layout, toHex } from "../../bits/index.js";
import { wordBytes } from "../descriptors/layout-word.js";
import type { WrittenDescriptor } from "./vring.js";

export interface DescribedDescriptor {
  readonly ring: "tx" | "rx";
  readonly slot: number;
  readonly hex: string;
  readonly layout: string;
  readonly fields: Fields;
  readonly meta?: { readonly layout: string; readonly word: string; readonly fields: Fields };
}

/** Where the meta-control word sits in the two data views. */
const META_FIELD: Readonly<Record<string, string>> = { "udma-tx": "meta_ctrl", "udma-rx": "buf2_ptr_lo" };

/** Decode a written descriptor from its bytes. */
export function describeWritten(w: WrittenDescriptor): DescribedDescriptor {
  const fields = w.spec.layout.decode(w.bytes);
  const metaField = META_FIELD[w.spec.layout.name];
  const base = { ring: w.ring, slot: w.slot, hex: toHex(w.bytes), layout: w.spec.layout.name, fields };
  if (metaField === undefined || w.spec.metaLayout === undefined) return base;
  const word = Number(fields[metaField]);
  return {
    ...base,
    meta: {
      layout: w.spec.metaLayout.name,
      word: hex32(word),
      fields: w.spec.metaLayout.decode(wordBytes(word)),
    },
  };
}

/** `name=value` for each non-zero, non-constant field; flags by name alone; enums by name. */
export function summarizeFields(layout: Layout, fields: Fields, skip: readonly string[] = []): string {
  const parts: string[] = [];
  for (const leaf of layout.leaves) {
    if (leaf.kind === "const" || skip.includes(leaf.path)) continue;
    const v = fields[leaf.path] as FieldValue;
    if (v === false || v === 0 || v === 0n) continue;
    if (v === true) parts.push(leaf.path);
    else if (leaf.kind === "enum") parts.push(`${leaf.path}=${leaf.names?.[v as number] ?? v}`);
    else if (typeof v === "bigint" || (typeof v === "number" && leaf.kind === "uint" && v > 0xffff))
      parts.push(`${leaf.path}=0x${v.toString(16)}`);
    else parts.push(`${leaf.path}=${v}`);
  }
  return parts.join(" ");
}

/** One line: `tx[0] <hex> udma-tx len_ctrl.length=64 ... meta_ctrl=0x020a6000 (add-meta: out_dt=bf16 ...)`. */
export function describeLine(w: WrittenDescriptor): string {
  const d = describeWritten(w);
  const metaField = META_FIELD[d.layout];
  const head = `${d.ring}[${d.slot}] ${d.hex} ${d.layout}`;
  const body = summarizeFields(
    w.spec.layout,
    d.fields,
    metaField === undefined || d.meta === undefined ? [] : [metaField],
  );
  const meta =
    d.meta && w.spec.metaLayout
      ? ` ${metaField}=${d.meta.word} (${d.meta.layout}: ${summarizeFields(w.spec.metaLayout, d.meta.fields)})`
      : "";
  return `${head}  ${body}${meta}`;
}
