/**
 * The CCE ring-packet grammar as data: which descriptors a compute packet puts on its TX and RX
 * rings, in what order (the prose is in packet-model.ts). The runtime's builders walk it
 * (runtime/cce-packet.ts, runtime/gradient-packet.ts), the engine's planner recognises the same
 * order (engine/packet-plan.ts, pinned by test/spec/ring-packet.test.ts for every packet kind),
 * and {@link cceDescriptorCount} counts it for the timing model.
 *
 *   TX: [seed-init] [min-max] { [fma] source }×sources [gradient] [replication]×(dests − 1)
 *   RX: rx
 */
import type { Layout } from "../bits/index.js";
import {
  FMA_DESC,
  GRADIENT_DESC,
  MIN_MAX_DESC,
  REPLICATION_DESC,
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
  /** The ops whose packets hold it (every op when absent). */
  readonly ops?: readonly PacketOp[];
  readonly when: Presence;
  readonly repeat: Repeat;
}

/** The TX chain, in ring order. Consecutive `each-source` steps repeat together, source by source. */
export const CCE_TX_GRAMMAR: readonly Step[] = [
  { kind: "seed-init", layout: SEED_INIT_DESC, when: "sr-or-combo", repeat: "once" },
  { kind: "min-max", layout: MIN_MAX_DESC, ops: ["min", "max"], when: "use-const", repeat: "once" },
  { kind: "fma", layout: FMA_DESC, ops: ["fma"], when: "always", repeat: "each-source" },
  { kind: "source", layout: UDMA_TX, when: "always", repeat: "each-source" },
  { kind: "gradient", layout: GRADIENT_DESC, ops: ["gce"], when: "always", repeat: "once" },
  { kind: "replication", layout: REPLICATION_DESC, when: "combo", repeat: "each-extra-dest" },
];

/** The RX chain: one descriptor for destination 0 carrying the S2M meta-control. */
export const CCE_RX_GRAMMAR: readonly Step[] = [
  { kind: "rx", layout: UDMA_RX, when: "always", repeat: "once" },
];

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
