/**
 * A paste of several 16-byte descriptors read as a ring: each descriptor guessed on its own
 * (layout-guess.ts), in order, and grouped into packets the way the DMA engine reads them — a packet
 * opens at a descriptor with len_ctrl FIRST and closes at one with LAST (spec/packet-model.ts); the
 * TX grammar (spec/ring-packet.ts) names each TX descriptor's part of its packet.
 */
import type { Layout } from "../../src/bits/index.js";
import { type DescriptorKind, txKindOf, UDMA_RX, UDMA_TX } from "../../src/spec/index.js";
import { guessLayouts } from "./layout-guess.js";

/** Every ring descriptor is this long. */
export const DESCRIPTOR_BYTES = 16;

/** One descriptor of a pasted ring. */
export interface RingSlot {
  readonly slot: number;
  readonly offset: number;
  readonly bytes: Uint8Array;
  /** Its guessed layout (undefined: no 16-byte layout has its constant bits). */
  readonly layout: Layout | undefined;
  /** Its part of a CCE packet, for a TX descriptor the grammar knows. */
  readonly kind: DescriptorKind | undefined;
  /** The packet it belongs to (0, 1, …), counted from FIRST; undefined outside any packet. */
  readonly packet: number | undefined;
  readonly first: boolean;
  readonly last: boolean;
  /** True when the layout reads it without a reserved, constant, enum or undeclared issue. */
  readonly clean: boolean;
}

/** Whether `length` bytes may be a ring: two or more whole descriptors. */
export const mayBeRing = (length: number): boolean =>
  length > DESCRIPTOR_BYTES && length % DESCRIPTOR_BYTES === 0;

/** The chain position flags, read through the udma-tx declaration. */
const FIRST = UDMA_TX.field("len_ctrl.first");
const LAST = UDMA_TX.field("len_ctrl.last");

/** The descriptors of `bytes` (a multiple of 16 long), in order, each guessed and placed in its packet. */
export function guessRing(bytes: Uint8Array): RingSlot[] {
  const slots: RingSlot[] = [];
  let packet = -1;
  let open = false;
  for (let offset = 0; offset + DESCRIPTOR_BYTES <= bytes.length; offset += DESCRIPTOR_BYTES) {
    const b = bytes.slice(offset, offset + DESCRIPTOR_BYTES);
    const lenCtrl = new DataView(b.buffer).getUint32(0, true);
    const first = FIRST.isSet(lenCtrl);
    const last = LAST.isSet(lenCtrl);
    if (first) {
      packet++;
      open = true;
    }
    const layout = guessLayouts(b)[0];
    slots.push({
      slot: slots.length,
      offset,
      bytes: b,
      layout,
      kind: layout === undefined || layout === UDMA_RX ? undefined : txKindOf(b),
      packet: open ? packet : undefined,
      first,
      last,
      clean: layout !== undefined && layout.issues(b).length === 0,
    });
    if (last) open = false;
  }
  return slots;
}

/** What a slot is, in one line: `#2 +0x20 udma-tx (source) · packet 0 ends`. */
export function slotLine(s: RingSlot): string {
  const where = s.packet === undefined ? "outside a packet" : `packet ${s.packet}`;
  const edge = s.first && s.last ? " (whole)" : s.first ? " starts" : s.last ? " ends" : "";
  return `#${s.slot} +0x${s.offset.toString(16)} ${s.layout?.name ?? "no layout"}${s.kind === undefined ? "" : ` (${s.kind})`} · ${where}${edge}`;
}
