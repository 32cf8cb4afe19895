/**
 * How ranks sit on chips and nodes, per arch: chips and NICs a node, and how a node's chips are
 * wired. What each hop costs — bandwidths and latencies — is not here: it is a timing parameter
 * (timing-params.ts, the one place a link's figures are set, each with its source), which
 * buildTopology joins to this wiring as a topology's links.
 *
 * Public figures (../shared/GROUND_TRUTH.md "Figures for a timing model") are marked [C]; the rest
 * are MODEL choices with their reason in docs/FIDELITY.md.
 */
import type { ArchName } from "../../hal/arch-profile.js";

/** Where two ranks sit relative to each other, from nearest to farthest. */
export type LinkClass = "local" | "intra-chip" | "chip-to-chip" | "node-to-node";

export interface LinkSpec {
  /** Bandwidth of one such link in bytes/ns, shared by every transfer crossing it at once. */
  readonly bytesPerNs: number;
  /** Latency a transfer pays to start after a semaphore from the far side (hop latency). */
  readonly latencyNs: number;
}

/** How an arch's nodes are built: the part of its links that is not a timing parameter. */
export interface ArchWiring {
  /** Chips in one node (MODEL: 16, the trn1.32xlarge / trn2.48xlarge instance). */
  readonly chipsPerNode: number;
  /** EFA NICs per node; chip c sends and receives on NIC ⌊c · nics / chipsPerNode⌋. */
  readonly nicsPerNode: number;
  /** How the chips of a node are wired: each chip has 4 links (route.ts). */
  readonly chipNetwork: "hypercube-4d" | "torus-4x4";
}

/** A topology's links: the arch's wiring and, from its timing parameters, what each hop costs. */
export interface ArchLinks extends ArchWiring {
  /**
   * Intra-chip: the chip's HBM. Chip-to-chip: one direction of one link (a transfer crosses every
   * link of its route). Node-to-node: one EFA NIC, each way.
   */
  readonly links: Readonly<Record<Exclude<LinkClass, "local">, LinkSpec>>;
}

/**
 * [C] Trn1 NeuronLink-v2 is a 4-D hypercube; Trn2 a 2-D torus; Trn3 MODEL as Trn2. [C]
 * trn1.32xlarge has 8 EFA devices (trn1n.32xlarge 16); MODEL: trn2.48xlarge one NIC per chip (the
 * NIC count is not in our sources); Trn3 taken as Trn2.
 */
export const ARCH_WIRING: Readonly<Record<ArchName, ArchWiring>> = {
  trn1: { chipsPerNode: 16, nicsPerNode: 8, chipNetwork: "hypercube-4d" },
  trn2: { chipsPerNode: 16, nicsPerNode: 16, chipNetwork: "torus-4x4" },
  trn3: { chipsPerNode: 16, nicsPerNode: 16, chipNetwork: "torus-4x4" },
};
