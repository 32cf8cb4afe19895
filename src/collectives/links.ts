/**
 * The links between NeuronCores, per arch: how ranks sit on chips and nodes, and what each hop
 * costs. Kept here (keyed by arch name) rather than in the HAL profile so that the topology numbers
 * of the collectives live in one table beside the cost model that reads them.
 *
 * Public figures (../shared/GROUND_TRUTH.md "Figures for a timing model") are marked [C]; the rest
 * are MODEL choices with their reason in docs/FIDELITY.md.
 */
import type { ArchName } from "../hal/arch-profile.js";

/** Where two ranks sit relative to each other, from nearest to farthest. */
export type LinkClass = "local" | "intra-chip" | "chip-to-chip" | "node-to-node";

export interface LinkSpec {
  /** Bandwidth of one such link in bytes/ns, shared by every transfer crossing it at once. */
  readonly bytesPerNs: number;
  /** Latency a transfer pays to start after a semaphore from the far side (hop latency). */
  readonly latencyNs: number;
}

export interface ArchLinks {
  /** NeuronCores on one chip ([C]: Trn1 2, Trn2 / Trn3 8). */
  readonly coresPerChip: number;
  /** Chips in one node (MODEL: 16, the trn1.32xlarge / trn2.48xlarge instance). */
  readonly chipsPerNode: number;
  readonly links: Readonly<Record<Exclude<LinkClass, "local">, LinkSpec>>;
}

/**
 * Chip-to-chip: [C] aggregate per chip (Trn1 384 GB/s, Trn2 1.28 TB/s, Trn3 2.56 TB/s), MODEL split
 * over 4 links of a 2-D torus, so a ring hop gets a quarter. Intra-chip: a transfer between two cores
 * of one chip goes through that chip's HBM ([C] Trn1 820 GB/s, Trn2 2.9 TB/s, Trn3 4.9 TB/s).
 * Node-to-node: MODEL from the public EFA figures (trn1.32xlarge 800 Gbit/s, trn2.48xlarge
 * 3.2 Tbit/s; Trn3 taken as Trn2). Hop latency: [C] 1–2 µs inside a node (1 µs on a chip, 2 µs
 * between chips), ≈ 15 µs between nodes.
 */
export const ARCH_LINKS: Readonly<Record<ArchName, ArchLinks>> = {
  trn1: {
    coresPerChip: 2,
    chipsPerNode: 16,
    links: {
      "intra-chip": { bytesPerNs: 820, latencyNs: 1000 },
      "chip-to-chip": { bytesPerNs: 384 / 4, latencyNs: 2000 },
      "node-to-node": { bytesPerNs: 100, latencyNs: 15000 },
    },
  },
  trn2: {
    coresPerChip: 8,
    chipsPerNode: 16,
    links: {
      "intra-chip": { bytesPerNs: 2900, latencyNs: 1000 },
      "chip-to-chip": { bytesPerNs: 1280 / 4, latencyNs: 2000 },
      "node-to-node": { bytesPerNs: 400, latencyNs: 15000 },
    },
  },
  trn3: {
    coresPerChip: 8,
    chipsPerNode: 16,
    links: {
      "intra-chip": { bytesPerNs: 4900, latencyNs: 1000 },
      "chip-to-chip": { bytesPerNs: 2560 / 4, latencyNs: 2000 },
      "node-to-node": { bytesPerNs: 400, latencyNs: 15000 },
    },
  },
};
