/**
 * Ranks are NeuronCores on chips in nodes. Ranks fill a node's chips core by core, nodes in order,
 * and the ring visits ranks in that order, so most hops stay on a chip, one per chip boundary goes
 * chip to chip and one per node boundary (plus the wrap) goes node to node.
 */
import { UsageError } from "../bits/errors.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import { ARCH_LINKS, type ArchLinks, type LinkClass } from "./links.js";

export interface RankPlace {
  readonly node: number;
  readonly chip: number;
  readonly core: number;
}

export interface Topology {
  readonly profile: ArchProfile;
  readonly links: ArchLinks;
  readonly ranks: number;
  readonly nodes: number;
  /** Where each rank sits. */
  readonly places: readonly RankPlace[];
}

/** The most ranks one collective may span (nccom-test runs up to a few thousand; we cap for memory). */
export const MAX_RANKS = 4096;

/**
 * Lay `ranks` NeuronCores over `nodes` nodes of an arch.
 * @throws UsageError when ranks is not 1..MAX_RANKS, nodes does not divide ranks, or a node would
 * need more cores than its chips have.
 * @example buildTopology(archProfile("trn2"), 8).places[7]; // { node: 0, chip: 0, core: 7 }
 */
export function buildTopology(profile: ArchProfile, ranks: number, nodes = 1): Topology {
  if (!Number.isInteger(ranks) || ranks < 1 || ranks > MAX_RANKS) {
    throw new UsageError(`ranks ${ranks}: expected an integer 1..${MAX_RANKS}`);
  }
  if (!Number.isInteger(nodes) || nodes < 1 || ranks % nodes !== 0) {
    throw new UsageError(`nodes ${nodes}: expected a positive integer that divides ranks (${ranks})`);
  }
  const links = ARCH_LINKS[profile.name];
  const perNode = ranks / nodes;
  const capacity = links.coresPerChip * links.chipsPerNode;
  if (perNode > capacity) {
    throw new UsageError(
      `${perNode} ranks per node: a ${profile.name} node has ${links.chipsPerNode} chips × ${links.coresPerChip} cores = ${capacity}`,
    );
  }
  const places: RankPlace[] = [];
  for (let r = 0; r < ranks; r++) {
    const k = r % perNode;
    places.push({
      node: Math.floor(r / perNode),
      chip: Math.floor(k / links.coresPerChip),
      core: k % links.coresPerChip,
    });
  }
  return { profile, links, ranks, nodes, places };
}

function place(t: Topology, rank: number): RankPlace {
  const p = t.places[rank];
  if (p === undefined) throw new UsageError(`rank ${rank}: expected 0..${t.ranks - 1}`);
  return p;
}

/** The class of link between two ranks. */
export function linkClass(t: Topology, a: number, b: number): LinkClass {
  if (a === b) return "local";
  const pa = place(t, a);
  const pb = place(t, b);
  if (pa.node !== pb.node) return "node-to-node";
  return pa.chip === pb.chip ? "intra-chip" : "chip-to-chip";
}

/**
 * The shared resource a transfer between two ranks occupies, named so that transfers crossing the
 * same physical link get the same name: a chip's HBM for intra-chip (and local) traffic, one
 * directed chip-to-chip link, or the sending node's network interface.
 */
export function linkResource(t: Topology, from: number, to: number): string {
  const pf = place(t, from);
  const pt = place(t, to);
  if (pf.node !== pt.node) return `efa:${pf.node}`;
  if (pf.chip !== pt.chip) return `c2c:${pf.node}.${pf.chip}>${pt.chip}`;
  return `hbm:${pf.node}.${pf.chip}`;
}

/**
 * The LNC2 partner of a rank (NC0-NC1, NC2-NC3, … — seed 002 §7.1), or undefined when the partner
 * is missing or on another chip.
 */
export function lnc2Partner(t: Topology, rank: number): number | undefined {
  const partner = rank ^ 1;
  if (partner >= t.ranks) return undefined;
  const a = place(t, rank);
  const b = place(t, partner);
  return a.node === b.node && a.chip === b.chip ? partner : undefined;
}
