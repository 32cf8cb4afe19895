/**
 * The links between NeuronCores, per arch: how ranks sit on chips and nodes, and what each hop
 * costs. The per-chip figures the HAL profile carries (cores per chip, HBM and chip-to-chip
 * bandwidth) are read from it, not restated; what only the collectives need (chips and NICs per
 * node, the chip network, hop latencies, EFA) is declared here.
 *
 * Public figures (../shared/GROUND_TRUTH.md "Figures for a timing model") are marked [C]; the rest
 * are MODEL choices with their reason in docs/FIDELITY.md.
 */
import { type ArchName, archProfile } from "../../hal/arch-profile.js";
import { CHIP_PORTS } from "./route.js";

/** Where two ranks sit relative to each other, from nearest to farthest. */
export type LinkClass = "local" | "intra-chip" | "chip-to-chip" | "node-to-node";

export interface LinkSpec {
  /** Bandwidth of one such link in bytes/ns, shared by every transfer crossing it at once. */
  readonly bytesPerNs: number;
  /** Latency a transfer pays to start after a semaphore from the far side (hop latency). */
  readonly latencyNs: number;
}

export interface ArchLinks {
  /** Chips in one node (MODEL: 16, the trn1.32xlarge / trn2.48xlarge instance). */
  readonly chipsPerNode: number;
  /** EFA NICs per node; chip c sends and receives on NIC ⌊c · nics / chipsPerNode⌋. */
  readonly nicsPerNode: number;
  /** How the chips of a node are wired: each chip has 4 links (route.ts). */
  readonly chipNetwork: "hypercube-4d" | "torus-4x4";
  /**
   * Intra-chip: the chip's HBM. Chip-to-chip: one direction of one link (a transfer crosses every
   * link of its route). Node-to-node: one EFA NIC, each way.
   */
  readonly links: Readonly<Record<Exclude<LinkClass, "local">, LinkSpec>>;
}

/** The HAL profile's per-chip figures as links: its HBM, and one direction of one of its 4 chip links. */
function chipLinks(arch: ArchName): Pick<ArchLinks["links"], "intra-chip" | "chip-to-chip"> {
  const p = archProfile(arch);
  return {
    "intra-chip": { bytesPerNs: p.hbmBytesPerNs, latencyNs: 1000 },
    "chip-to-chip": { bytesPerNs: p.chipToChipBytesPerNs / CHIP_PORTS, latencyNs: 2000 },
  };
}

/**
 * Chip-to-chip: [C] aggregate per chip (Trn1 384 GB/s, Trn2 1.28 TB/s, Trn3 2.56 TB/s; the profile's
 * chipToChipBytesPerNs) over 4 links
 * ([C] Trn1 NeuronLink-v2 is a 4-D hypercube; Trn2 a 2-D torus; Trn3 MODEL as Trn2); MODEL: the
 * aggregate is per direction, so one direction of one link gets a quarter. Intra-chip: a transfer between two cores
 * of one chip goes through that chip's HBM ([C] Trn1 820 GB/s, Trn2 2.9 TB/s, Trn3 4.9 TB/s; the
 * profile's hbmBytesPerNs).
 * Node-to-node: per NIC, each direction. [C] trn1.32xlarge has 8 EFA devices, 800 Gbit/s in all
 * (8 × 100 Gbit/s = 12.5 GB/s each; trn1n.32xlarge 16 × 100). [C] trn2.48xlarge 3.2 Tbit/s EFAv3;
 * MODEL: one NIC per chip, 16 × 200 Gbit/s = 25 GB/s each (the NIC count is not in our sources);
 * Trn3 taken as Trn2. Hop latency: [C] 1–2 µs inside a node (1 µs on a chip, 2 µs between chips),
 * ≈ 15 µs between nodes.
 */
export const ARCH_LINKS: Readonly<Record<ArchName, ArchLinks>> = {
  trn1: {
    chipsPerNode: 16,
    nicsPerNode: 8,
    chipNetwork: "hypercube-4d",
    links: {
      ...chipLinks("trn1"),
      "node-to-node": { bytesPerNs: 12.5, latencyNs: 15000 },
    },
  },
  trn2: {
    chipsPerNode: 16,
    nicsPerNode: 16,
    chipNetwork: "torus-4x4",
    links: {
      ...chipLinks("trn2"),
      "node-to-node": { bytesPerNs: 25, latencyNs: 15000 },
    },
  },
  trn3: {
    chipsPerNode: 16,
    nicsPerNode: 16,
    chipNetwork: "torus-4x4",
    links: {
      ...chipLinks("trn3"),
      "node-to-node": { bytesPerNs: 25, latencyNs: 15000 },
    },
  },
};
