/**
 * Collectives that run at once on one run's ranks — the replica groups of one collective, the
 * streams of a multistream run (nccom-test `--custom-replica-groups`, `--data-parallel-dimension`,
 * `--streams-json`) — timed by the one scheduler together, so they share what it already shares:
 * each HBM stack and chip's DMA, the chip-to-chip links, the EFA NICs (resources.ts), step by step.
 *
 * Each member is planned alone on its group's topology (the run's places of its ranks), its legs
 * given ranks of their own: member k's rank i is "virtual" rank base(k) + i, placed where the run's
 * rank of it sits. Members never read each other's buffers, and two streams on one rank keep
 * separate buffers and separate queues (MODEL: the device gives a rank's streams distinct queues of
 * the same engines, device/concurrent-machine.ts), sharing that rank's chip like any other queue.
 * The members' legs are merged step by step (step s of every member, in member order, then step
 * s + 1): MODEL, concurrent members advance in lock step as far as sharing goes — what the scheduler
 * assumes within one collective.
 */
import { UsageError } from "../../bits/errors.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { emitPlan } from "../plan/build-plan.js";
import { type LegKind, noLegKinds } from "../plan/plan.js";
import { type LegSpec, ownLeg } from "../plan/plan-builder.js";
import type { PlanRequest } from "../plan/plan-request.js";
import type { RankPlace, Topology } from "../topology/topology.js";
import { readRulesFor } from "./last-writes.js";
import { type LegCost, LegCoster } from "./leg-cost.js";
import { NodeFold } from "./node-fold.js";
import { Placer, Recorder } from "./placer.js";
import { Resources } from "./resources.js";
import { type LegMeasure, ShapeCoster, StepUsers } from "./step-users.js";

/** One of the collectives that run at once. */
export interface ConcurrentMember {
  /** Its request, on its group's topology ({@link groupTopology}). */
  readonly req: PlanRequest;
  /** The run's rank of each of its ranks (its group, in group order). */
  readonly ranks: readonly number[];
}

/** The members' times, each as if it were a collective of its own. */
export interface ConcurrentTiming {
  /** Per member: launch + its last leg's end, in ns. */
  readonly totalNs: readonly number[];
  /** Per member: its legs by kind. */
  readonly legKinds: readonly Readonly<Record<LegKind, number>>[];
  /** Per member: TX + RX descriptors of its legs. */
  readonly descriptors: readonly number[];
}

/**
 * The most legs the members may have in all: they are held (merged step by step) while timed.
 * A leg is ~200 bytes held; 2^20 of them ≈ 200 MB.
 */
export const MAX_CONCURRENT_LEGS = 1 << 20;

/** The topology a group of the run's ranks plans on: the run's places of its ranks, in group order. */
export function groupTopology(t: Topology, ranks: readonly number[]): Topology {
  const places = ranks.map((r) => t.places[r] as RankPlace);
  const nodes = new Set(places.map((p) => p.node)).size;
  return { ...t, ranks: ranks.length, nodes, places };
}

/** Every member's legs, emitted alone, with its ranks moved to its virtual ranks. */
function memberLegs(members: readonly ConcurrentMember[], bases: readonly number[]): LegSpec[][] {
  let total = 0;
  return members.map((m, k) => {
    const base = bases[k] as number;
    const legs: LegSpec[] = [];
    emitPlan(m.req, {
      add(spec) {
        if (++total > MAX_CONCURRENT_LEGS) {
          throw new UsageError(
            `concurrent collectives: more than ${MAX_CONCURRENT_LEGS} legs in all; use fewer ranks, groups or streams, or smaller sizes`,
          );
        }
        const leg = ownLeg(spec);
        for (const s of leg.srcs) (s.ref as { rank: number }).rank += base;
        for (const d of leg.dsts) (d as { rank: number }).rank += base;
        legs.push({ ...leg, rank: leg.rank + base });
      },
    });
    return legs;
  });
}

/** The members' legs step by step (step s of each member in member order), with each leg's member. */
function mergeBySteps(perMember: readonly LegSpec[][]): { legs: LegSpec[]; member: Int32Array } {
  const legs: LegSpec[] = [];
  const member: number[] = [];
  const at = perMember.map(() => 0);
  for (;;) {
    let step = Number.POSITIVE_INFINITY;
    perMember.forEach((l, k) => {
      const next = l[at[k] as number];
      if (next !== undefined) step = Math.min(step, next.step);
    });
    if (step === Number.POSITIVE_INFINITY) break;
    perMember.forEach((l, k) => {
      let i = at[k] as number;
      for (; i < l.length && (l[i] as LegSpec).step === step; i++) {
        legs.push(l[i] as LegSpec);
        member.push(k);
      }
      at[k] = i;
    });
  }
  return { legs, member: Int32Array.from(member) };
}

/** Costs and bytes per leg from the coster of the member its (virtual) rank belongs to. */
class MemberMeasure implements LegMeasure {
  constructor(
    private readonly costers: readonly ShapeCoster[],
    private readonly memberOfRank: Int32Array,
  ) {}

  cost(leg: LegSpec): LegCost {
    return (this.costers[this.memberOfRank[leg.rank] as number] as ShapeCoster).cost(leg);
  }

  bytes(leg: { readonly rank: number; readonly count: number }): number {
    return (this.costers[this.memberOfRank[leg.rank] as number] as ShapeCoster).bytes(leg);
  }
}

/** Where each member's ranks start among the virtual ranks, and each virtual rank's member. */
function virtualRanks(members: readonly ConcurrentMember[]): { bases: number[]; memberOfRank: Int32Array } {
  const bases: number[] = [];
  let ranks = 0;
  for (const m of members) {
    bases.push(ranks);
    ranks += m.ranks.length;
  }
  const memberOfRank = new Int32Array(ranks);
  members.forEach((m, k) => {
    memberOfRank.fill(k, bases[k], (bases[k] as number) + m.ranks.length);
  });
  return { bases, memberOfRank };
}

/** Per member: its last leg's end, its descriptors and its legs by kind. */
function perMember(
  members: readonly ConcurrentMember[],
  legs: readonly LegSpec[],
  member: Int32Array,
  ends: Float64Array,
  measure: LegMeasure,
): { last: number[]; descriptors: number[]; legKinds: Record<LegKind, number>[] } {
  const last = members.map(() => 0);
  const descriptors = members.map(() => 0);
  const legKinds = members.map(noLegKinds);
  legs.forEach((leg, i) => {
    const k = member[i] as number;
    last[k] = Math.max(last[k] as number, ends[i] as number);
    descriptors[k] = (descriptors[k] as number) + measure.cost(leg).descriptors;
    (legKinds[k] as Record<LegKind, number>)[leg.kind]++;
  });
  return { last, descriptors, legKinds };
}

/**
 * Time collectives that run at once on the ranks of `t`: each member's time as its own collective,
 * with the resources of the run shared between all of them.
 * @throws UsageError as {@link emitPlan}, or past {@link MAX_CONCURRENT_LEGS}.
 * @example scheduleConcurrent(t, [{ req: a, ranks: [0, 1] }, { req: b, ranks: [2, 3] }], { sr: false }).totalNs;
 */
export function scheduleConcurrent(
  t: Topology,
  members: readonly ConcurrentMember[],
  opts: { readonly sr: boolean },
): ConcurrentTiming {
  const { bases, memberOfRank } = virtualRanks(members);
  const ranks = memberOfRank.length;
  const places = members.flatMap((m) => m.ranks.map((r) => t.places[r] as RankPlace));
  const virtual: Topology = { ...t, ranks, places };
  const res = new Resources(virtual);
  const fold = NodeFold.identity(ranks);
  const costers = members.map(
    (m) =>
      new ShapeCoster(
        new LegCoster(t.profile, { dtype: m.req.dtype, op: m.req.op, sr: opts.sr }, t.timing),
        dtypeBytes(m.req.dtype),
      ),
  );
  const measure = new MemberMeasure(costers, memberOfRank);
  const { legs, member } = mergeBySteps(memberLegs(members, bases));
  const users = new StepUsers(res, fold, measure, virtual);
  for (const leg of legs) users.add(leg);
  users.flush();
  const recorder = new Recorder(legs.length);
  const steps = users.steps;
  const rules = members.map((m) => readRulesFor(m.req));
  const reads = { kept: Math.max(...rules.map((r) => r.kept)), spans: rules.some((r) => r.spans) };
  const inputs = {
    res,
    fold,
    steps,
    image: users.images,
    coster: measure,
    recorder,
    cutoff: undefined,
    reads,
  };
  const placer = new Placer(virtual, inputs);
  for (const leg of legs) placer.add(leg);
  const launchNs = t.timing.launchNs;
  const { last, descriptors, legKinds } = perMember(members, legs, member, recorder.end, measure);
  return { totalNs: last.map((ns) => launchNs + ns), legKinds, descriptors };
}
