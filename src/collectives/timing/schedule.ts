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
import { dtypeBytes } from "../../spec/dtype.js";
import { emitPlan } from "../plan/build-plan.js";
import type { LegKind } from "../plan/plan.js";
import type { LegSink, LegSpec } from "../plan/plan-builder.js";
import type { PlanRequest } from "../plan/plan-request.js";
import { ARCH_TIMING, SEMAPHORE_TO_START_NS } from "./cost-model.js";
import { KEPT_STEPS, LastWrites } from "./last-writes.js";
import { LegCoster } from "./leg-cost.js";
import { type Folded, NodeFold } from "./node-fold.js";
import { Resources, Touches } from "./resources.js";
import { ShapeCoster, StepUsers } from "./step-users.js";
import type { Topology } from "./topology.js";

/** Per-leg times of a recorded schedule. */
export interface Schedule {
  /** Per leg (index = leg id), ns after launch. */
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** Launch + the last end, in ns. */
  readonly totalNs: number;
}

export interface Timing {
  /** Launch + the last end, in ns. */
  readonly totalNs: number;
  /** Legs of the plan, by kind. */
  readonly legKinds: Readonly<Record<LegKind, number>>;
  /** TX + RX descriptors of all legs (what the engine fetches). */
  readonly descriptors: number;
  /** Per-leg times, when asked to record. */
  readonly schedule?: Schedule;
}

export interface ScheduleOptions {
  /** Stochastic rounding: every CCE packet opens with a seed-init descriptor. */
  readonly sr: boolean;
  /** Keep every leg's start and end (memory in proportion to the legs: for a trace or a test). */
  readonly record?: boolean;
}

/** Growable per-leg start / end times. */
class Recorder {
  start = new Float64Array(1024);
  end = new Float64Array(1024);
  size = 0;

  push(start: number, end: number): void {
    if (this.size === this.start.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(2 * a.length);
        b.set(a);
        return b;
      };
      this.start = grow(this.start);
      this.end = grow(this.end);
    }
    this.start[this.size] = start;
    this.end[this.size++] = end;
  }
}

/**
 * A placement that stops once it cannot end by `lastNs` (after the launch): at the pre-pass's
 * checkpoints (step-users.ts), each queue still has its least busy time from there on ahead of it.
 */
interface Cutoff {
  readonly lastNs: number;
  /** Per queue, the least busy time of all steps; per checkpoint step, of the steps before it. */
  readonly busyNs: Float64Array;
  readonly checkpoints: ReadonlyMap<number, Float64Array>;
}

/** Thrown through the planner's emission when a placement passes its cutoff. */
const CUT_OFF = new Error("the placement passed its cutoff");

/**
 * The pass that places each leg as it arrives (plan order) and keeps only what later legs read.
 * Folded (node-fold.ts), the legs are the first node's: a range of another node is read at its image
 * there (its writer as many nodes on), a resource of another node counts its image's sharers.
 */
class Placer implements LegSink {
  last = 0;
  descriptors = 0;
  readonly kinds: Record<LegKind, number> = {
    copy: 0,
    "reduce-copy": 0,
    duplicate: 0,
    "sb2sb-copy": 0,
    "sb2sb-reduce": 0,
  };
  private step = -1;
  private readonly users: Float64Array;
  private readonly queueFree: Float64Array;
  private readonly writes: LastWrites;
  private readonly touches = new Touches();
  private readonly folded: Folded = { rank: 0, elem: 0, nodes: 0 };
  private readonly coster: ShapeCoster;
  private readonly eb: number;
  private readonly channels: number;

  constructor(
    private readonly t: Topology,
    req: PlanRequest,
    private readonly res: Resources,
    private readonly fold: NodeFold,
    private readonly steps: ReadonlyMap<number, Float64Array>,
    /** Per resource id: the id whose sharers it has (itself, or its first-node image when folded). */
    private readonly image: Int32Array,
    coster: ShapeCoster,
    private readonly recorder: Recorder | undefined,
    private readonly cutoff: Cutoff | undefined,
  ) {
    this.users = new Float64Array(res.count);
    this.channels = t.channelsPerRank;
    this.queueFree = new Float64Array(fold.perNode * this.channels);
    this.writes = new LastWrites();
    this.coster = coster;
    this.eb = dtypeBytes(req.dtype);
  }

  private enterStep(step: number): void {
    const leaving = this.steps.get(this.step);
    if (leaving !== undefined) for (let k = 0; k < leaving.length; k += 2) this.users[leaving[k]!] = 0;
    const entering = this.steps.get(step) as Float64Array;
    for (let k = 0; k < entering.length; k += 2) this.users[entering[k]!] = entering[k + 1]!;
    this.step = step;
    this.writes.enter(step);
    const before = this.cutoff?.checkpoints.get(step);
    if (this.cutoff === undefined || before === undefined) return;
    // Every queue is busy at least its remaining steps' least time after it is next free.
    const total = this.cutoff.busyNs;
    let least = 0;
    for (let qi = 0; qi < this.queueFree.length; qi++)
      least = Math.max(least, this.queueFree[qi]! + (total[qi]! - before[qi]!));
    if (least > this.cutoff.lastNs) throw CUT_OFF;
  }

  add(leg: LegSpec): void {
    if (leg.step !== this.step) this.enterStep(leg.step);
    this.kinds[leg.kind]++;
    const bytes = leg.count * this.eb;
    const cost = this.coster.cost(leg);
    this.descriptors += cost.descriptors;
    let duration = cost.ns;
    const { ids, times, size } = this.touches.of(this.res, leg);
    for (let k = 0; k < size; k++) {
      const id = ids[k]!;
      const users = this.users[this.image[id]!]!;
      duration = Math.max(duration, (bytes * times[k]! * users) / this.res.bandwidth(id));
    }
    const qi = leg.rank * this.channels + leg.queue;
    const start = Math.max(this.queueFree[qi]!, this.readyNs(leg));
    const end = start + duration;
    this.queueFree[qi] = end;
    for (const d of leg.dsts) {
      const f = this.fold.fold(d, this.folded);
      // The image's writer: the leg's rank as many nodes back as the range moved.
      const writer = this.fold.unfold(leg.rank, this.fold.nodes - f.nodes) * this.channels + leg.queue;
      this.writes.write(f.rank, d.buffer, f.elem, end, leg.count, writer);
    }
    if (end > this.last) this.last = end;
    this.recorder?.push(start, end);
  }

  /** When what a leg reads has been written and the peers it touches are ready. */
  private readyNs(leg: LegSpec): number {
    let ready = 0;
    for (const { ref } of leg.srcs) {
      const f = this.fold.fold(ref, this.folded);
      if (!this.writes.find(f.rank, ref.buffer, f.elem)) {
        if (ref.buffer !== "input") {
          throw new Error(
            `planner: leg reads ${ref.rank}:${ref.buffer}:${ref.elem}, not written in the last ${KEPT_STEPS} steps`,
          );
        }
        // Never written: a peer's input, ready once the peer says so.
        if (ref.rank !== leg.rank) ready = Math.max(ready, waitNs(this.t, ref.rank, -1, leg.rank, leg.queue));
        continue;
      }
      if (this.writes.count() !== leg.count) {
        throw new Error(
          `planner: leg reads ${ref.rank}:${ref.buffer}:${ref.elem}×${leg.count} but it was written ×${this.writes.count()}`,
        );
      }
      const wq = this.writes.queue();
      const writer = this.fold.unfold(Math.floor(wq / this.channels), f.nodes);
      const wait = waitNs(this.t, writer, wq % this.channels, leg.rank, leg.queue);
      ready = Math.max(ready, this.writes.end() + wait);
    }
    // Writing into a peer needs the peer ready too.
    for (const d of leg.dsts)
      if (d.rank !== leg.rank) ready = Math.max(ready, waitNs(this.t, d.rank, -1, leg.rank, leg.queue));
    return ready;
  }
}

/**
 * The wait between something ending on (rank, queue) `from` and a leg on (rank, queue) `to` learning
 * of it: nothing on the same queue (in order), else max(semaphore-to-start, the hop latency between
 * the ranks). Queue −1: not a queue (a peer's buffer becoming ready).
 */
export function waitNs(
  t: Topology,
  fromRank: number,
  fromQueue: number,
  toRank: number,
  toQueue: number,
): number {
  if (fromRank === toRank && fromQueue === toQueue) return 0;
  if (fromRank === toRank) return SEMAPHORE_TO_START_NS;
  const a = t.places[fromRank]!;
  const b = t.places[toRank]!;
  const cls = a.node !== b.node ? "node-to-node" : a.chip !== b.chip ? "chip-to-chip" : "intra-chip";
  return Math.max(SEMAPHORE_TO_START_NS, t.links.links[cls].latencyNs);
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

/**
 * Run the pre-pass of a collective's schedule (sharers and lower bound, step-users.ts). Unless
 * recording, only one node's legs are emitted where the node symmetry is exact (node-fold.ts).
 * @throws UsageError as {@link emitPlan}.
 */
export function prepareSchedule(req: PlanRequest, opts: ScheduleOptions): PreparedSchedule {
  const t = req.topology;
  const record = opts.record === true;
  const fold = record ? NodeFold.none(req) : NodeFold.of(req);
  const res = new Resources(t);
  const coster = new ShapeCoster(new LegCoster(t.profile, req.dtype, req.op, opts.sr));
  const queues = fold.perNode * t.channelsPerRank;
  const users = new StepUsers(res, fold, coster, t.channelsPerRank, queues, dtypeBytes(req.dtype));
  emitPlan(req, users, fold.perNode);
  users.flush();
  const launchNs = ARCH_TIMING[t.profile.name].launchNs;
  const place = (cutoffNs?: number): Timing | undefined => {
    const recorder = record ? new Recorder() : undefined;
    const cutoff =
      cutoffNs === undefined
        ? undefined
        : { lastNs: cutoffNs - launchNs, busyNs: users.busyNs, checkpoints: users.checkpoints };
    const placer = new Placer(t, req, res, fold, users.steps, users.images, coster, recorder, cutoff);
    try {
      emitPlan(req, placer, fold.perNode);
    } catch (e) {
      if (e === CUT_OFF) return undefined;
      throw e;
    }
    const totalNs = launchNs + placer.last;
    // Every node's legs are the first node's, moved.
    const legKinds = { ...placer.kinds };
    for (const kind of Object.keys(legKinds) as LegKind[]) legKinds[kind] *= fold.nodes;
    const timing = { totalNs, legKinds, descriptors: placer.descriptors * fold.nodes };
    if (recorder === undefined) return timing;
    const schedule = {
      start: recorder.start.subarray(0, recorder.size),
      end: recorder.end.subarray(0, recorder.size),
      totalNs,
    };
    return { ...timing, schedule };
  };
  return { boundNs: launchNs + users.boundNs, place };
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
