/**
 * A descriptor before it has a ring slot: its layout and fields, plus the chain position flags the
 * ring writer stamps with the ring phase (spec/packet-model.ts). One function maps the position
 * onto the bytes, for both descriptor families: the UDMA views (len_ctrl ring_id / first / last /
 * dmb) and the compute descriptors (meta_idx bits 1:0 phase, 2 FIRST, 3 LAST, 6 DMB).
 */
import type { Layout } from "../bits/index.js";
import { META_IDX_DMB, META_IDX_FIRST, META_IDX_LAST, META_IDX_RING_ID_MASK } from "../spec/packet-model.js";

export type RingSide = "tx" | "rx";

export interface DescriptorSpec {
  readonly ring: RingSide;
  readonly layout: Layout;
  /** Every field but the position fields (len_ctrl.ring_id/first/last/dmb, meta_idx). */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The layout of the meta-control word this descriptor carries, for printing it. */
  readonly metaLayout?: Layout;
  readonly first: boolean;
  readonly last: boolean;
  readonly dmb: boolean;
}

/** A packet: the TX (M2S) chain and the RX (S2M) chain, in ring order. */
export interface Packet {
  readonly tx: readonly DescriptorSpec[];
  readonly rx: readonly DescriptorSpec[];
}

/** Mark the first and last descriptor of a chain (FIRST / LAST) and DMB on the first when asked. */
export function chain(
  ring: RingSide,
  items: readonly Omit<DescriptorSpec, "ring" | "first" | "last" | "dmb">[],
  dmb = false,
): DescriptorSpec[] {
  return items.map((d, i) => ({
    ...d,
    ring,
    first: i === 0,
    last: i === items.length - 1,
    dmb: dmb && i === 0,
  }));
}

/** True for the UDMA views (len_ctrl in W0); false for the compute descriptors (meta_idx in W0). */
function hasLenCtrl(layout: Layout): boolean {
  return layout.leaves.some((l) => l.path === "len_ctrl.ring_id");
}

/**
 * The 16 bytes of a descriptor written at a slot whose ring phase is `phase`.
 * @throws FieldError when a field is out of range for the layout.
 */
export function encodeDescriptor(
  d: DescriptorSpec,
  phase: number,
  out: Uint8Array = new Uint8Array(16),
  offset = 0,
): Uint8Array {
  const position = hasLenCtrl(d.layout)
    ? {
        "len_ctrl.ring_id": phase & 3,
        "len_ctrl.first": d.first,
        "len_ctrl.last": d.last,
        "len_ctrl.dmb": d.dmb,
      }
    : {
        meta_idx:
          (phase & META_IDX_RING_ID_MASK) |
          (d.first ? META_IDX_FIRST : 0) |
          (d.last ? META_IDX_LAST : 0) |
          (d.dmb ? META_IDX_DMB : 0),
      };
  d.layout.encodeInto({ ...d.fields, ...position }, out, offset);
  return out;
}
