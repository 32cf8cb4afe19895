/**
 * Requests' weights and emitted legs, kept for the next time they are timed with other timing
 * parameters (a calibration's fit times the same runs at every parameter set it tries: calibrate.ts).
 * Planners and the node fold read a topology's shape (its profile, ranks, nodes and LNC) and never
 * its timing parameters, so a request emits the same legs whatever they are. What does depend on
 * them — the pre-pass's sharers and bound, its cut-off, the placement, `auto`'s choice — is worked
 * out each time over the replayed legs, as over the planner's (schedule.ts prepareWithin).
 */
import { UsageError } from "../../bits/errors.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import { emitPlan } from "../plan/build-plan.js";
import type { PlanRequest } from "../plan/plan-request.js";
import { LegRecord } from "./leg-record.js";
import { type LegWeight, scheduleWeight } from "./schedule.js";

/**
 * The most numbers (8 bytes each: 128 MiB) a memo's records hold in all; a request past it is
 * weighed without its legs and planned each time it is timed, as without a memo.
 */
export const MEMO_NUMBERS = 1 << 24;

/** What a request's legs depend on besides its topology's profile: everything but the timing. */
function shapeKey(req: PlanRequest): string {
  const t = req.topology;
  const { collective, algorithm, dtype, op, count } = req;
  const exchange = req.exchange ?? null;
  return JSON.stringify([
    t.ranks,
    t.nodes,
    t.lnc,
    collective,
    algorithm,
    dtype,
    op,
    count,
    req.sb2sb === true,
    exchange,
  ]);
}

/** A request's weight with its fold's legs recorded, or without them where planning refuses it. */
function recordedWeight(req: PlanRequest): LegWeight | undefined {
  const weight = scheduleWeight(req);
  if (weight === undefined) return undefined;
  const recorded = new LegRecord(weight.legs);
  try {
    emitPlan(req, recorded, weight.fold.perNode);
  } catch (e) {
    // Timed, it refuses again in the same words (prepareWithin), where `auto` expects it.
    if (e instanceof UsageError) return weight;
    throw e;
  }
  if (!recorded.complete) return weight;
  recorded.trim();
  return { ...weight, recorded };
}

export class LegMemo {
  private readonly kept = new Map<ArchProfile, Map<string, LegWeight | undefined>>();
  private numbers = 0;

  /**
   * As {@link scheduleWeight}, with the legs recorded the first time a request is weighed and
   * handed back after. @throws as scheduleWeight.
   */
  readonly weigh = (req: PlanRequest): LegWeight | undefined => {
    const profile = req.topology.profile;
    let mine = this.kept.get(profile);
    if (mine === undefined) {
      mine = new Map();
      this.kept.set(profile, mine);
    }
    const key = shapeKey(req);
    if (mine.has(key)) return mine.get(key);
    let weight = recordedWeight(req);
    const held = weight?.recorded?.capacity ?? 0;
    if (weight !== undefined && this.numbers + held > MEMO_NUMBERS)
      weight = { fold: weight.fold, legs: weight.legs };
    else this.numbers += held;
    mine.set(key, weight);
    return weight;
  };
}
