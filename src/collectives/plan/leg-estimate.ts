/**
 * How many legs a plan emits for the ranks below `issuers`, worked out from its shape (chunks,
 * channels, steps) without emitting it: what a timing-only run weighs before it schedules. Not
 * exact — a step's legs are taken as the average over the steps where only some ranks are emitted
 * (a folded plan), a fan-out as its widest and a mesh's pulls as its peers × the channels of the
 * largest chunk — but never far below the count, and computed in time in proportion to the ranks.
 */
import { UsageError } from "../../bits/errors.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { kangaGroupSize } from "./build-plan.js";
import { exchangeGeometry, isExchange } from "./exchange.js";
import { RING_SLICES } from "./group-ring.js";
import { type ElemRange, splitRange } from "./partition.js";
import type { AlgorithmName } from "./plan.js";
import { channelsFor, type PlanRequest } from "./plan-request.js";

/** The non-empty parts of `range` cut into `parts` (splitRange's empty ones emit no leg). */
function filled(range: ElemRange, parts: number, eb: number): number {
  if (range.count === 0) return 0;
  return splitRange(range, parts, eb).filter((r) => r.count > 0).length;
}

/** Per chunk (a rank's, or a ring group's) its range: the all-reduce's split, else count / chunks each. */
function chunksOf(req: PlanRequest, chunks: number): ElemRange[] {
  if (req.collective === "allr")
    return splitRange({ start: 0, count: req.count }, chunks, dtypeBytes(req.dtype));
  const per = req.count / req.topology.ranks;
  const g = req.topology.ranks / chunks;
  return Array.from({ length: chunks }, (_, c) => ({ start: c * g * per, count: g * per }));
}

function ringLegs(req: PlanRequest, g: number, issuers: number): number {
  const eb = dtypeBytes(req.dtype);
  const G = req.topology.ranks / g;
  let slices = 0;
  for (const chunk of chunksOf(req, G))
    for (const piece of splitRange(chunk, g, eb))
      slices += filled(piece, RING_SLICES * channelsFor(req, piece.count, RING_SLICES), eb);
  const reducing = req.collective !== "allg";
  const rs = reducing ? Math.max(1, G - 1) : 0;
  const own = g > 1 || req.collective === "allg" ? g : 0;
  const ag = req.collective === "redsct" ? 0 : (G - 1) * g;
  return ((rs + own + ag) * slices * issuers) / req.topology.ranks;
}

function meshLegs(req: PlanRequest, issuers: number): number {
  const eb = dtypeBytes(req.dtype);
  const n = req.topology.ranks;
  const chunks = chunksOf(req, n);
  let pulls = 0;
  for (const chunk of chunks) pulls += filled(chunk, channelsFor(req, chunk.count, 1), eb);
  const maxSources = req.topology.profile.maxCceSources;
  const batches = 1 + Math.ceil(Math.max(0, n - maxSources) / (maxSources - 1));
  const rs = req.collective === "allg" ? 0 : (pulls * batches * issuers) / n;
  const ag = req.collective === "redsct" ? 0 : pulls * issuers;
  return rs + ag;
}

function rdhLegs(req: PlanRequest, issuers: number): number {
  const n = req.topology.ranks;
  const L = Math.round(Math.log2(n));
  const block = req.collective === "allr" ? Math.ceil(req.count / n) : req.count / n;
  let legs = 0;
  // After reduce-scatter step k a rank holds 2^(L−1−k) blocks, one leg per channel over them.
  for (let k = 0; k < L; k++) legs += channelsFor(req, block * 2 ** (L - 1 - k), 1);
  const steps = req.collective === "allr" ? 2 : 1;
  // allg first copies its own block into its output.
  const own = req.collective === "allg" ? channelsFor(req, block, 1) : 0;
  return issuers * (steps * Math.max(1, legs) + own);
}

/** Each algorithm's estimate, beside its planner's shape (a new algorithm: its row here too). */
const ALGORITHM_LEGS: Readonly<Record<AlgorithmName, (req: PlanRequest, issuers: number) => number>> = {
  ring: (req, issuers) => ringLegs(req, 1, issuers),
  kangaring: (req, issuers) => ringLegs(req, kangaGroupSize(req), issuers),
  mesh: meshLegs,
  rdh: rdhLegs,
};

/**
 * About the legs `req`'s plan emits for the ranks below `issuers` (see the module doc).
 * @example estimateLegs({ topology: buildTopology(archProfile("trn2"), 16384, 256), collective:
 *   "allr", algorithm: "rdh", dtype: Dtype.BFLOAT16, op: "sum", count: 1 << 29 }); // ≈ 14.7 M
 */
export function estimateLegs(req: PlanRequest, issuers = req.topology.ranks): number {
  const n = req.topology.ranks;
  if (req.count === 0) return 0;
  if (req.collective === "sendrecv") return issuers * channelsFor(req, req.count, 1);
  if (isExchange(req.collective)) {
    const g = exchangeGeometry({ ...req, collective: req.collective });
    return issuers * n * channelsFor(req, Math.ceil(g.output / n), 1);
  }
  return ALGORITHM_LEGS[req.algorithm](req, issuers);
}

/**
 * The most legs a schedule places (2^27, 134 M; a bound of the simulator, not of the device): at
 * 0.2–5 µs a leg (a Ring's repeating steps to an unfolded RDH's) a few minutes at most; past it a
 * run is refused, not left to run for hours or out of memory (Ring over 16384 ranks × 1 MB, which
 * does not fold: 1.0 G legs).
 */
export const MAX_SCHEDULE_LEGS = 2 ** 27;

/** A plan too large to schedule: its estimated legs and the bound (a UsageError: `auto` skips none). */
export class ScheduleTooLargeError extends UsageError {
  override name = "ScheduleTooLargeError";
  constructor(
    message: string,
    readonly legs: number,
    readonly bound: number,
  ) {
    super(message);
  }
}

/**
 * Refuse a plan whose schedule would place more than {@link MAX_SCHEDULE_LEGS} legs: `legs`, its
 * {@link estimateLegs} for the ranks it places (one node's where it folds: `folded`).
 * @throws ScheduleTooLargeError naming the estimate, the bound and what would fit.
 */
export function checkScheduleLegs(req: PlanRequest, legs: number, folded: boolean): void {
  if (legs <= MAX_SCHEDULE_LEGS) return;
  const t = req.topology;
  const why =
    folded || t.nodes < 2
      ? ""
      : `; it does not fold onto one node's ${t.ranks / t.nodes} ranks (a count of whole 32-byte granules, a multiple of ${t.nodes} nodes, folds for ring, kangaring and mesh; of ${t.ranks} ranks for rdh)`;
  throw new ScheduleTooLargeError(
    `${req.collective} ${req.algorithm} over ${t.ranks} ranks × ${req.count} elements: an estimated ` +
      `${Math.round(legs)} legs to schedule, at most ${MAX_SCHEDULE_LEGS}${why}: use fewer ranks, another size or another --algo`,
    legs,
    MAX_SCHEDULE_LEGS,
  );
}
