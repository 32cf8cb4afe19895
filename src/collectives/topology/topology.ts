/**
 * Ranks are *logical* NeuronCores on chips in nodes, as nccom-test counts them
 * (`NEURON_LOGICAL_NC_CONFIG`): at LNC = 2 a rank is a pair of physical cores (seed 002's LNC pairs,
 * NC0-NC1, NC2-NC3, …) and drives both cores' DMA engines. Ranks fill a node's chips logical core by
 * logical core, nodes in order, and the ring visits ranks in that order, so most hops stay on a chip,
 * one per chip boundary goes chip to chip and one per node boundary (plus the wrap) goes node to node.
 */
import { UsageError } from "../../bits/errors.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import { ARCH_WIRING, type ArchLinks, type ArchWiring, type LinkClass } from "./links.js";
import { resolveTiming, type TimingParams } from "./timing-params.js";

export interface RankPlace {
  readonly node: number;
  readonly chip: number;
  /** The logical core on its chip (physical cores lnc·core … lnc·core + lnc − 1). */
  readonly core: number;
}

/** Physical NeuronCores per rank: 1, or 2 (a logical core of an LNC pair). */
export type Lnc = 1 | 2;

export interface Topology {
  readonly profile: ArchProfile;
  readonly links: ArchLinks;
  readonly ranks: number;
  readonly nodes: number;
  /** Physical cores per rank. */
  readonly lnc: Lnc;
  /** DMA channels (engines, one queue each) a rank drives: the engines of its lnc physical cores. */
  readonly channelsPerRank: number;
  /** Where each rank sits. */
  readonly places: readonly RankPlace[];
  /** The timing model's parameters (timing-params.ts); `links` carries the same figures. */
  readonly timing: TimingParams;
}

/**
 * The most ranks one collective may span: 16384, 256 Trn2 nodes of 64 (nccom-test runs up to a few
 * thousand). Past a device's ranks a run is timing-only (checkDeviceRanks), and timing-only holds
 * one node's legs when the plan folds onto a node (timing/node-fold.ts): 16384 ranks × 1 GiB in
 * ≈ 1 GB.
 */
export const MAX_RANKS = 16384;

/** nccom-test's default LNC: 2 where the arch has LNC pairs (Trn2 / Trn3), else 1 (Trn1). */
export function defaultLnc(profile: ArchProfile): Lnc {
  return profile.hasSb2sb ? 2 : 1;
}

/** The LNCs an arch allows: 1, and 2 where it has LNC pairs (Trn2 / Trn3). */
export function lncChoices(profile: ArchProfile): readonly Lnc[] {
  return profile.hasSb2sb ? [1, 2] : [1];
}

/**
 * Check an LNC for an arch. [C] LNC is 1 or 2, and 2 only on Trn2 / Trn3 (the generations with LNC
 * pairs, which are the ones with SB2SB).
 * @throws UsageError naming the value and what the arch allows.
 */
export function checkLnc(profile: ArchProfile, lnc: number): Lnc {
  const allowed = lncChoices(profile);
  if (!(allowed as readonly number[]).includes(lnc)) {
    throw new UsageError(`lnc ${lnc}: ${profile.name} allows ${allowed.join(" or ")}`);
  }
  return lnc as Lnc;
}

/** A topology's logical-core size and its timing parameters beyond the shipped ones. */
export interface TopologyOptions {
  readonly lnc?: number | undefined;
  readonly timing?: Partial<TimingParams> | undefined;
}

/**
 * Lay `ranks` logical NeuronCores (of `lnc` physical cores each) over `nodes` nodes of an arch.
 * @throws UsageError when ranks is not 1..MAX_RANKS, nodes does not divide ranks, lnc is not one the
 * arch has, or a node would need more cores than its chips have.
 * `lnc` defaults to the arch's; `timing` replaces shipped timing parameters (a timing profile's,
 * timing-profile.ts).
 * @example buildTopology(archProfile("trn2"), 8, 1, { lnc: 1 }).places[7]; // { node: 0, chip: 0, core: 7 }
 */
export function buildTopology(
  profile: ArchProfile,
  ranks: number,
  nodes = 1,
  options: TopologyOptions = {},
): Topology {
  const { lnc = defaultLnc(profile), timing = {} } = options;
  if (!Number.isInteger(ranks) || ranks < 1 || ranks > MAX_RANKS) {
    throw new UsageError(`ranks ${ranks}: expected an integer 1..${MAX_RANKS}`);
  }
  if (!Number.isInteger(nodes) || nodes < 1 || ranks % nodes !== 0) {
    throw new UsageError(`nodes ${nodes}: expected a positive integer that divides ranks (${ranks})`);
  }
  const checked = checkLnc(profile, lnc);
  const params = resolveTiming(profile.name, timing);
  const links = linksWith(ARCH_WIRING[profile.name], params);
  const perNode = ranks / nodes;
  const perChip = profile.neuronCores / checked;
  const capacity = perChip * links.chipsPerNode;
  if (perNode > capacity) {
    throw new UsageError(
      `${perNode} ranks per node: a ${profile.name} node at LNC ${checked} has ${links.chipsPerNode} chips × ${perChip} logical cores = ${capacity}`,
    );
  }
  const places: RankPlace[] = [];
  for (let r = 0; r < ranks; r++) {
    const k = r % perNode;
    places.push({
      node: Math.floor(r / perNode),
      chip: Math.floor(k / perChip),
      core: k % perChip,
    });
  }
  const channelsPerRank = profile.dmaEnginesPerCore * checked;
  return { profile, links, ranks, nodes, lnc: checked, channelsPerRank, places, timing: params };
}

/** An arch's wiring with the bandwidths and hop latencies of `p`: the one place a link gets its figures. */
function linksWith(wiring: ArchWiring, p: TimingParams): ArchLinks {
  return {
    ...wiring,
    links: {
      "intra-chip": { bytesPerNs: p.hbmBytesPerNs, latencyNs: p.hopIntraChipNs },
      "chip-to-chip": { bytesPerNs: p.chipLinkBytesPerNs, latencyNs: p.hopChipToChipNs },
      "node-to-node": { bytesPerNs: p.nicBytesPerNs, latencyNs: p.hopNodeToNodeNs },
    },
  };
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
