/**
 * What a planner is asked for, the per-collective buffer shapes, and the MODEL choice of how many
 * DMA channels a rank spreads a piece over — the shared vocabulary of the algorithm files.
 */
import { UsageError } from "../../bits/errors.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import type { Topology } from "../topology/topology.js";
import { type ExchangeSpec, exchangeGeometry, isExchange } from "./exchange.js";
import type { AlgorithmName, BufferName, CollectiveName, ReduceOp } from "./plan.js";

export interface PlanRequest {
  readonly topology: Topology;
  readonly collective: CollectiveName;
  readonly algorithm: AlgorithmName;
  readonly dtype: Dtype;
  readonly op: ReduceOp;
  /**
   * The nccom-test count: elements per rank for allr and sendrecv; all ranks' elements for redsct
   * (the input of each rank) and allg (the output of each rank) — a multiple of the rank count; for
   * the exchanges (exchange.ts) each rank's output (allgv: a multiple of the rank count) and input.
   */
  readonly count: number;
  /** permute's pairs, alltoallv / allgv's metadata (exchange.ts). */
  readonly exchange?: ExchangeSpec;
  /** Build LNC2 pair exchanges as SB2SB legs where the pair allows (sb2sb-legs.ts); default off. */
  readonly sb2sb?: boolean;
}

/** Elements per rank of each buffer. Scratch holds ring partials, one slot per input element. */
export function bufferSizes(req: PlanRequest): Record<BufferName, number> {
  const n = req.topology.ranks;
  const { count } = req;
  if (!Number.isInteger(count) || count < 0) throw new UsageError(`count ${count}: expected an integer ≥ 0`);
  if (isExchange(req.collective)) {
    const g = exchangeGeometry({ ...req, collective: req.collective });
    return { input: g.input, output: g.output, scratch: 0 };
  }
  if ((req.collective === "redsct" || req.collective === "allg") && count % n !== 0) {
    throw new UsageError(`${req.collective} count ${count} must be a multiple of the rank count ${n}`);
  }
  switch (req.collective) {
    case "allr":
      return { input: count, output: count, scratch: count };
    case "redsct":
      return { input: count, output: count / n, scratch: count };
    case "allg":
      return { input: count / n, output: count, scratch: 0 };
    default:
      return { input: count, output: count, scratch: 0 };
  }
}

/** MODEL: the least bytes worth a DMA channel of its own ([C] "≥ 4 KiB to saturate" an engine). */
export const MIN_CHANNEL_BYTES = 4096;

/**
 * MODEL: a rank spreads each piece over as many of its DMA engines (one queue each) as give every
 * channel-slice at least {@link MIN_CHANNEL_BYTES}, up to the engines the rank drives (16 per
 * physical core, × LNC).
 */
export function channelsFor(req: PlanRequest, pieceElems: number, slices: number): number {
  const bytes = pieceElems * dtypeBytes(req.dtype);
  const want = Math.floor(bytes / (slices * MIN_CHANNEL_BYTES));
  return Math.min(req.topology.channelsPerRank, Math.max(1, want));
}

/** The FP32 scale every input gets under `avg` (PreMulSum), 1 otherwise. */
export function inputScale(req: PlanRequest): number | undefined {
  return req.op === "avg" ? Math.fround(1 / req.topology.ranks) : undefined;
}
