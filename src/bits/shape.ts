/**
 * The TypeScript shape of a layout, inferred from its declaration (as micro-packed's `struct<T>`
 * and protobuf-es's `MessageShape<Desc>` do): one flat, dotted key per leaf, typed by its kind and
 * width. A declaration built from the leaf builders with literal names gets exact keys, so a
 * misspelt field is a compile error; one typed only as `LayoutNode[]` falls back to string keys.
 */
import type { ArrayNode, LayoutNode, LeafKind, LeafNode, StructNode, UnionNode } from "./declare.js";

/** Widths that decode to a JS number; wider integer fields are bigint. */
type NarrowWidth =
  | 1
  | 2
  | 3
  | 4
  | 5
  | 6
  | 7
  | 8
  | 9
  | 10
  | 11
  | 12
  | 13
  | 14
  | 15
  | 16
  | 17
  | 18
  | 19
  | 20
  | 21
  | 22
  | 23
  | 24
  | 25
  | 26
  | 27
  | 28
  | 29
  | 30
  | 31
  | 32;

type IntValue<W extends number> = number extends W
  ? number | bigint
  : W extends NarrowWidth
    ? number
    : bigint;

/** What decode gives for a leaf. */
export type DecodedValue<K extends LeafKind, W extends number> = K extends "bool"
  ? boolean
  : K extends "f32" | "enum" | "const"
    ? number
    : IntValue<W>;

/** What encode takes for a leaf: enums also by name, wide integers also as a safe number. */
export type EncodedValue<K extends LeafKind, W extends number> = K extends "bool"
  ? boolean | 0 | 1
  : K extends "enum"
    ? number | string
    : K extends "f32" | "const"
      ? number
      : IntValue<W> extends bigint
        ? bigint | number
        : IntValue<W>;

/** `prefix` + `name`; an unnamed leaf (an array element) is the prefix without its dot. */
type Join<P extends string, N extends string> = N extends "" ? (P extends `${infer Q}.` ? Q : P) : `${P}${N}`;

/** The indices 0..C-1 of an array of literal length C (any number when C is not literal). */
type Indices<C extends number, Seen extends unknown[] = []> = number extends C
  ? number
  : Seen["length"] extends C
    ? never
    : Seen["length"] | Indices<C, [...Seen, unknown]>;

/** [path, kind, width] for every leaf under one node. */
type NodeEntries<X, P extends string> = X extends LeafNode<infer N, infer K, infer W>
  ? [Join<P, N>, K, W]
  : X extends StructNode<infer N, infer F>
    ? ListEntries<F, `${Join<P, N>}.`>
    : X extends ArrayNode<infer N, infer I, infer C>
      ? ListEntries<I, `${Join<P, N>}.${Indices<C>}.`>
      : X extends UnionNode<infer N, infer A>
        ? {
            [Arm in keyof A & string]: ListEntries<
              A[Arm],
              N extends "" ? `${P}${Arm}.` : `${Join<P, N>}.${Arm}.`
            >;
          }[keyof A & string]
        : never;

/** A list typed only as `LayoutNode[]` (built by a helper without literal types) has string keys. */
type ListEntries<F, P extends string> = readonly LayoutNode[] extends F
  ? [string, LeafKind, number]
  : F extends readonly (infer X)[]
    ? NodeEntries<X, P>
    : never;

type Entry = [string, LeafKind, number];

/** The decoded fields of a declaration: every leaf by flat dotted name. */
export type ShapeOf<F extends readonly LayoutNode[]> = {
  [E in ListEntries<F, ""> & Entry as E[0]]: DecodedValue<E[1], E[2]>;
};

/**
 * The encode input of a declaration: any subset of the leaves by flat name (unset leaves are
 * zero). An untyped layout (`Layout` with no declaration type: a layout picked by name at run time)
 * takes any record, checked field by field when encoded; nested objects are accepted there too.
 */
export type InputOf<F extends readonly LayoutNode[]> = readonly LayoutNode[] extends F
  ? Readonly<Record<string, unknown>>
  : { [E in ListEntries<F, ""> & Entry as E[0]]?: EncodedValue<E[1], E[2]> };
