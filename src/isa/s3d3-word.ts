/**
 * The 64-byte S3D3 collective word (opcode 0xBF, NEURON_ISA_TPB_S3D3_COLLECTIVE_STRUCT, seed 002 §2)
 * as the `s3d3` layout's own fields by flat name (no typed twin of the layout). Each ADDR4 start
 * address is given by its whole 32-bit word (`…start_addr.addr_immediate`); which arm is live is the
 * reader's to say ({@link addr4FromU32}), so the register arm's view keys are left out of the type.
 */
import { writeBigBits } from "../bits/bitfield.js";
import { FieldError } from "../bits/errors.js";
import type { LayoutShape, Leaf } from "../bits/layout.js";
import { S3D3, TENSOR3D } from "../spec/layouts/isa.js";

/** A key of the ADDR4 register arm: another view of the same bits as `addr_immediate`. */
type AddrRegView = `${string}start_addr.addr_reg.${string}`;

/** NEURON_ISA_TPB_S3D3_COLLECTIVE_STRUCT, every byte accounted for (seed 002 §2), by flat field name. */
export type S3d3Word = Omit<LayoutShape<typeof S3D3>, AddrRegView>;

/**
 * NEURON_ISA_TPB_TENSOR3D (common.h:649, seed 002 §3): start address (the ADDR4 word), three int16
 * strides and three uint16 counts in elements, by the `tensor3d` layout's field names.
 */
export type Tensor3d = Omit<LayoutShape<typeof TENSOR3D>, AddrRegView>;

/** The two access patterns of a word. */
export type PatternName = "src_mem_pattern" | "dst_mem_pattern";

/** The size of one S3D3 word. */
export const S3D3_BYTES = S3D3.bytes;

const TENSOR_KEYS = TENSOR3D.leaves.map((l) => l.path).filter((p) => !p.includes(".addr_reg."));
const WORD_KEYS = S3D3.leaves.map((l) => l.path).filter((p) => !p.includes(".addr_reg."));

/**
 * Decode a 64-byte S3D3 word.
 * @throws DecodeError when fewer than 64 bytes are available at `offset`.
 * @example decodeS3d3(fromHex(hex))["src_mem_pattern.num_elem.0"] // 16
 */
export function decodeS3d3(bytes: Uint8Array, offset = 0): S3d3Word {
  const all = S3D3.decode(bytes, offset) as Readonly<Record<string, unknown>>;
  return Object.fromEntries(WORD_KEYS.map((k) => [k, all[k]])) as S3d3Word;
}

/**
 * One access pattern of a word, by the `tensor3d` layout's names.
 * @example tensorOf(word, "src_mem_pattern")["num_elem.0"] // 16
 */
export function tensorOf(w: S3d3Word, p: PatternName): Tensor3d {
  const f = w as unknown as Readonly<Record<string, number>>;
  return Object.fromEntries(TENSOR_KEYS.map((k) => [k, f[`${p}.${k}`]])) as Tensor3d;
}

/**
 * A pattern as a word's fields under `p` (the inverse of {@link tensorOf}).
 * @example ({ ...word, ...patternFields("dst_mem_pattern", t) })
 */
export function patternFields(p: PatternName, t: Partial<Tensor3d>): Partial<S3d3Word> {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [`${p}.${k}`, v])) as Partial<S3d3Word>;
}

/** Fields the layout's encode would refuse (unknown enum codes, non-zero reserved bits), written raw. */
const RAW = new Map(
  S3D3.leaves.filter((l) => l.kind === "enum" || l.kind === "reserved").map((l) => [l.path, l]),
);

/**
 * Encode an S3D3 word (fields left out are zero). Enum and reserved fields are written as given, so
 * an invalid word (for a test or a demonstration) is encodable; the validator says what is wrong.
 * @throws FieldError naming the field when a value does not fit its bits.
 */
export function encodeS3d3(w: Partial<S3d3Word>): Uint8Array {
  const out = new Uint8Array(S3D3_BYTES);
  const checked: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(w)) if (!RAW.has(k)) checked[k] = v;
  S3D3.encodeInto(checked, out);
  for (const [k, v] of Object.entries(w)) {
    const leaf = RAW.get(k);
    if (leaf !== undefined) writeRaw(out, leaf, v as number | bigint);
  }
  return out;
}

/** Write a field's bits without the layout's enum / reserved checks, only its width. */
function writeRaw(out: Uint8Array, leaf: Leaf, value: number | bigint): void {
  const name = leaf.path;
  const max = (1n << BigInt(leaf.width)) - 1n;
  const big = typeof value === "bigint" ? value : Number.isSafeInteger(value) ? BigInt(value) : -1n;
  if (big < 0n || big > max) throw new FieldError(S3D3.name, name, value, `0..${max}`);
  writeBigBits(out, 0, leaf.bit, leaf.width, big);
}
