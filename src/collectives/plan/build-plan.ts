/**
 * The planner entry point: a request becomes a {@link Plan}. Send-recv is a one-step shift along
 * the ring (rank r pulls rank r − 1's input); the exchanges (alltoall, alltoallv, allgv, permute)
 * are direct pulls (exchange-plan.ts); the reducing / gathering collectives go to Ring, KangaRing
 * (LNC2 pairs; over an odd rank count or unpaired cores it is the plain Ring), Mesh or RDH.
 */
import { UsageError } from "../../bits/errors.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { lnc2Partner } from "../topology/topology.js";
import { isExchange } from "./exchange.js";
import { planExchange } from "./exchange-plan.js";
import { planGroupRing } from "./group-ring.js";
import { planMesh } from "./mesh.js";
import { splitRange } from "./partition.js";
import {
  ALGORITHMS,
  type AlgorithmName,
  type BufferName,
  type CollectiveName,
  type Leg,
  type Plan,
} from "./plan.js";
import { type LegSink, normalizingSink, PlanBuilder } from "./plan-builder.js";
import { bufferSizes, channelsFor, type PlanRequest } from "./plan-request.js";
import { planRdh } from "./rdh.js";
import { sb2sbAllowed, sb2sbRewrite } from "./sb2sb-legs.js";

/** KangaRing's group: LNC2 pairs, or 1 (the plain Ring) over an odd rank count or unpaired cores. */
export function kangaGroupSize(req: PlanRequest): number {
  const t = req.topology;
  if (t.ranks % 2 !== 0) return 1;
  for (let r = 0; r < t.ranks; r++) if (lnc2Partner(t, r) === undefined) return 1;
  return 2;
}

/** How an algorithm plans: the collectives it takes, and its legs for a request into a sink. */
interface Planner {
  readonly collectives: readonly CollectiveName[];
  plan(req: PlanRequest, sink: LegSink, issuers: number): void;
}

const REDUCING: readonly CollectiveName[] = ["allr", "redsct", "allg"];

/**
 * Each algorithm's planner (a new algorithm: its name in ALGORITHMS, its planner here and its leg
 * estimate in leg-estimate.ts; both are Records by name, so the compiler asks for the two rows).
 */
const PLANNERS: Readonly<Record<AlgorithmName, Planner>> = {
  ring: { collectives: REDUCING, plan: (req, b, issuers) => planGroupRing(req, 1, b, issuers) },
  kangaring: {
    collectives: REDUCING,
    plan: (req, b, issuers) => planGroupRing(req, kangaGroupSize(req), b, issuers),
  },
  mesh: { collectives: REDUCING, plan: planMesh },
  rdh: { collectives: REDUCING, plan: planRdh },
};

/** The exchanges (exchange-plan.ts) are direct pulls from every peer: a mesh, and only that. */
const EXCHANGE_ALGORITHM: AlgorithmName = "mesh";

/**
 * The algorithms `auto` tries for a collective, in ALGORITHMS' order: those whose planner takes it
 * (send-recv is one shift, planned as the ring).
 */
export function candidateAlgorithms(collective: CollectiveName): readonly AlgorithmName[] {
  if (collective === "sendrecv") return ["ring"];
  if (isExchange(collective)) return [EXCHANGE_ALGORITHM];
  return ALGORITHMS.filter((a) => PLANNERS[a].collectives.includes(collective));
}

/**
 * Emit the legs of a collective, in plan order, into `sink` (normalized: see {@link normalizingSink};
 * each leg lent for the call: see {@link LegSink}), and return its buffer sizes. Deterministic: emitting twice gives the same legs. `issuers`: only
 * the legs planned for ranks below it (before an SB2SB rewrite; a multiple of the group size) —
 * what a scheduler that times one node for all (timing/node-fold.ts) asks for.
 * @throws UsageError on a count the collective cannot take (see {@link bufferSizes}).
 */
export function emitPlan(
  req: PlanRequest,
  sink: LegSink,
  issuers = req.topology.ranks,
): Record<BufferName, number> {
  const sizes = bufferSizes(req);
  const b = normalizingSink(sink, sb2sbAllowed(req) ? (spec) => sb2sbRewrite(req, spec) : undefined);
  const n = req.topology.ranks;
  if (req.collective === "sendrecv") {
    const ch = channelsFor(req, req.count, 1);
    const subs = splitRange({ start: 0, count: req.count }, ch, dtypeBytes(req.dtype));
    for (let r = 0; r < issuers; r++) {
      subs.forEach((range, queue) => {
        b.add({
          step: 0,
          kind: "copy",
          rank: r,
          queue,
          srcs: [{ ref: { rank: (r - 1 + n) % n, buffer: "input", elem: range.start } }],
          dsts: [{ rank: r, buffer: "output", elem: range.start }],
          count: range.count,
        });
      });
    }
  } else if (isExchange(req.collective)) {
    if (req.algorithm !== EXCHANGE_ALGORITHM)
      throw new UsageError(
        `${req.collective} is planned as ${EXCHANGE_ALGORITHM} (direct pulls), not ${req.algorithm}`,
      );
    planExchange({ ...req, collective: req.collective }, b, issuers);
  } else {
    const planner = PLANNERS[req.algorithm];
    if (!planner.collectives.includes(req.collective))
      throw new UsageError(
        `algorithm ${req.algorithm} plans ${planner.collectives.join(", ")}, not ${req.collective}`,
      );
    planner.plan(req, b, issuers);
  }
  return sizes;
}

function planHead(req: PlanRequest, sizes: Plan["sizes"]): Omit<Plan, "legs"> {
  return {
    collective: req.collective,
    algorithm: req.algorithm,
    ranks: req.topology.ranks,
    lnc: req.topology.lnc,
    dtype: req.dtype,
    op: req.op,
    sizes,
  };
}

/**
 * Build the plan of a collective: every leg materialised, with its dependencies.
 * @throws UsageError on a count the collective cannot take (see {@link bufferSizes}).
 * @example buildPlan({ topology: buildTopology(archProfile("trn2"), 8), collective: "allr",
 *   algorithm: "ring", dtype: Dtype.BFLOAT16, op: "sum", count: 1024 }).legs.length;
 */
export function buildPlan(req: PlanRequest): Plan {
  const b = new PlanBuilder();
  const sizes = emitPlan(req, b);
  return { ...planHead(req, sizes), legs: b.legs };
}

/**
 * The plan of a collective with its legs built on first read of `legs` (what a timing-only run
 * returns: it timed the plan streamed and kept no leg).
 * @throws UsageError as {@link buildPlan}, at once.
 */
export function lazyPlan(req: PlanRequest): Plan {
  let legs: readonly Leg[] | undefined;
  return {
    ...planHead(req, bufferSizes(req)),
    get legs() {
      legs ??= buildPlan(req).legs;
      return legs;
    },
  };
}
