import { f32FromBits, f32ToBits, readBigBits, readBits, writeBigBits, writeBits } from "./bitfield.js";
import type { Fidelity, LayoutDecl, LayoutNode, LeafKind } from "./declare.js";
import { didYouMean } from "./did-you-mean.js";
import { DecodeError, FieldError, LayoutDefinitionError } from "./errors.js";
import type { InputOf, ShapeOf } from "./shape.js";

/** A field value: numbers up to 32 bits, bigint above, booleans for flags, floats for f32. */
export type FieldValue = number | bigint | boolean;
/** Decoded fields by flat dotted name (`src_mem_pattern.step_elem.1`). */
export type Fields = Record<string, FieldValue>;

/** One leaf of a compiled layout, at its absolute bit offset. */
export interface Leaf {
  /** Flat dotted name: nested names joined with `.`, array elements `.0`, `.1`, … */
  readonly path: string;
  readonly bit: number;
  readonly width: number;
  readonly kind: LeafKind;
  readonly names?: Readonly<Record<number, string>>;
  readonly value?: number;
  /** The value a raw 0 stands for (declare.ts `uint`'s `zeroMeans`). */
  readonly zeroMeans?: number;
  readonly doc?: string;
  readonly fidelity: Fidelity;
  /** The union arms this leaf lies in, outermost first (`"<union path>|<arm>"`). */
  readonly arms: readonly string[];
}

/** Something in a decoded byte string that a well-formed value would not have. */
export interface DecodeIssue {
  readonly kind: "reserved" | "const" | "enum" | "undeclared";
  readonly field: string;
  readonly bit: number;
  readonly width: number;
  readonly value: FieldValue;
  readonly message: string;
}

/**
 * One field's reader, compiled once from its leaf: the shift and mask a hand-written accessor would
 * use, so reading through it costs the same and cannot drift from the declaration.
 */
export interface FieldReader<V = FieldValue> {
  readonly leaf: Leaf;
  /** The little-endian 32-bit word that holds the field (bit >> 5). */
  readonly word: number;
  /** The field's bits within that word: `(w >>> shift) & mask`. */
  readonly shift: number;
  readonly mask: number;
  /**
   * The field's bits, given its word (the engine's fetched W0..W3): the raw value, except that a
   * leaf whose 0 stands for another value (`zeroMeans`) gives that value for a raw 0.
   * @throws LayoutDefinitionError when the field spans two words (read it from bytes).
   */
  ofWord(w: number): number;
  /** A one-bit field is set in its word. */
  isSet(w: number): boolean;
  /** The field decoded from the layout's bytes at `offset`. */
  read(bytes: Uint8Array, offset?: number): V;
}

/**
 * A compiled layout: one declaration gives encode, decode, checks, field readers and the describe
 * table. `F` is the declaration, from which the TypeScript shape of the fields is inferred.
 */
export interface Layout<F extends readonly LayoutNode[] = readonly LayoutNode[]> {
  readonly name: string;
  readonly bytes: number;
  readonly doc: string;
  readonly source: string;
  readonly leaves: readonly Leaf[];
  /** @throws FieldError for an unknown field, a wrong type or an out-of-range value. */
  encode(values: Readonly<InputOf<F>>): Uint8Array;
  /** Encode into `out` at `offset` (the bytes there are overwritten). */
  encodeInto(values: Readonly<InputOf<F>>, out: Uint8Array, offset?: number): void;
  /** @throws DecodeError when fewer than `bytes` bytes are available. */
  decode(bytes: Uint8Array, offset?: number): ShapeOf<F>;
  /** The compiled reader of one field. @throws FieldError when there is no such field. */
  field<K extends keyof ShapeOf<F> & string>(path: K): FieldReader<ShapeOf<F>[K]>;
  /** Every constant leaf outside a union holds its value: the bytes are this layout's kind. */
  matches(bytes: Uint8Array, offset?: number): boolean;
  /**
   * Reserved, constant, enum and undeclared bits that a well-formed value would not have. Fields
   * inside union arms are not checked here (only the reader knows which arm is live).
   */
  issues(bytes: Uint8Array, offset?: number): DecodeIssue[];
  /** Whether {@link issues} finds nothing, without building what it would find (hot paths). */
  wellFormed(bytes: Uint8Array, offset?: number): boolean;
  /** The compiled leaf of a flat name. @throws FieldError when there is none. */
  leaf(path: keyof ShapeOf<F> & string): Leaf;
  /** Read one field without decoding the rest (for hot paths). */
  read<K extends keyof ShapeOf<F> & string>(path: K, bytes: Uint8Array, offset?: number): ShapeOf<F>[K];
}

/** The encode input of a compiled layout (its fields by flat name), for builder argument types. */
export type LayoutInput<L> = L extends Layout<infer F> ? InputOf<F> : never;
/** The decoded fields of a compiled layout. */
export type LayoutShape<L> = L extends Layout<infer F> ? ShapeOf<F> : never;

/**
 * Compile a declaration: flatten it into leaves, check that no two leaves overlap (except in
 * different arms of one union) and none runs past the end, and build the codec.
 * @throws LayoutDefinitionError when the declaration contradicts itself.
 */
export function compileLayout<const F extends readonly LayoutNode[]>(
  decl: LayoutDecl & { readonly fields: F },
): Layout<F> {
  const leaves: Leaf[] = [];
  flatten(decl.fields, 0, "", [], leaves);
  checkLeaves(decl, leaves);
  return new CompiledLayout(decl, leaves) as unknown as Layout<F>;
}

/** Compile one leaf's reader: shift and mask fixed here, once. */
function compileReader(layoutName: string, l: Leaf): FieldReader {
  const word = l.bit >> 5;
  const shift = l.bit & 31;
  const inWord = shift + l.width <= 32;
  const mask = inWord ? (l.width === 32 ? 0xffffffff : 2 ** l.width - 1) : 0;
  const bit = inWord && l.width === 1 ? 2 ** shift : 0;
  const spans = (): never => {
    throw new LayoutDefinitionError(`${layoutName}(${l.path}) spans two words; read it from bytes`);
  };
  const notFlag = (): never => {
    throw new LayoutDefinitionError(
      `${layoutName}(${l.path}) is ${l.width} bits wide; isSet reads a one-bit flag`,
    );
  };
  return {
    leaf: l,
    word,
    shift,
    mask,
    ofWord: !inWord ? spans : wordReader(shift, mask, l.zeroMeans),
    isSet: bit === 0 ? notFlag : (w) => (w & bit) !== 0,
    read: (bytes, offset = 0) => fromBits(l, readRaw(bytes, offset, l)),
  };
}

/** `(w >>> shift) & mask`, with a raw 0 read as `zeroMeans` when the leaf has one. */
function wordReader(shift: number, mask: number, zeroMeans: number | undefined): (w: number) => number {
  if (zeroMeans !== undefined) return (w) => (w >>> shift) & mask || zeroMeans;
  return mask === 0xffffffff ? (w) => w >>> 0 : (w) => (w >>> shift) & mask;
}

function flatten(
  nodes: readonly LayoutNode[],
  base: number,
  prefix: string,
  arms: string[],
  out: Leaf[],
): void {
  const join = (name: string) => (name === "" ? prefix.replace(/\.$/, "") : `${prefix}${name}`);
  for (const n of nodes) {
    switch (n.node) {
      case "leaf": {
        const { node: _node, name, bit, fidelity, ...rest } = n;
        out.push({
          ...rest,
          path: join(name),
          bit: base + bit,
          fidelity: fidelity ?? "seed",
          arms: [...arms],
        });
        break;
      }
      case "struct":
        flatten(n.fields, base + n.bit, `${join(n.name)}.`, arms, out);
        break;
      case "array":
        for (let i = 0; i < n.count; i++) {
          flatten(n.item, base + n.bit + i * n.strideBits, `${join(n.name)}.${i}.`, arms, out);
        }
        break;
      case "union": {
        const unionId = join(n.name) || `@${base + n.bit}`;
        for (const [arm, fields] of Object.entries(n.arms)) {
          const armPrefix = n.name === "" ? prefix : `${join(n.name)}.`;
          flatten(fields, base + n.bit, `${armPrefix}${arm}.`, [...arms, `${unionId}|${arm}`], out);
        }
        break;
      }
    }
  }
}

/** Leaves in different arms of one union may share bits; nothing else may. */
function mayAlias(a: Leaf, b: Leaf): boolean {
  for (const armA of a.arms) {
    const union = armA.slice(0, armA.lastIndexOf("|"));
    const armB = b.arms.find((x) => x.startsWith(`${union}|`));
    if (armB !== undefined && armB !== armA) return true;
  }
  return false;
}

function checkLeaves(decl: LayoutDecl, leaves: Leaf[]): void {
  const fail = (msg: string) => {
    throw new LayoutDefinitionError(`layout ${decl.name}: ${msg}`);
  };
  const seen = new Set<string>();
  for (const l of leaves) {
    if (seen.has(l.path)) fail(`field ${l.path} declared twice`);
    seen.add(l.path);
    if (l.width < 1 || !Number.isInteger(l.width)) fail(`field ${l.path} has width ${l.width}`);
    if (l.bit < 0 || l.bit + l.width > decl.bytes * 8) {
      fail(
        `field ${l.path} (bits ${l.bit}..${l.bit + l.width - 1}) runs past the end (${decl.bytes * 8} bits)`,
      );
    }
    if (l.kind === "f32" && l.width !== 32) fail(`f32 field ${l.path} must be 32 bits wide`);
    if (l.kind === "const" && (l.value === undefined || l.value < 0 || l.value >= 2 ** l.width)) {
      fail(`constant ${l.path} = ${l.value} does not fit ${l.width} bits`);
    }
    if (l.zeroMeans !== undefined) checkZeroMeans(l, fail);
  }
  const sorted = [...leaves].sort((a, b) => a.bit - b.bit);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i] as Leaf;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j] as Leaf;
      if (b.bit >= a.bit + a.width) break;
      if (!mayAlias(a, b)) fail(`fields ${a.path} and ${b.path} overlap at bit ${b.bit}`);
    }
  }
}

/** A raw 0 may stand only for a value the bits cannot hold otherwise, on a narrow unsigned field. */
function checkZeroMeans(l: Leaf, fail: (msg: string) => never): void {
  const z = l.zeroMeans as number;
  if (l.kind !== "uint" || l.width > 32) fail(`field ${l.path}: zeroMeans needs a uint of at most 32 bits`);
  if (!Number.isSafeInteger(z) || z < 2 ** l.width)
    fail(
      `field ${l.path}: zeroMeans ${z} is not an integer ≥ 2^${l.width} (a value ${l.width} bits cannot hold)`,
    );
}

class CompiledLayout {
  readonly name: string;
  readonly bytes: number;
  readonly doc: string;
  readonly source: string;
  private readonly byPath: Map<string, Leaf>;
  /** Bytes whose set bits are covered by some leaf; the rest must be zero. */
  private readonly declaredMask: Uint8Array;
  /** Constants outside any union: always written. */
  private readonly plainConsts: readonly Leaf[];
  private readonly hasUnions: boolean;
  private readonly readers = new Map<string, FieldReader>();

  constructor(
    decl: LayoutDecl,
    readonly leaves: readonly Leaf[],
  ) {
    this.name = decl.name;
    this.bytes = decl.bytes;
    this.doc = decl.doc;
    this.source = decl.source;
    this.byPath = new Map(leaves.map((l) => [l.path, l]));
    this.plainConsts = leaves.filter((l) => l.kind === "const" && l.arms.length === 0);
    this.hasUnions = leaves.some((l) => l.arms.length > 0);
    this.declaredMask = new Uint8Array(decl.bytes);
    for (const l of leaves)
      for (let b = l.bit; b < l.bit + l.width; b++) this.declaredMask[b >> 3]! |= 1 << (b & 7);
  }

  field(path: string): FieldReader {
    let r = this.readers.get(path);
    if (r === undefined) {
      r = compileReader(this.name, this.leaf(path));
      this.readers.set(path, r);
    }
    return r;
  }

  matches(bytes: Uint8Array, offset = 0): boolean {
    if (offset < 0 || bytes.length - offset < this.bytes) return false;
    for (const l of this.plainConsts) if (readRaw(bytes, offset, l) !== l.value) return false;
    return true;
  }

  wellFormed(bytes: Uint8Array, offset = 0): boolean {
    this.checkLength(bytes, offset);
    for (const l of this.leaves)
      if (l.arms.length === 0 && leafFault(l, readRaw(bytes, offset, l)) !== undefined) return false;
    for (let i = 0; i < this.bytes; i++)
      if (((bytes[offset + i] as number) & ~(this.declaredMask[i] as number) & 0xff) !== 0) return false;
    return true;
  }

  leaf(path: string): Leaf {
    const l = this.byPath.get(path);
    if (l === undefined)
      throw new FieldError(this.name, path, undefined, {
        allowed: "a field of this layout",
        detail: unknownField(path, [...this.byPath.keys()]),
      });
    return l;
  }

  encode(values: Readonly<Record<string, unknown>>): Uint8Array {
    const out = new Uint8Array(this.bytes);
    this.encodeInto(values, out, 0);
    return out;
  }

  encodeInto(values: Readonly<Record<string, unknown>>, out: Uint8Array, offset = 0): void {
    checkBytesArg(this.name, "out", out, offset);
    if (offset + this.bytes > out.length) {
      throw new RangeError(
        `${this.name}: no room for ${this.bytes} bytes at offset ${offset} of ${out.length}`,
      );
    }
    out.fill(0, offset, offset + this.bytes);
    for (const l of this.plainConsts) writeRaw(out, offset, l, l.value as number);
    if (isFlat(values) && (!this.hasUnions || this.noArmGiven(values))) {
      // Hot path (descriptor building): flat names, none inside a union arm, so no arm constants
      // to set and no two given views that could disagree.
      for (const path in values) {
        const l = this.leaf(path);
        writeRaw(out, offset, l, toBits(this.name, l, values[path]));
      }
      return;
    }
    const chosen: [Leaf, unknown][] = [];
    for (const [path, raw] of givenValues(values)) chosen.push([this.leaf(path), raw]);
    const armsInUse = new Set(chosen.flatMap(([l]) => l.arms));
    for (const l of this.leaves) {
      // A constant inside a union arm belongs to that view: set it only when the caller uses it.
      if (l.kind === "const" && l.arms.length > 0 && l.arms.every((a) => armsInUse.has(a))) {
        writeRaw(out, offset, l, l.value as number);
      }
    }
    const normalised: [Leaf, number | bigint, unknown][] = [];
    for (const [l, raw] of chosen) {
      const bits = toBits(this.name, l, raw);
      writeRaw(out, offset, l, bits);
      normalised.push([l, bits, raw]);
    }
    // Union arms alias: two given fields of different arms must agree on every shared bit.
    for (const [l, bits, raw] of normalised) {
      if (readRaw(out, offset, l) !== bits) {
        const other = normalised.find(([o]) => o !== l && o.bit < l.bit + l.width && l.bit < o.bit + o.width);
        throw new FieldError(this.name, l.path, raw, {
          allowed: "a value that agrees with the aliased arm",
          detail: `conflicts with ${other?.[0].path ?? "a constant"} on the same bits`,
        });
      }
    }
  }

  /** No given field lies in a union arm (a compute descriptor's fields, without its position view). */
  private noArmGiven(values: Readonly<Record<string, unknown>>): boolean {
    for (const path in values) if (this.leaf(path).arms.length > 0) return false;
    return true;
  }

  decode(bytes: Uint8Array, offset = 0): Fields {
    this.checkLength(bytes, offset);
    const fields: Fields = {};
    for (const l of this.leaves) fields[l.path] = fromBits(l, readRaw(bytes, offset, l));
    return fields;
  }

  read(path: string, bytes: Uint8Array, offset = 0): FieldValue {
    this.checkLength(bytes, offset);
    return fromBits(this.leaf(path), readRaw(bytes, offset, this.leaf(path)));
  }

  issues(bytes: Uint8Array, offset = 0): DecodeIssue[] {
    this.checkLength(bytes, offset);
    const out: DecodeIssue[] = [];
    // Which arm of a union is live is known to the reader (an ADDR4 marker, the op of a cce_info),
    // not to the layout: checks inside union arms belong to that reader.
    for (const l of this.leaves) {
      if (l.arms.length > 0) continue;
      const raw = readRaw(bytes, offset, l);
      const kind = leafFault(l, raw);
      if (kind === undefined) continue;
      const value = fromBits(l, raw);
      const at = `bits ${l.bit}..${l.bit + l.width - 1}`;
      if (kind === "reserved") out.push(reservedIssue(l, value));
      else {
        const message =
          kind === "const"
            ? `constant ${l.path} (${at}) is ${raw}, expected ${l.value}`
            : `${l.path} (${at}) = ${raw} is not a known value`;
        out.push({ kind, field: l.path, bit: l.bit, width: l.width, value, message });
      }
    }
    for (let b = 0; b < this.bytes * 8; ) {
      const stray =
        ((bytes[offset + (b >> 3)] as number) & ~(this.declaredMask[b >> 3] as number) & (1 << (b & 7))) !==
        0;
      if (!stray) {
        b++;
        continue;
      }
      let end = b;
      while (
        end + 1 < this.bytes * 8 &&
        ((bytes[offset + ((end + 1) >> 3)] as number) &
          ~(this.declaredMask[(end + 1) >> 3] as number) &
          (1 << ((end + 1) & 7))) !==
          0
      )
        end++;
      out.push({
        kind: "undeclared",
        field: `bits ${b}..${end}`,
        bit: b,
        width: end - b + 1,
        value: true,
        message: `undeclared bits ${b}..${end} are set`,
      });
      b = end + 1;
    }
    return out;
  }

  private checkLength(bytes: Uint8Array, offset: number): void {
    checkBytesArg(this.name, "bytes", bytes, offset);
    if (bytes.length - offset < this.bytes) {
      throw new DecodeError(`${this.name} is ${this.bytes} bytes; got ${Math.max(0, bytes.length - offset)}`);
    }
  }
}

/**
 * A layout reads and writes bytes: `arg` must be a Uint8Array (a Uint16Array would be read element by
 * element as if bytes) and `offset` a non-negative integer (NaN or 0.5 would index nothing).
 * @throws TypeError / RangeError naming the layout and the argument.
 */
function checkBytesArg(layout: string, arg: string, bytes: unknown, offset: unknown): void {
  if (!(bytes instanceof Uint8Array)) {
    const got = bytes === null ? "null" : typeof bytes === "object" ? bytes.constructor?.name : typeof bytes;
    throw new TypeError(`${layout}: ${arg} must be a Uint8Array, got ${got}`);
  }
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0)
    throw new RangeError(`${layout}: offset ${String(offset)} is not a non-negative integer`);
}

/** The issue a reserved field that is not zero raises (for readers that check union arms). */
/** What is wrong with a leaf outside a union that reads `raw` ({@link Layout.issues}), or undefined. */
function leafFault(l: Leaf, raw: number | bigint): "reserved" | "const" | "enum" | undefined {
  if (l.kind === "reserved" && raw !== 0 && raw !== 0n) return "reserved";
  if (l.kind === "const" && raw !== l.value) return "const";
  if (l.kind === "enum" && l.names?.[raw as number] === undefined) return "enum";
  return undefined;
}

export function reservedIssue(l: Leaf, value: FieldValue): DecodeIssue {
  const at = `bits ${l.bit}..${l.bit + l.width - 1}`;
  return {
    kind: "reserved",
    field: l.path,
    bit: l.bit,
    width: l.width,
    value,
    message: `reserved ${l.path} (${at}) is ${value}, not 0`,
  };
}

function readRaw(bytes: Uint8Array, base: number, l: Leaf): number | bigint {
  if (l.width <= 32) return readBits(bytes, base, l.bit, l.width);
  if (l.width === 64) {
    // Addresses: two 32-bit reads are far cheaper than a byte-wise bigint assembly.
    const lo = readBits(bytes, base, l.bit, 32);
    const hi = readBits(bytes, base, l.bit + 32, 32);
    return (BigInt(hi) << 32n) | BigInt(lo);
  }
  return readBigBits(bytes, base, l.bit, l.width);
}

function writeRaw(bytes: Uint8Array, base: number, l: Leaf, v: number | bigint): void {
  if (l.width <= 32) writeBits(bytes, base, l.bit, l.width, Number(v));
  else if (l.width === 64) {
    const big = BigInt(v);
    writeBits(bytes, base, l.bit, 32, Number(big & 0xffffffffn));
    writeBits(bytes, base, l.bit + 32, 32, Number(big >> 32n));
  } else writeBigBits(bytes, base, l.bit, l.width, BigInt(v));
}

function fromBits(l: Leaf, raw: number | bigint): FieldValue {
  switch (l.kind) {
    case "bool":
      return raw !== 0;
    case "f32":
      return f32FromBits(raw as number);
    case "int":
      if (typeof raw === "bigint") return BigInt.asIntN(l.width, raw);
      return raw >= 2 ** (l.width - 1) ? raw - 2 ** l.width : raw;
    case "uint":
      return raw === 0 && l.zeroMeans !== undefined ? l.zeroMeans : raw;
    default:
      return raw;
  }
}

function refuse(layout: string, l: Leaf, v: unknown, allowed: string, detail?: string): never {
  throw new FieldError(layout, l.path, v, { allowed, detail });
}

/** Check and convert one given value to the field's raw bits. */
function toBits(layout: string, l: Leaf, v: unknown): number | bigint {
  if (typeof v === "boolean" && l.kind === "bool") return v ? 1 : 0;
  // Fast path: an in-range integer for a narrow unsigned field (most descriptor fields).
  if (
    typeof v === "number" &&
    (l.kind === "uint" || l.kind === "enum") &&
    l.width <= 32 &&
    l.zeroMeans === undefined
  ) {
    if (
      Number.isInteger(v) &&
      v >= 0 &&
      v < 2 ** l.width &&
      (l.kind === "uint" || l.names?.[v] !== undefined)
    )
      return v;
  }
  const bad = (allowed: string, detail?: string): never => refuse(layout, l, v, allowed, detail);
  switch (l.kind) {
    case "bool":
      if (typeof v === "boolean") return v ? 1 : 0;
      if (v === 0 || v === 1) return v;
      return bad("true | false", `${JSON.stringify(v)} is not a boolean`);
    case "f32":
      // Exact bits as "0x" + hex: how −0, NaN (with its payload) and ±Inf cross JSON.
      if (typeof v === "string" && /^0x[0-9a-f]{1,8}$/i.test(v)) return Number.parseInt(v.slice(2), 16);
      if (typeof v !== "number")
        return bad(
          "a number or binary32 bits as 0x…",
          `${JSON.stringify(v)} is not a number or binary32 bits as 0x…`,
        );
      if (Number.isFinite(v) && !Number.isFinite(Math.fround(v)))
        return bad("a binary32 value", `${v} overflows binary32`);
      return f32ToBits(v);
    case "enum": {
      const names = l.names ?? {};
      const known = () =>
        Object.entries(names)
          .map(([k, n]) => `${k} (${n})`)
          .join(", ");
      let code = v;
      if (typeof v === "string") {
        const hit = Object.entries(names).find(([, n]) => n.toLowerCase() === v.toLowerCase());
        code =
          hit === undefined ? bad(`one of ${known()}`, `unknown name ${JSON.stringify(v)}`) : Number(hit[0]);
      }
      if (typeof code !== "number" || names[code] === undefined) {
        return bad(`one of ${known()}`, `${JSON.stringify(v)} is not one of ${known()}`);
      }
      return code;
    }
    case "const":
      if (v !== l.value) bad(`${l.value}`, `is the constant ${l.value}; got ${JSON.stringify(v)}`);
      return l.value as number;
    default: {
      const big = toBigInt(v) ?? bad("an integer", `${JSON.stringify(v)} is not an integer`);
      if (l.kind === "reserved" && big !== 0n) bad("0", `is reserved and must be 0; got ${v}`);
      if (l.zeroMeans !== undefined) return zeroMeansBits(l, big, bad);
      const min = l.kind === "int" ? -(2n ** BigInt(l.width - 1)) : 0n;
      const max = l.kind === "int" ? 2n ** BigInt(l.width - 1) - 1n : 2n ** BigInt(l.width) - 1n;
      if (big < min || big > max) bad(`${min}..${max}`);
      const raw = BigInt.asUintN(l.width, big);
      return l.width <= 32 ? Number(raw) : raw;
    }
  }
}

/** A zeroMeans leaf's raw bits: its special value is written as 0, and 0 itself has no encoding. */
function zeroMeansBits(l: Leaf, big: bigint, bad: (allowed: string, detail?: string) => never): number {
  const z = l.zeroMeans as number;
  if (big === BigInt(z)) return 0;
  if (big === 0n) bad(`1..${z}`, `0 is out of range 1..${z}: the raw 0 means ${z}`);
  if (big < 0n || big >= 2n ** BigInt(l.width)) bad(`1..${z}`);
  return Number(big);
}

function toBigInt(v: unknown): bigint | undefined {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (typeof v === "string" && /^(-?\d+|0x[0-9a-f]+)$/i.test(v.trim())) return BigInt(v.trim());
  return undefined;
}

function isFlat(values: Readonly<Record<string, unknown>>): boolean {
  for (const k in values) {
    const v = values[k];
    if (v !== null && typeof v === "object") return false;
  }
  return true;
}

/** Accept flat dotted keys or nested objects / arrays; give flat dotted keys. */
function* givenValues(values: Readonly<Record<string, unknown>>): Generator<[string, unknown]> {
  for (const k in values) {
    const v = values[k];
    if (v !== null && typeof v === "object") yield* givenValues(prefixed(k, v as Record<string, unknown>));
    else yield [k, v];
  }
}

function prefixed(prefix: string, v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in v) out[`${prefix}.${k}`] = v[k];
  return out;
}
/** "unknown field", with the closest path, or the path whose last name is closest (`lenght` → `len_ctrl.length`). */
function unknownField(path: string, paths: readonly string[]): string {
  const direct = didYouMean(path, paths);
  if (direct !== "") return `unknown field${direct}`;
  const byLast = new Map(paths.map((p) => [p.slice(p.lastIndexOf(".") + 1), p] as const).reverse());
  return `unknown field${didYouMean(path, byLast.keys(), (n) => byLast.get(n) as string)}`;
}
