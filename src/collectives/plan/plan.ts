/**
 * A collective as data: legs the runtime can build (a plain copy, add_dma_packet; or a reduce-copy,
 * add_dma_packet_cce — seed 000 §8, seed 002 §4), each run by one rank's DMA queue, each reading and
 * writing element ranges of the ranks' input / output / scratch buffers. Legs are listed in an order
 * that respects their dependencies (`after`), so executing them in order is always correct; the
 * timing model overlaps them as far as `after` and the queues allow.
 */
import type { Dtype } from "../../spec/dtype.js";

/**
 * The collectives, algorithms and reductions, each listed once: the types, the CLI's choices and
 * help, the web page's selects and `auto`'s candidates all derive from these lists (an algorithm is
 * one entry here plus its planner in build-plan.ts).
 */
export const COLLECTIVES = [
  "allr",
  "allg",
  "redsct",
  "sendrecv",
  "alltoall",
  "alltoallv",
  "allgv",
  "permute",
] as const;
export type CollectiveName = (typeof COLLECTIVES)[number];
/** In the order `auto` tries them (the first wins a tie). */
export const ALGORITHMS = ["ring", "kangaring", "mesh", "rdh"] as const;
export type AlgorithmName = (typeof ALGORITHMS)[number];
/** The reduction a collective applies; `avg` is a sum with every input pre-multiplied by 1/n (NCCL PreMulSum). */
export const REDUCE_OPS = ["sum", "max", "min", "avg"] as const;
export type ReduceOp = (typeof REDUCE_OPS)[number];
export type BufferName = "input" | "output" | "scratch";

/** A buffer's index (input 0, output 1, scratch 2): for tables per buffer in hot loops. */
export function bufferIndex(buffer: BufferName): number {
  return buffer === "input" ? 0 : buffer === "output" ? 1 : 2;
}

/** The first element of a range in one rank's buffer. */
export interface BufRef {
  readonly rank: number;
  readonly buffer: BufferName;
  readonly elem: number;
}

/** A reference a planner moves from one lent leg to the next (see `LegSink`). */
export type MovableRef = { -readonly [K in keyof BufRef]: BufRef[K] };

/** A source of a leg; `scale` is the FP32 FMA scale of that source (avg only). */
export interface LegSource {
  readonly ref: BufRef;
  readonly scale?: number;
}

/**
 * `copy`: add_dma_packet, one source, one destination. `reduce-copy`: add_dma_packet_cce with the
 * plan's op over the sources. `duplicate`: add_dma_packet_cce ADD of one source into several
 * destinations (the combo path's replication, arch > 2) — the 1R2W all-gather step. `sb2sb-copy` /
 * `sb2sb-reduce`: an exchange between LNC2 partners as an SB2SB leg staged through SBUF
 * (sb2sb-legs.ts); a reduce's sources are [incoming, local], the engine's order.
 */
export const LEG_KINDS = ["copy", "reduce-copy", "duplicate", "sb2sb-copy", "sb2sb-reduce"] as const;
export type LegKind = (typeof LEG_KINDS)[number];

/** A count of legs by kind, every kind at 0. */
export const noLegKinds = (): Record<LegKind, number> =>
  Object.fromEntries(LEG_KINDS.map((kind) => [kind, 0])) as Record<LegKind, number>;

export interface Leg {
  /** Index in {@link Plan.legs}. */
  readonly id: number;
  /** The algorithm step this leg belongs to (for reports and link sharing). */
  readonly step: number;
  readonly kind: LegKind;
  /** The rank whose DMA queue runs the leg. */
  readonly rank: number;
  /** The queue (= DMA engine, one channel) of that rank. */
  readonly queue: number;
  readonly srcs: readonly LegSource[];
  /** One destination, or several (CCE replication, arch > 2: the 1R2W duplication). */
  readonly dsts: readonly BufRef[];
  /** Elements moved (each source and each destination holds this many). */
  readonly count: number;
  /** Legs whose writes this leg reads: it starts after they end. */
  readonly after: readonly number[];
}

export interface Plan {
  readonly collective: CollectiveName;
  readonly algorithm: AlgorithmName;
  readonly ranks: number;
  /** Physical cores per rank (topology.ts): a leg's queue indexes the engines of all of them. */
  readonly lnc: 1 | 2;
  readonly dtype: Dtype;
  readonly op: ReduceOp;
  /** Elements per rank of each buffer. */
  readonly sizes: Readonly<Record<BufferName, number>>;
  readonly legs: readonly Leg[];
}
