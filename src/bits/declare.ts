/**
 * The declaration language for bit layouts: plain data, no behaviour. A layout is a tree of
 * these nodes; `compileLayout` flattens it into absolute-bit leaves once, checks it, and builds
 * the codec. Bits are numbered from bit 0 of byte 0, little-endian (bit b is bit b&7 of byte b>>3),
 * which is how the hardware numbers descriptor words.
 */

export type LeafKind = "uint" | "int" | "bool" | "enum" | "f32" | "const" | "reserved";

/** Provenance of a field: read off the binary by the seeds, or chosen by us. */
export type Fidelity = "seed" | "model" | "public";

export interface LeafNode<
  N extends string = string,
  K extends LeafKind = LeafKind,
  W extends number = number,
> {
  readonly node: "leaf";
  readonly name: N;
  /** Bit offset relative to the enclosing node. */
  readonly bit: number;
  readonly width: W;
  readonly kind: K;
  /** enum: code → name. */
  readonly names?: Readonly<Record<number, string>>;
  /** const: the value the bits always hold. */
  readonly value?: number;
  /** uint: the value the raw 0 stands for (a length of 65536 written as 0); 0 itself is not writable. */
  readonly zeroMeans?: number;
  readonly doc?: string;
  readonly fidelity?: Fidelity;
}

export interface StructNode<
  N extends string = string,
  F extends readonly LayoutNode[] = readonly LayoutNode[],
> {
  readonly node: "struct";
  readonly name: N;
  readonly bit: number;
  readonly fields: F;
}

export interface ArrayNode<
  N extends string = string,
  I extends readonly LayoutNode[] = readonly LayoutNode[],
  C extends number = number,
> {
  readonly node: "array";
  readonly name: N;
  readonly bit: number;
  readonly count: C;
  readonly strideBits: number;
  /** The element: a single leaf (named "") or a list of fields relative to the element start. */
  readonly item: I;
}

export interface UnionNode<
  N extends string = string,
  A extends Readonly<Record<string, readonly LayoutNode[]>> = Readonly<Record<string, readonly LayoutNode[]>>,
> {
  readonly node: "union";
  /** "" for an anonymous union (its arms' names are then top-level names). */
  readonly name: N;
  readonly bit: number;
  readonly arms: A;
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
/** An unsigned field's options: `zeroMeans` is the value its raw 0 stands for (one past the largest raw value). */
type UintOpts = Opts & { zeroMeans?: number };

function leaf<N extends string, K extends LeafKind, W extends number>(
  name: N,
  bit: number,
  width: W,
  kind: K,
  opts: UintOpts = {},
): LeafNode<N, K, W> {
  return { node: "leaf", name, bit, width, kind, ...opts };
}

/**
 * An unsigned integer field. Width > 32 gives bigint values. With `zeroMeans`, the raw 0 stands
 * for that value: encode writes it as 0 and refuses 0, decode and the field readers give it back.
 * @example uint("length", 0, 16, { zeroMeans: 65536 }) // 1..65536, 65536 written as 0
 */
export const uint = <N extends string, W extends number>(
  name: N,
  bit: number,
  width: W,
  opts?: UintOpts,
): LeafNode<N, "uint", W> => leaf(name, bit, width, "uint", opts);
/** A two's-complement signed integer field. */
export const int = <N extends string, W extends number>(
  name: N,
  bit: number,
  width: W,
  opts?: Opts,
): LeafNode<N, "int", W> => leaf(name, bit, width, "int", opts);
/** A one-bit flag. */
export const bool = <N extends string>(name: N, bit: number, opts?: Opts): LeafNode<N, "bool", 1> =>
  leaf(name, bit, 1, "bool", opts);
/** An IEEE-754 binary32 field (32 bits). */
export const f32 = <N extends string>(name: N, bit: number, opts?: Opts): LeafNode<N, "f32", 32> =>
  leaf(name, bit, 32, "f32", opts);
/** An enumerated field; `names` maps each code to its name. */
export const enumField = <N extends string, W extends number>(
  name: N,
  bit: number,
  width: W,
  opts: Opts & { names: Readonly<Record<number, string>> },
): LeafNode<N, "enum", W> => {
  const { names, ...rest } = opts;
  return { ...leaf(name, bit, width, "enum", rest), names };
};
/** Bits that always hold `value` (an op tag, a "has meta" flag). Encode always sets them. */
export const constant = <N extends string, W extends number>(
  name: N,
  bit: number,
  width: W,
  opts: Opts & { value: number },
): LeafNode<N, "const", W> => {
  const { value, ...rest } = opts;
  return { ...leaf(name, bit, width, "const", rest), value };
};
/** Named bits that must be zero. */
export const reserved = <N extends string, W extends number>(
  name: N,
  bit: number,
  width: W,
  opts?: Opts,
): LeafNode<N, "reserved", W> => leaf(name, bit, width, "reserved", opts);

/** A nested struct at `bit`, its fields relative to it. */
export const struct = <N extends string, const F extends readonly LayoutNode[]>(
  name: N,
  bit: number,
  fields: F,
): StructNode<N, F> => ({
  node: "struct",
  name,
  bit,
  fields,
});

/** `count` elements every `strideBits`, starting at `bit`. */
export const array = <N extends string, const C extends number, const I extends readonly LayoutNode[]>(
  name: N,
  bit: number,
  repeat: { count: C; strideBits: number },
  item: I,
): ArrayNode<N, I, C> => ({
  node: "array",
  name,
  bit,
  count: repeat.count,
  strideBits: repeat.strideBits,
  item,
});

/** Views over the same bits: each arm is a list of fields relative to `bit`. */
export const union = <N extends string, const A extends Readonly<Record<string, readonly LayoutNode[]>>>(
  name: N,
  bit: number,
  arms: A,
): UnionNode<N, A> => ({ node: "union", name, bit, arms });
