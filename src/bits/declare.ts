/**
 * The declaration language for bit layouts: plain data, no behaviour. A layout is a tree of
 * these nodes; `compileLayout` flattens it into absolute-bit leaves once, checks it, and builds
 * the codec. Bits are numbered from bit 0 of byte 0, little-endian (bit b is bit b&7 of byte b>>3),
 * which is how the hardware numbers descriptor words.
 */

export type LeafKind = "uint" | "int" | "bool" | "enum" | "f32" | "const" | "reserved";

/** Provenance of a field: read off the binary by the seeds, or chosen by us. */
export type Fidelity = "seed" | "model" | "public";

export interface LeafNode {
  readonly node: "leaf";
  readonly name: string;
  /** Bit offset relative to the enclosing node. */
  readonly bit: number;
  readonly width: number;
  readonly kind: LeafKind;
  /** enum: code → name. */
  readonly names?: Readonly<Record<number, string>>;
  /** const: the value the bits always hold. */
  readonly value?: number;
  readonly doc?: string;
  readonly fidelity?: Fidelity;
}

export interface StructNode {
  readonly node: "struct";
  readonly name: string;
  readonly bit: number;
  readonly fields: readonly LayoutNode[];
}

export interface ArrayNode {
  readonly node: "array";
  readonly name: string;
  readonly bit: number;
  readonly count: number;
  readonly strideBits: number;
  /** The element: a single leaf (named "") or a list of fields relative to the element start. */
  readonly item: readonly LayoutNode[];
}

export interface UnionNode {
  readonly node: "union";
  /** "" for an anonymous union (its arms' names are then top-level names). */
  readonly name: string;
  readonly bit: number;
  readonly arms: Readonly<Record<string, readonly LayoutNode[]>>;
}

export type LayoutNode = LeafNode | StructNode | ArrayNode | UnionNode;

export interface LayoutDecl {
  readonly name: string;
  readonly bytes: number;
  readonly doc: string;
  /** Where the format comes from: libnrt symbol and seed section, or a public source. */
  readonly source: string;
  readonly fields: readonly LayoutNode[];
}

type Opts = { doc?: string; fidelity?: Fidelity };

function leaf(name: string, bit: number, width: number, kind: LeafKind, opts: Opts = {}): LeafNode {
  return { node: "leaf", name, bit, width, kind, ...opts };
}

/** An unsigned integer field. Width > 32 gives bigint values. */
export const uint = (name: string, bit: number, width: number, opts?: Opts): LeafNode =>
  leaf(name, bit, width, "uint", opts);
/** A two's-complement signed integer field. */
export const int = (name: string, bit: number, width: number, opts?: Opts): LeafNode =>
  leaf(name, bit, width, "int", opts);
/** A one-bit flag. */
export const bool = (name: string, bit: number, opts?: Opts): LeafNode => leaf(name, bit, 1, "bool", opts);
/** An IEEE-754 binary32 field (32 bits). */
export const f32 = (name: string, bit: number, opts?: Opts): LeafNode => leaf(name, bit, 32, "f32", opts);
/** An enumerated field; `names` maps each code to its name. */
export const enumField = (
  name: string,
  bit: number,
  width: number,
  names: Readonly<Record<number, string>>,
  opts?: Opts,
): LeafNode => ({ ...leaf(name, bit, width, "enum", opts), names });
/** Bits that always hold `value` (an op tag, a "has meta" flag). Encode always sets them. */
export const constant = (name: string, bit: number, width: number, value: number, opts?: Opts): LeafNode => ({
  ...leaf(name, bit, width, "const", opts),
  value,
});
/** Named bits that must be zero. */
export const reserved = (name: string, bit: number, width: number, opts?: Opts): LeafNode =>
  leaf(name, bit, width, "reserved", opts);

/** A nested struct at `bit`, its fields relative to it. */
export const struct = (name: string, bit: number, fields: readonly LayoutNode[]): StructNode => ({
  node: "struct",
  name,
  bit,
  fields,
});

/** `count` elements every `strideBits`, starting at `bit`. */
export const array = (
  name: string,
  bit: number,
  count: number,
  strideBits: number,
  item: readonly LayoutNode[],
): ArrayNode => ({ node: "array", name, bit, count, strideBits, item });

/** Views over the same bits: each arm is a list of fields relative to `bit`. */
export const union = (
  name: string,
  bit: number,
  arms: Readonly<Record<string, readonly LayoutNode[]>>,
): UnionNode => ({ node: "union", name, bit, arms });
