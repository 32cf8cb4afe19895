/**
 * The CCE ring-packet grammar as data: which descriptors a compute packet puts on its TX and RX
 * rings, in what order, and how each is told from its bytes (the prose is in packet-model.ts). The
 * runtime's builders walk it (runtime/builders/cce-packet.ts, runtime/builders/gradient-packet.ts), the engine reads
 * a fetched TX chain through it ({@link matchCceTx}, engine/decode/packet-plan.ts; pinned by
 * test/spec/ring-packet.test.ts for every packet kind), and {@link cceDescriptorCount} counts it for
 * the timing model.
 *
 *   TX: [seed-init] [min-max] { [fma] source }×sources [gradient] [replication]×(dests − 1)
 *   RX: rx
 */
import type { FieldReader, Layout } from "../bits/index.js";

import {
  FMA_DESC,
  GRADIENT_DESC,
  MIN_MAX_DESC,
  REPLICATION_DESC,
  REPLICATION_META_CLASS,
  SEED_INIT_DESC,
  UDMA_RX,
  UDMA_TX,
} from "./layouts/index.js";

/** The op of a compute packet: the four CCE ops and the GCE (gradient) packet. */
export type PacketOp = "add" | "fma" | "min" | "max" | "gce";

/** What decides a packet's descriptors. */
export interface PacketShape {
  readonly op: PacketOp;
  readonly sources: number;
  readonly dests: number;
  /** Stochastic rounding on the ring: the seed-init descriptor loads the seed. */
  readonly sr: boolean;
  /** MIN/MAX clamp against cce_info's constant. */
  readonly useConst?: boolean;
  /** The EXT combo packet (default: more than one destination, seed 000 §5.1). */
  readonly combo?: boolean;
}

/** The kinds of descriptor a compute packet holds. */
export type DescriptorKind = "seed-init" | "min-max" | "fma" | "source" | "gradient" | "replication" | "rx";

/** When a step is present, and how many times it repeats. */
type Presence = "always" | "sr-or-combo" | "use-const" | "combo";
type Repeat = "once" | "each-source" | "each-extra-dest";

interface Step {
  readonly kind: DescriptorKind;
  readonly layout: Layout;
  /**
   * The descriptor's 16 bytes are this step's kind (its layout's constants, and what else tells
   * it: the packet-model.ts prose). Asked only where the grammar allows the kind.
   */
  readonly recognise: (bytes: Uint8Array) => boolean;
  /** The fields `recognise` reads besides its layout's constants (`matches`) and `issues`. */
  readonly reads?: readonly FieldReader[];
  /** The ops whose packets hold it (every op when absent). */
  readonly ops?: readonly PacketOp[];
  readonly when: Presence;
  readonly repeat: Repeat;
}

/** sub_desc 3: the descriptor loads its sub-descriptor (seed-init's seed, min-max's constant). */
export const SUB_DESC_LOAD = 3;
/** sub_desc 2: seed-init's combo-member flag alone (seed 000 §5.1). */
export const SUB_DESC_COMBO_MEMBER = 2;

const TX_HAS_META = UDMA_TX.field("len_ctrl.has_meta");
const RX_HAS_META = UDMA_RX.field("len_ctrl.has_meta");
const SEED_SUB = SEED_INIT_DESC.field("sub_desc");
const MM_SUB = MIN_MAX_DESC.field("sub_desc");
const REPLICATION_OP = REPLICATION_DESC.field("meta.op");
const REPLICATION_OPTYPE = REPLICATION_DESC.field("meta.optype");

/** A compute descriptor (W0 has_meta); every kind but `source` is one. */
const isCompute = (b: Uint8Array): boolean => TX_HAS_META.read(b) === true;

/** The TX chain, in ring order. Consecutive `each-source` steps repeat together, source by source. */
export const CCE_TX_GRAMMAR: readonly Step[] = [
  {
    kind: "seed-init",
    layout: SEED_INIT_DESC,
    // W1 nothing but sub_desc 3 (the seed) or 2 (the combo-member flag), W2 zero.
    recognise: (b) => {
      const sub = SEED_SUB.read(b);
      return (
        SEED_INIT_DESC.matches(b) &&
        (sub === SUB_DESC_LOAD || sub === SUB_DESC_COMBO_MEMBER) &&
        SEED_INIT_DESC.wellFormed(b)
      );
    },
    reads: [SEED_SUB],
    when: "sr-or-combo",
    repeat: "once",
  },
  {
    kind: "min-max",
    layout: MIN_MAX_DESC,
    recognise: (b) => MIN_MAX_DESC.matches(b) && MM_SUB.read(b) === SUB_DESC_LOAD,
    reads: [MM_SUB],
    ops: ["min", "max"],
    when: "use-const",
    repeat: "once",
  },
  {
    kind: "fma",
    layout: FMA_DESC,
    recognise: (b) => FMA_DESC.matches(b),
    ops: ["fma"],
    when: "always",
    repeat: "each-source",
  },
  {
    kind: "source",
    layout: UDMA_TX,
    recognise: (b) => !isCompute(b),
    reads: [TX_HAS_META],
    when: "always",
    repeat: "each-source",
  },
  {
    kind: "gradient",
    layout: GRADIENT_DESC,
    recognise: (b) => GRADIENT_DESC.matches(b),
    ops: ["gce"],
    when: "always",
    repeat: "once",
  },
  {
    kind: "replication",
    layout: REPLICATION_DESC,
    recognise: (b) =>
      REPLICATION_DESC.matches(b) &&
      REPLICATION_OP.read(b) === REPLICATION_META_CLASS.op &&
      REPLICATION_OPTYPE.read(b) === REPLICATION_META_CLASS.optype,
    reads: [REPLICATION_OP, REPLICATION_OPTYPE],
    when: "combo",
    repeat: "each-extra-dest",
  },
];

/** The RX chain: one descriptor for destination 0 carrying the S2M meta-control. */
export const CCE_RX_GRAMMAR: readonly Step[] = [
  {
    kind: "rx",
    layout: UDMA_RX,
    recognise: (b) => RX_HAS_META.read(b) === true,
    reads: [RX_HAS_META],
    when: "always",
    repeat: "once",
  },
];

/** The kinds whose W2..W3 hold an address (a source, an extra destination, the GCE header). */
export const ADDRESS_KINDS: ReadonlySet<DescriptorKind> = new Set([
  "source",
  "replication",
  "gradient",
  "rx",
]);

/**
 * The kind of a TX descriptor as the grammar tells it from its bytes, any op: the first step that
 * recognises it (data descriptors are sources). Undefined: a compute descriptor of no known kind.
 */
export function txKindOf(bytes: Uint8Array): DescriptorKind | undefined {
  for (const step of CCE_TX_GRAMMAR) if (step.recognise(bytes)) return step.kind;
  return undefined;
}

/** A fetched descriptor: its first two words as numbers, its bytes only when asked for. */
export interface FetchedWords {
  readonly w0: number;
  readonly w1: number;
  readonly bytes: Uint8Array;
}

/** The steps whose `recognise` first asks their layout's `matches` (every kind but `source`). */
const MATCHES_FIRST: ReadonlySet<DescriptorKind> = new Set([
  "seed-init",
  "min-max",
  "fma",
  "gradient",
  "replication",
]);
/** The steps whose `recognise` also asks that their layout find no `issues` (seed-init). */
const ISSUES_FREE: ReadonlySet<DescriptorKind> = new Set(["seed-init"]);

/**
 * Of each TX step, the bits of W0 and W1 a descriptor it recognises must hold, and their values
 * (all zero: no test), as [mask W0, value W0, mask W1, value W1]: its layout's constant leaves
 * (`matches`) and, where `issues` must find nothing, its reserved bits and the bits no leaf
 * declares, all zero. A descriptor whose words differ there is not that step's kind. Leaving a bit
 * out would only let more descriptors through to `recognise`: the kind stays exact.
 */
const WORD_CONSTS: readonly (readonly number[])[] = CCE_TX_GRAMMAR.map((step) => {
  const c = [0, 0, 0, 0];
  if (!MATCHES_FIRST.has(step.kind)) return c;
  const fix = (b: number, one: boolean) => {
    const w = 2 * (b >> 5);
    c[w] = ((c[w] as number) | (1 << (b & 31))) >>> 0;
    if (one) c[w + 1] = ((c[w + 1] as number) | (1 << (b & 31))) >>> 0;
  };
  const declared = new Set<number>();
  for (const l of step.layout.leaves) {
    for (let b = l.bit; b < Math.min(64, l.bit + l.width); b++) {
      declared.add(b);
      const plain = l.arms.length === 0;
      if (plain && l.kind === "const" && l.value !== undefined)
        fix(b, Math.floor(l.value / 2 ** (b - l.bit)) % 2 === 1);
      else if (plain && l.kind === "reserved" && ISSUES_FREE.has(step.kind)) fix(b, false);
    }
  }
  if (ISSUES_FREE.has(step.kind)) for (let b = 0; b < 64; b++) if (!declared.has(b)) fix(b, false);
  return c;
});

/**
 * Of each TX step, the bits of W0..W3 its `recognise` reads, as four word masks: every bit where
 * `issues` must find nothing; else its layout's constant leaves (`matches`) and the fields it
 * `reads`.
 */
const READ_MASKS: readonly Uint32Array[] = CCE_TX_GRAMMAR.map((step) => {
  const m = new Uint32Array(4);
  if (ISSUES_FREE.has(step.kind)) return m.fill(0xffffffff);
  const consts = MATCHES_FIRST.has(step.kind)
    ? step.layout.leaves.filter((l) => l.kind === "const" && l.arms.length === 0)
    : [];
  for (const l of [...consts, ...(step.reads ?? []).map((r) => r.leaf)])
    for (let b = l.bit; b < l.bit + l.width; b++) m[b >> 5] = ((m[b >> 5] as number) | (1 << (b & 31))) >>> 0;
  return m;
});

/**
 * {@link txKindOf} of a fetched descriptor, the same kind: a step whose constants W0 and W1 fail is
 * passed over on the words alone, so the bytes are read (and the layouts' checks run) only for the
 * steps the words allow — the engine asks it for every compute descriptor of every packet. With
 * `read` (four word masks, the caller clears them), ORs in the bits of W0..W3 it read: any
 * descriptor with the same bits there is of the same kind, whatever its other bits (an address in
 * W2..W3 a step never looks at).
 */
export function txKindOfWords(d: FetchedWords, read?: Uint32Array): DescriptorKind | undefined {
  for (let i = 0; i < CCE_TX_GRAMMAR.length; i++) {
    const c = WORD_CONSTS[i] as readonly number[];
    if (read !== undefined) {
      read[0] = ((read[0] as number) | (c[0] as number)) >>> 0;
      read[1] = ((read[1] as number) | (c[2] as number)) >>> 0;
    }
    if ((d.w0 & (c[0] as number)) >>> 0 !== c[1] || (d.w1 & (c[2] as number)) >>> 0 !== c[3]) continue;
    const step = CCE_TX_GRAMMAR[i] as Step;
    if (read !== undefined) {
      const m = READ_MASKS[i] as Uint32Array;
      for (let w = 0; w < 4; w++) read[w] = ((read[w] as number) | (m[w] as number)) >>> 0;
    }
    if (step.recognise(d.bytes)) return step.kind;
  }
  return undefined;
}

/** A TX chain read through the grammar: its slots, or where it departs and what the grammar wanted. */
export type CceTxMatch =
  | { readonly slots: readonly PacketSlot[] }
  | { readonly at: number; readonly expected: DescriptorKind | "end" };

/**
 * Read a fetched TX chain of an `op` packet through {@link CCE_TX_GRAMMAR}: each step, in order,
 * takes the next descriptor when it recognises it; a step that must be there and is not, or a
 * descriptor left after the last step, is where the chain departs from the grammar.
 */
export function matchCceTx(op: PacketOp, tx: readonly Uint8Array[]): CceTxMatch {
  const steps = CCE_TX_GRAMMAR.filter((g) => g.ops === undefined || g.ops.includes(op));
  const slots: PacketSlot[] = [];
  let i = 0;
  const take = (step: Step, index: number): boolean => {
    const b = tx[i];
    if (b === undefined || !step.recognise(b)) return false;
    slots.push({ kind: step.kind, layout: step.layout, index });
    i++;
    return true;
  };
  for (let g = 0; g < steps.length; ) {
    const step = steps[g] as Step;
    if (step.repeat === "each-source") {
      let end = g;
      while (steps[end]?.repeat === "each-source") end++;
      const group = steps.slice(g, end);
      for (
        let k = 0;
        k === 0 || (tx[i] !== undefined && (group[0] as Step).recognise(tx[i] as Uint8Array));
        k++
      )
        for (const s of group) if (!take(s, k)) return { at: i, expected: s.kind };
      g = end;
      continue;
    }
    if (step.repeat === "once") {
      if (!take(step, 0) && step.when === "always") return { at: i, expected: step.kind };
    } else for (let d = 1; take(step, d); d++);
    g++;
  }
  return i === tx.length ? { slots } : { at: i, expected: "end" };
}

/** A packet with more than one destination is the EXT combo packet (seed 000 §5.1). */
export const isCombo = (s: PacketShape): boolean => s.combo ?? s.dests > 1;

function present(step: Step, s: PacketShape): boolean {
  if (step.ops !== undefined && !step.ops.includes(s.op)) return false;
  switch (step.when) {
    case "always":
      return true;
    case "sr-or-combo":
      return s.sr || isCombo(s);
    case "use-const":
      return s.useConst === true;
    case "combo":
      return isCombo(s);
  }
}

/** One descriptor of a walked packet: its kind, its layout, and the source or destination it serves. */
export interface PacketSlot {
  readonly kind: DescriptorKind;
  readonly layout: Layout;
  /** The source index (`each-source` steps) or destination index (`each-extra-dest`, from 1). */
  readonly index: number;
}

function walk(grammar: readonly Step[], s: PacketShape): PacketSlot[] {
  const out: PacketSlot[] = [];
  for (let i = 0; i < grammar.length; ) {
    const step = grammar[i] as Step;
    if (step.repeat === "each-source") {
      let end = i;
      while (grammar[end]?.repeat === "each-source") end++;
      const group = grammar.slice(i, end).filter((g) => present(g, s));
      for (let k = 0; k < s.sources; k++)
        for (const g of group) out.push({ kind: g.kind, layout: g.layout, index: k });
      i = end;
      continue;
    }
    if (present(step, s)) {
      if (step.repeat === "once") out.push({ kind: step.kind, layout: step.layout, index: 0 });
      else for (let d = 1; d < s.dests; d++) out.push({ kind: step.kind, layout: step.layout, index: d });
    }
    i++;
  }
  return out;
}

/** The descriptors of a compute packet, TX and RX, in ring order. */
export function cceDescriptors(s: PacketShape): { readonly tx: PacketSlot[]; readonly rx: PacketSlot[] } {
  return { tx: walk(CCE_TX_GRAMMAR, s), rx: walk(CCE_RX_GRAMMAR, s) };
}

/** How many descriptors a compute packet puts on its rings (TX + RX): what the engine executes. */
export function cceDescriptorCount(s: PacketShape): number {
  const { tx, rx } = cceDescriptors(s);
  return tx.length + rx.length;
}
