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
import type { RankPlace, Topology } from "../topology/topology.js";
import { LegRecord } from "./leg-record.js";
import { type LegWeight, scheduleWeight } from "./schedule.js";

/**
 * The most numbers (8 bytes each: 128 MiB) a memo's records hold in all; a request past it is
 * weighed without its legs and planned each time it is timed, as without a memo.
 */
export const MEMO_NUMBERS = 1 << 24;

/**
 * What of a request its legs depend on, field by field: true where the key holds it, a reason where
 * it does not. Every field is named (the type says so), so a field added to PlanRequest or Topology
 * must be placed here before the memo can hand back legs that ignored it.
 */
const REQUEST_KEY = {
  topology: true,
  collective: true,
  algorithm: true,
  dtype: true,
  op: true,
  count: true,
  exchange: true,
  sb2sb: true,
} as const satisfies Record<keyof PlanRequest, true | string>;
const TOPOLOGY_KEY = {
  profile: "the memo's first key (by identity)",
  links: "the profile's wiring and bandwidths: legs read the wiring, which the profile fixes",
  timing: "what the memo is for: legs never read it",
  ranks: true,
  nodes: true,
  lnc: true,
  channelsPerRank: true,
  // A replica group's topology has the ranks, nodes and LNC of another and other places.
  places: true,
} as const satisfies Record<keyof Topology, true | string>;

const keyed = <T extends object>(rules: Record<string, true | string>, o: T): unknown[] =>
  Object.keys(rules)
    .filter((k) => rules[k] === true && k !== "topology")
    .map((k) => {
      const v = (o as Record<string, unknown>)[k];
      return k === "places" ? (v as readonly RankPlace[]).map((p) => [p.node, p.chip, p.core]) : (v ?? null);
    });

/** What a request's legs depend on besides its topology's profile (REQUEST_KEY, TOPOLOGY_KEY). */
function shapeKey(req: PlanRequest): string {
  return JSON.stringify([keyed(TOPOLOGY_KEY, req.topology), keyed(REQUEST_KEY, req)]);
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
