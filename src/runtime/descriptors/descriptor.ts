/**
 * A descriptor before it has a ring slot: its layout and fields, plus the chain position flags the
 * ring writer stamps with the ring phase (spec/packet-model.ts). One function maps the position
 * onto the bytes, for both descriptor families: the UDMA views (len_ctrl ring_id, and on M2S first /
 * last / dmb) and the compute descriptors (meta_idx's position view: phase, first, last, dmb).
 */
import {
  type FieldReader,
  type InputOf,
  type Layout,
  LayoutDefinitionError,
  type LayoutNode,
} from "../../bits/index.js";

export type RingSide = "tx" | "rx";

export interface DescriptorSpec {
  readonly ring: RingSide;
  readonly layout: Layout;
  /** Every field but the position fields (len_ctrl.* / position.* ring_id, first, last, dmb; meta_idx). */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The layout of the meta-control word this descriptor carries, for printing it. */
  readonly metaLayout?: Layout;
  readonly first: boolean;
  readonly last: boolean;
  readonly dmb: boolean;
}

/** Marks what only {@link descriptor} makes (a type, no run-time field). */
declare const TYPED_BY_LAYOUT: unique symbol;

/**
 * A descriptor before its chain position is known: what {@link descriptor} makes and {@link chain}
 * takes. Only descriptor() makes one, so no literal reaches a ring with its fields unchecked.
 */
export type DescriptorItem = Omit<DescriptorSpec, "ring" | "first" | "last" | "dmb"> & {
  readonly [TYPED_BY_LAYOUT]: true;
};

/** The position leaves the ring writer stamps (positionWord): never given by a producer. */
type PositionField = `${"len_ctrl" | "position"}.${"ring_id" | "first" | "last" | "dmb"}` | "meta_idx";

/**
 * A descriptor of `layout` with `fields` typed by the layout's declaration: a misspelt field, a
 * field of another layout, a position field or a value of the wrong type does not compile. Every
 * producer builds its descriptors through here; the generic stays in this constructor, so
 * {@link DescriptorSpec} and {@link Packet} stay plain.
 * @param metaLayout the layout of the meta-control word the descriptor carries, for printing it.
 * @example descriptor(UDMA_RX, { "len_ctrl.length": 64, buf1_ptr: 0x2000n })
 */
export function descriptor<F extends readonly LayoutNode[]>(
  layout: Layout<F>,
  fields: Readonly<Omit<InputOf<F>, PositionField>>,
  metaLayout?: Layout,
): DescriptorItem {
  const l = layout as unknown as Layout;
  const item = metaLayout === undefined ? { layout: l, fields } : { layout: l, fields, metaLayout };
  return item as unknown as DescriptorItem;
}

/** A packet: the TX (M2S) chain and the RX (S2M) chain, in ring order. */
export interface Packet {
  readonly tx: readonly DescriptorSpec[];
  readonly rx: readonly DescriptorSpec[];
}

/**
 * Mark the first and last descriptor of a TX chain (FIRST / LAST) and DMB on the first when asked.
 * An RX (S2M) chain carries none of them: the driver gives S2M descriptors no FIRST / LAST
 * (aws-neuron-driver udma.h, udma_m2m_build_rx_descriptor); the engine ends the S2M side of a
 * packet where the stream's bytes end.
 */
export function chain(ring: RingSide, items: readonly DescriptorItem[], dmb = false): DescriptorSpec[] {
  // Built field by field, not by spreading `d`: the items come in several shapes, and a spread
  // over mixed shapes takes V8's slow generic path (≈ 2 µs a descriptor, measured).
  const tx = ring === "tx";
  return items.map((d, i) => {
    const first = tx && i === 0;
    const last = tx && i === items.length - 1;
    const { layout, fields, metaLayout } = d;
    return metaLayout === undefined
      ? { ring, layout, fields, first, last, dmb: dmb && first }
      : { ring, layout, fields, metaLayout, first, last, dmb: dmb && first };
  });
}

/** The position bits (ring phase, FIRST, LAST, DMB) a descriptor carries in its first u32 word. */
type PositionWord = (d: DescriptorSpec, phase: number) => number;

const POSITION_WORDS = new WeakMap<Layout, PositionWord>();

/**
 * Where a layout declares its chain position: the UDMA views in len_ctrl, the compute descriptors
 * in the `position` view of meta_idx (spec/layouts/descriptors.ts).
 */
const POSITION_VIEWS = ["len_ctrl", "position"] as const;

/** The reader of a position leaf, checked to lie in word 0 (where the ring model puts it). */
function word0Field(layout: Layout, path: string): FieldReader {
  const r = layout.field(path);
  if (r.word !== 0 || r.leaf.bit + r.leaf.width > 32)
    throw new LayoutDefinitionError(`${layout.name}: ${path} is not in the first word`);
  return r;
}

/** The mask of a one-bit position leaf in word 0, or 0 when the layout has none (udma-rx: no FIRST / LAST / DMB). */
function word0Mask(layout: Layout, path: string): number {
  return layout.leaves.some((l) => l.path === path) ? 2 ** word0Field(layout, path).shift : 0;
}

/** Compile, once per layout, where the position goes: the view's ring_id, first, last and dmb leaves. */
function positionWord(layout: Layout): PositionWord {
  let fn = POSITION_WORDS.get(layout);
  if (fn !== undefined) return fn;
  const view = POSITION_VIEWS.find((v) => layout.leaves.some((l) => l.path === `${v}.ring_id`));
  if (view === undefined) throw new LayoutDefinitionError(`${layout.name} declares no ring position`);
  const ring = word0Field(layout, `${view}.ring_id`);
  const first = word0Mask(layout, `${view}.first`);
  const last = word0Mask(layout, `${view}.last`);
  const dmb = word0Mask(layout, `${view}.dmb`);
  fn = (d, phase) =>
    ((phase & ring.mask) << ring.shift) | (d.first ? first : 0) | (d.last ? last : 0) | (d.dmb ? dmb : 0);
  POSITION_WORDS.set(layout, fn);
  return fn;
}

/** The position bits ring phase `phase` alone puts in a descriptor's W0 (no FIRST / LAST / DMB). */
export function phaseBits(layout: Layout, phase: number): number {
  return positionWord(layout)(NO_POSITION, phase) >>> 0;
}
const NO_POSITION = { first: false, last: false, dmb: false } as DescriptorSpec;

/**
 * The 16 bytes of a descriptor written at a slot whose ring phase is `phase`: the fields through
 * the layout, then the position bits ORed into word 0 (they are zero after the encode, so this
 * equals encoding them as fields, without building a merged field object per descriptor).
 * @throws FieldError when a field is out of range for the layout.
 */
export function encodeDescriptor(
  d: DescriptorSpec,
  phase: number,
  out: Uint8Array = new Uint8Array(16),
  offset = 0,
): Uint8Array {
  d.layout.encodeInto(d.fields, out, offset);
  const w = positionWord(d.layout)(d, phase);
  out[offset] = (out[offset] as number) | (w & 0xff);
  out[offset + 1] = (out[offset + 1] as number) | ((w >>> 8) & 0xff);
  out[offset + 2] = (out[offset + 2] as number) | ((w >>> 16) & 0xff);
  out[offset + 3] = (out[offset + 3] as number) | (w >>> 24);
  return out;
}
