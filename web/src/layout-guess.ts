/**
 * Which layout a byte string is: the layouts of its length whose constant bits all hold, ranked by
 * what tells them apart — first whether the layout's own tell holds (below: what the builders always
 * write into a descriptor of that kind beyond its constants; a layout with none is not demoted), then
 * the most constant bits (a layout with more fixed bits is the more specific match), then a tell that
 * held over having none (a ring descriptor over an ISA operand of the same 16 bytes, tensor3d, which
 * has neither constants nor a tell), then the fewest other issues, then `sdmakit layouts` order.
 *
 * Constant bits alone cannot tell the two UDMA data views apart (udma-tx and udma-rx share len_ctrl
 * and have no constant), and an RX with has_meta set fits the replication descriptor's constants.
 * The tells are the packet grammar's recognisers (spec/ring-packet.ts) for the compute descriptors,
 * and for the data views the word the builders put in W1; none reads FIRST / LAST, which an RX
 * descriptor need not carry: an RX with them set (udma-rx does not declare those bits, so it has one
 * issue more) is still guessed as udma-rx, not as the issue-free tensor3d.
 */
import type { Layout } from "../../src/bits/index.js";
import { wordBytes } from "../../src/runtime/index.js";
import {
  ADD_META,
  CCE_RX_GRAMMAR,
  CCE_TX_GRAMMAR,
  EXT_META,
  LAYOUTS,
  UDMA_RX,
  UDMA_TX,
  UDMA_TX_META,
} from "../../src/spec/index.js";

const HAS_META = UDMA_TX.field("len_ctrl.has_meta");
const TX_META_CTRL = UDMA_TX.field("meta_ctrl");
const RX_BUF2_LO = UDMA_RX.field("buf2_ptr_lo");
const RX_EMBEDDED_SEM = UDMA_RX.field("len_ctrl.embedded_sem");
/** The S2M meta-control an RX with has_meta carries in buf2_ptr_lo (one destination, or EXT combo). */
const RX_META_LAYOUTS: readonly Layout[] = [ADD_META, EXT_META];

type Tell = (bytes: Uint8Array) => boolean;

const carriesRxMeta: Tell = (b) =>
  RX_META_LAYOUTS.some((l) => l.matches(wordBytes(RX_BUF2_LO.read(b) as number)));

/** What marks a descriptor of each kind, by layout name. */
const TELLS: ReadonlyMap<string, Tell> = new Map<string, Tell>([
  ...[...CCE_TX_GRAMMAR, ...CCE_RX_GRAMMAR]
    .filter((step) => step.layout !== UDMA_TX && step.layout !== UDMA_RX)
    .map((step) => [step.layout.name, step.recognise] as const),
  // An M2S data descriptor always carries a meta-control word (a copy's 0x01080003, a CCE source
  // its op's word) and never has_meta, which marks the compute descriptors.
  [UDMA_TX.name, (b) => HAS_META.read(b) === false && TX_META_CTRL.read(b) !== 0],
  // The driver's M2S meta descriptor: len_ctrl bit 23 (AL_M2S_DESC_META_DATA, udma.h), and — the
  // builders write none — W1 not the S2M meta-control of an RX with has_meta.
  [UDMA_TX_META.name, (b) => HAS_META.read(b) === true && !carriesRxMeta(b)],
  // An S2M descriptor: with has_meta, the S2M meta-control in buf2_ptr_lo; with len_ctrl bit 31, an
  // embedded-semaphore write there (spec/packet-model.ts); with neither, no second buffer.
  [
    UDMA_RX.name,
    (b) => {
      if (HAS_META.read(b) === true) return carriesRxMeta(b);
      return RX_BUF2_LO.read(b) === 0 || RX_EMBEDDED_SEM.read(b) === true;
    },
  ],
]);

/** The layouts these bytes may be, best first; empty when none has their length or constants. */
export function guessLayouts(bytes: Uint8Array): Layout[] {
  const scored = LAYOUTS.filter((l) => l.bytes === bytes.length).flatMap((layout, order) => {
    const issues = layout.issues(bytes);
    if (issues.some((i) => i.kind === "const")) return [];
    const tell = TELLS.get(layout.name);
    const held = tell?.(bytes) ? 1 : 0;
    const told = tell === undefined || held === 1 ? 1 : 0;
    const constBits = layout.leaves.filter((l) => l.kind === "const").reduce((n, l) => n + l.width, 0);
    return [{ layout, told, constBits, held, issues: issues.length, order }];
  });
  scored.sort(
    (a, b) =>
      b.told - a.told ||
      b.constBits - a.constBits ||
      b.held - a.held ||
      a.issues - b.issues ||
      a.order - b.order,
  );
  return scored.map((s) => s.layout);
}

/** The byte sizes that some layout has, for the message when none fits. */
export function layoutSizes(): number[] {
  return [...new Set(LAYOUTS.map((l) => l.bytes))].sort((a, b) => a - b);
}
