/**
 * The one scheduler: places a collective's legs in time with the cost model (cost-model.ts) as the
 * planner emits them, in one streaming pass that keeps no leg. A pre-pass over the same emission
 * (step-users.ts) counts, per step, the queues touching each shared resource (what bandwidth is
 * shared by) and bounds the time from below (what `auto` prunes with). Memory is a few steps' writes
 * (last-writes.ts), not the legs; on several nodes only the first node's legs are emitted and placed
 * where that is exact (node-fold.ts), so timing-only grows linearly in ranks. A trace asks for the
 * per-leg times: `record` keeps start / end per leg (plan order = leg id) on the same pass, every
 * rank placed. The result depends only on the request and SR — never on data — so a timing-only run
 * and a full run report the same time.
 */
import { UsageError } from "../../bits/errors.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { emitPlan } from "../plan/build-plan.js";
import { checkScheduleLegs, estimateLegs, ScheduleTooLargeError } from "../plan/leg-estimate.js";
import { LEG_KINDS, type LegKind, noLegKinds } from "../plan/plan.js";
import type { LegSpec } from "../plan/plan-builder.js";
import type { PlanRequest } from "../plan/plan-request.js";
import { readRulesFor } from "./last-writes.js";
import { LegCoster } from "./leg-cost.js";
import { LegRecord } from "./leg-record.js";
import { NodeFold } from "./node-fold.js";
import { CUT_OFF, type LegObserver, Placer, Recorder } from "./placer.js";
import { Resources } from "./resources.js";
import { ShapeCoster, StepUsers } from "./step-users.js";

/** Per-leg times of a recorded schedule. */
export interface Schedule {
  /** Per leg (index = leg id), ns after launch. */
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** Launch + the last end, in ns. */
  readonly totalNs: number;
  /** The launch (timing parameters' launchNs). */
  readonly launchNs: number;
}

export interface Timing {
  /** Launch + the last end, in ns. */
  readonly totalNs: number;
  /** Legs of the plan, by kind. */
  readonly legKinds: Readonly<Record<LegKind, number>>;
  /** TX + RX descriptors of all legs (what the engine fetches). */
  readonly descriptors: number;
  /** Packets of all legs (what the device machine posts). */
  readonly packets: number;
  /** Per-leg times, when asked to record. */
  readonly schedule?: Schedule;
}

export interface ScheduleOptions {
  /** Stochastic rounding: every CCE packet opens with a seed-init descriptor. */
  readonly sr: boolean;
  /** Keep every leg's start and end (memory in proportion to the legs: for a trace or a test). */
  readonly record?: boolean;
  /**
   * Told of every leg as it is placed, every rank's (no node fold), and keeps nothing: what a
   * streamed trace writes from (trace-stream.ts). Ignored with `record`.
   */
  readonly observer?: LegObserver;
}

/** A collective after the scheduler's pre-pass: its lower bound known, its legs not yet placed. */
export interface PreparedSchedule {
  /** Launch + the least time the legs can take: never above {@link place}'s totalNs. */
  readonly boundNs: number;
  /**
   * Place the legs (the streaming pass). Given `cutoffNs`, stop and return undefined as soon as the
   * total is sure to exceed it (a candidate that cannot win).
   */
  place(cutoffNs?: number): Timing | undefined;
}

/** Where a schedule of a request places its legs: the node fold, and about how many legs. */
export interface LegWeight {
  readonly fold: NodeFold;
  /** The legs the fold's ranks place (plan/leg-estimate.ts estimateLegs). */
  readonly legs: number;
  /**
   * Those legs as the planner emits them, recorded in full where the caller kept them
   * (leg-memo.ts): the pre-pass and the placement replay them instead of planning again.
   */
  readonly recorded?: LegRecord;
}

/**
 * The fold a schedule of `req` places its legs on (none when `unfolded`: every rank placed) and
 * about how many legs it places there, checked against the bound.
 * @throws UsageError where the planner refuses the request; ScheduleTooLargeError past the legs a
 *   schedule places.
 */
function weigh(req: PlanRequest, unfolded: boolean): LegWeight {
  const fold = unfolded ? NodeFold.none(req) : NodeFold.of(req);
  const legs = estimateLegs(req, fold.perNode);
  checkScheduleLegs(req, legs, fold.nodes > 1);
  return { fold, legs };
}

/**
 * The legs a schedule of `req` places and the fold it places them on (what `auto` orders its
 * candidates by, and hands to {@link prepareWithin}), or undefined for a request its planner
 * refuses (prepareWithin then says why).
 * @throws ScheduleTooLargeError past the legs a schedule places, as {@link prepareSchedule} would.
 */
export function scheduleWeight(req: PlanRequest): LegWeight | undefined {
  try {
    return weigh(req, false);
  } catch (e) {
    if (e instanceof UsageError && !(e instanceof ScheduleTooLargeError)) return undefined;
    throw e;
  }
}

/**
 * Run the pre-pass of a collective's schedule (sharers and lower bound, step-users.ts). Unless
 * recording, only one node's legs are emitted where the node symmetry is exact (node-fold.ts).
 * @throws UsageError as {@link emitPlan}; ScheduleTooLargeError, before any leg is emitted, past
 *   the legs a schedule places (plan/leg-estimate.ts).
 */
export function prepareSchedule(req: PlanRequest, opts: ScheduleOptions): PreparedSchedule {
  return prepareWithin(req, opts, Number.POSITIVE_INFINITY) as PreparedSchedule;
}

/**
 * As {@link prepareSchedule}, but undefined as soon as the pre-pass's bound exceeds `cutoffNs` (a
 * candidate that cannot beat the best time `auto` has: its legs need not all be counted).
 * `weight`: the request's {@link scheduleWeight} where the caller has it (not weighed again; unused
 * when every rank is placed: `record` or an observer).
 * @throws as {@link prepareSchedule}.
 */
export function prepareWithin(
  req: PlanRequest,
  opts: ScheduleOptions,
  cutoffNs: number,
  weight?: LegWeight,
): PreparedSchedule | undefined {
  const t = req.topology;
  const record = opts.record === true;
  const unfolded = record || opts.observer !== undefined;
  const weighed = weight !== undefined && !unfolded ? weight : weigh(req, unfolded);
  const { fold } = weighed;
  const res = new Resources(t);
  const coster = shapeCoster(req, opts.sr);
  const users = new StepUsers(res, fold, coster, t);
  const launchNs = t.timing.launchNs;
  users.stopAboveNs = cutoffNs - launchNs;
  let legs: LegRecord;
  try {
    legs = prePass(req, weighed, users);
    users.flush();
  } catch (e) {
    if (e === CUT_OFF) return undefined;
    throw e;
  }
  users.release();
  const place = (cutoffNs?: number): Timing | undefined => {
    const recorder = record ? new Recorder(weighed.legs) : undefined;
    const observer = recorder ?? opts.observer;
    const cutoff =
      cutoffNs === undefined
        ? undefined
        : { lastNs: cutoffNs - launchNs, busyNs: users.busyNs, checkpoints: users.checkpoints };
    const placer = new Placer(t, {
      res,
      fold,
      steps: users.steps,
      image: users.images,
      coster,
      recorder: observer,
      cutoff,
      reads: readRulesFor(req),
    });
    try {
      if (legs.complete) legs.replay(placer);
      else emitPlan(req, placer, fold.perNode);
    } catch (e) {
      if (e === CUT_OFF) return undefined;
      throw e;
    }
    const totalNs = launchNs + placer.last;
    const timing = {
      totalNs,
      legKinds: everyNode(placer.kinds, fold.nodes),
      descriptors: placer.descriptors * fold.nodes,
      packets: placer.packets * fold.nodes,
    };
    if (recorder === undefined) return timing;
    const schedule = {
      start: recorder.start.subarray(0, recorder.size),
      end: recorder.end.subarray(0, recorder.size),
      totalNs,
      launchNs,
    };
    return { ...timing, schedule };
  };
  return { boundNs: launchNs + users.boundNs, place };
}

/**
 * Give the pre-pass (`users`) the legs the fold's ranks place: `recorded`'s where the caller has
 * them, else the planner's, recorded on the way for the placement (room made for about `legs`).
 * @throws as {@link emitPlan}.
 */
function prePass(req: PlanRequest, weight: LegWeight, users: StepUsers): LegRecord {
  const { fold, recorded } = weight;
  if (recorded !== undefined) {
    recorded.replay(users);
    return recorded;
  }
  const legs = new LegRecord(weight.legs);
  const both = {
    add(leg: LegSpec) {
      users.add(leg);
      legs.add(leg);
    },
  };
  emitPlan(req, both, fold.perNode);
  return legs;
}

/**
 * Time a collective: the pre-pass, then one streaming pass that places the legs; with `record`,
 * keep the per-leg times (index = the leg's id in {@link buildPlan}'s plan).
 * @throws UsageError as {@link emitPlan}.
 * @example scheduleCollective({ topology, collective: "allr", algorithm: "ring", dtype, op: "sum",
 *   count: 1 << 29 }, { sr: false }).totalNs;
 */
export function scheduleCollective(req: PlanRequest, opts: ScheduleOptions): Timing {
  return prepareSchedule(req, opts).place() as Timing;
}

/** What a plan's legs amount to, counted without placing them: its legs by kind, its packets. */
export type LegCounts = Pick<Timing, "legKinds" | "packets">;

/**
 * {@link scheduleCollective}'s leg kinds and packets, counted in one pass over the fold's emitted
 * legs with no pre-pass and no placement (they depend on the legs alone): what bounds a trace before
 * the run (trace-admission.ts) at a fraction of the schedule's cost.
 * @throws as {@link prepareSchedule} (the planner's refusal, ScheduleTooLargeError).
 */
export function countLegs(req: PlanRequest, opts: Pick<ScheduleOptions, "sr">): LegCounts {
  const { fold } = weigh(req, false);
  const coster = shapeCoster(req, opts.sr);
  const legKinds = noLegKinds();
  let packets = 0;
  const counter = {
    add(leg: LegSpec) {
      legKinds[leg.kind]++;
      packets += coster.cost(leg).packets;
    },
  };
  emitPlan(req, counter, fold.perNode);
  return { legKinds: everyNode(legKinds, fold.nodes), packets: packets * fold.nodes };
}

/** The costs of `req`'s leg shapes, as the schedule and the counts take them. */
function shapeCoster(req: PlanRequest, sr: boolean): ShapeCoster {
  const t = req.topology;
  const legs = new LegCoster(t.profile, { dtype: req.dtype, op: req.op, sr }, t.timing);
  return new ShapeCoster(legs, dtypeBytes(req.dtype));
}

/** The legs by kind of every node, from the first node's (every node's legs are its, moved). */
function everyNode(kinds: Readonly<Record<LegKind, number>>, nodes: number): Record<LegKind, number> {
  const all = noLegKinds();
  for (const kind of LEG_KINDS) all[kind] = kinds[kind] * nodes;
  return all;
}
