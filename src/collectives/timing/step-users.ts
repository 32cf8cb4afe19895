/**
 * The scheduler's pre-pass over a plan's emission: what bandwidth is shared by in each step, and a
 * lower bound of the schedule's time (what `auto` prunes candidates with before placing them).
 */
import type { LegSink, LegSpec } from "../plan/plan-builder.js";
import type { Topology } from "../topology/topology.js";
import { Checkpoints } from "./checkpoints.js";
import { legDurationNs } from "./cost-model.js";
import type { LegCost, LegCoster } from "./leg-cost.js";
import type { NodeFold } from "./node-fold.js";
import { CUT_OFF } from "./placer.js";
import { RankPairs } from "./rank-pairs.js";
import { type Resources, Touches } from "./resources.js";
import { Numbers, type ShapedLeg, StepShape } from "./step-shape.js";

/** What the scheduler asks of a leg besides its place: its engine time and its bytes. */
export interface LegMeasure {
  cost(leg: LegSpec): LegCost;
  /** The bytes a leg moves: its count × the element size of the collective its rank runs. */
  bytes(leg: { readonly rank: number; readonly count: number }): number;
}

/** A leg coster asked again only when a leg's shape differs from the last one's (legs come in runs). */
export class ShapeCoster implements LegMeasure {
  private kind = "";
  private count = -1;
  private srcs = 0;
  private dsts = 0;
  private last: LegCost = { descriptors: 0, ns: 0, packets: 0 };

  constructor(
    private readonly coster: LegCoster,
    private readonly eb: number,
  ) {}

  bytes(leg: { readonly count: number }): number {
    return leg.count * this.eb;
  }

  cost(leg: LegSpec): LegCost {
    if (
      leg.kind !== this.kind ||
      leg.count !== this.count ||
      leg.srcs.length !== this.srcs ||
      leg.dsts.length !== this.dsts
    ) {
      this.kind = leg.kind;
      this.count = leg.count;
      this.srcs = leg.srcs.length;
      this.dsts = leg.dsts.length;
      this.last = this.coster.cost(leg);
    }
    return this.last;
  }
}

/**
 * Pre-pass: per step, how many queues share each resource at once, as (id, sharers) pairs. A queue
 * runs its legs one after another, so it counts for the share of its step's bytes that go through
 * the resource: sharers(r) = Σ over queues q of bytes(q through r) / bytes(q). When every leg of
 * every queue crosses r (a ring step) that is the number of queues; when a queue's pulls go to many
 * places (a mesh step) each place counts only its part. Planners emit a rank's legs of a step
 * together, so the per-queue sums are kept for one rank at a time (memory: one rank's channels ×
 * the resources they touch, not the step's); a rank that comes back later in a step (SB2SB legs are
 * issued by the partner) counts as a further set of queues.
 *
 * Folded (node-fold.ts), a first-node rank's share of another node's resource is its image's share
 * of the first node's, issued by the rank the symmetry takes there: the same float as the full
 * schedule's sum, in whatever order the shares arrive ({@link quantizedShare}).
 *
 * The lower bound: a queue's legs run one after another, each at least its engine time and at least
 * its bytes × sharers ÷ bandwidth at every resource it touches, plus a node message if it crosses
 * nodes; so in each step a queue is busy at least max(Σ engine ns, max over resources of Σ bytes
 * there × sharers ÷ bandwidth) + Σ node messages, and the
 * schedule lasts at least the launch plus the busiest queue's sum of those over the steps. The
 * resources of one image have the same sharers and bandwidth, so per queue only the most bytes at
 * one of them is kept (a mesh rank pulls from thousands of other nodes' HBM stacks, a few images).
 */
/** The step's pairs (numbers) before the first look within a step (about a thousand pairs). */
const FIRST_CHECK = 3 << 10;

/** Fractional bits a share keeps (see {@link quantizedShare}). */
const SHARE_BITS = 2 ** 24;

/**
 * A queue's share of a resource, rounded to a multiple of 2⁻²⁴: sums of such shares (under 2²⁸ of
 * them) are exact, so a resource's sharers do not depend on the order its shares arrive in — the
 * folded pass adds another node's shares in another order than the full pass does (node-fold.ts).
 */
function quantizedShare(share: number): number {
  return Math.round(share * SHARE_BITS) / SHARE_BITS;
}

export class StepUsers implements LegSink {
  readonly steps = new Map<number, Float64Array>();
  private step = -1;
  private rank = -1;
  /** Bytes per queue of the current rank in the current step, and the queues that have some. */
  private readonly queueBytes: Float64Array;
  private readonly queues: number[] = [];
  /** Bytes per (resource, queue) pair of the current rank in the current step. */
  private readonly pairs: RankPairs;
  private readonly sharers: Float64Array;
  private readonly touched: number[] = [];
  private readonly touches = new Touches();
  /** Per resource id: the id whose sharers it has (itself, or its first-node image when folded). */
  private readonly image: Int32Array;
  /** Per (image resource, queue) of the current rank in the current step, its most bytes there. */
  private readonly most: RankPairs;
  /** The step's (image resource, queue, most bytes) triples, and per queue its engine ns, for the bound. */
  private readonly stepPairs = new Numbers();
  private readonly engineNs: Float64Array;
  /** Per queue: the node messages of its legs that cross nodes this step (placer.ts adds them). */
  private readonly messageNs: Float64Array;
  private readonly stepQueues: number[] = [];
  private readonly channels: number;
  private readonly nodeMessageNs: number;
  /**
   * Stop counting (throw CUT_OFF) once a queue is sure to be busy past this, after the launch: a
   * candidate whose pre-pass already exceeds the best time `auto` has (run-collective.ts).
   */
  stopAboveNs = Number.POSITIVE_INFINITY;
  /** The step's pairs (numbers) at which {@link checkPartial} next looks, and where it works. */
  private nextCheck = FIRST_CHECK;
  private partial: Float64Array | undefined;
  /** Per queue: the least time it is busy, over the steps closed so far. */
  readonly busyNs: Float64Array;
  /**
   * Every few steps (16, further apart past a budget), per queue the least busy time of the steps
   * before (keyed by the step): where a placement checks what it still has ahead of it (memory: the
   * queues that changed per checkpoint, a bounded few: checkpoints.ts).
   */
  readonly checkpoints: Checkpoints;
  private closed = 0;
  /**
   * The current step's shape, and whether it repeats the step before so far: while it does, its
   * legs are only recorded; at its end the step before's sharers and busy-time increments (per
   * queue: qi, ns) are used again (step-shape.ts).
   */
  private readonly shape = new StepShape();
  private repeating = true;
  /** Legs of the current step only recorded so far (it repeated the step before up to them). */
  private skipped = 0;
  private lastSharers = new Float64Array(0);
  private readonly increments = new Numbers();

  constructor(
    private readonly res: Resources,
    fold: NodeFold,
    private readonly coster: LegMeasure,
    t: Topology,
  ) {
    this.channels = t.channelsPerRank;
    this.nodeMessageNs = t.timing.nodeMessageNs;
    const queueCount = fold.perNode * this.channels;
    this.queueBytes = new Float64Array(queueCount);
    this.pairs = new RankPairs(res.count, this.channels);
    this.sharers = new Float64Array(res.count);
    this.image = Int32Array.from({ length: res.count }, (_, id) => (fold.nodes === 1 ? id : res.image(id)));
    this.most = new RankPairs(res.count, this.channels);
    this.engineNs = new Float64Array(queueCount);
    this.messageNs = new Float64Array(queueCount);
    this.busyNs = new Float64Array(queueCount);
    this.checkpoints = new Checkpoints(queueCount);
  }

  /** Per resource id, the id whose sharers a leg there is slowed by. */
  get images(): Int32Array {
    return this.image;
  }

  /** The least time, after the launch, that the emitted legs take (after {@link flush}). */
  get boundNs(): number {
    return this.busyNs.reduce((a, b) => Math.max(a, b), 0);
  }

  add(leg: LegSpec): void {
    if (leg.step !== this.step) {
      this.flush();
      if (this.steps.has(leg.step)) throw new Error(`planner: step ${leg.step} emitted in two runs`);
      this.step = leg.step;
      if (this.closed > 0 && this.closed % this.checkpoints.every === 0)
        this.checkpoints.take(leg.step, this.busyNs);
    }
    const ns = this.coster.cost(leg).ns;
    if (this.repeating) {
      if (this.shape.record(leg, ns)) {
        this.skipped++;
        return;
      }
      this.stopRepeating();
    } else this.shape.record(leg, ns);
    this.count(leg, ns);
  }

  /** The current step turned out not to repeat the one before: count the legs skipped so far. */
  private stopRepeating(): void {
    this.repeating = false;
    for (let k = 0; k < this.skipped; k++) {
      const { leg, ns } = this.shape.leg(k);
      this.count(leg, ns);
    }
  }

  /** Add a leg to the current rank's queue and pair sums. */
  private count(leg: ShapedLeg, ns: number): void {
    if (leg.rank !== this.rank) this.flushRank();
    this.rank = leg.rank;
    const qi = leg.rank * this.channels + leg.queue;
    const bytes = this.coster.bytes(leg);
    if (this.queueBytes[qi]! === 0) this.queues.push(qi);
    this.queueBytes[qi]! += bytes;
    if (this.engineNs[qi]! === 0) this.stepQueues.push(qi);
    this.engineNs[qi]! += ns;
    const touched = this.touches.of(this.res, leg);
    const { ids, size } = touched;
    for (let k = 0; k < size; k++) this.pairs.add(ids[k]!, leg.queue, bytes);
    if (touched.crossesNodes) this.messageNs[qi]! += this.nodeMessageNs;
  }

  private share(id: number, share: number): void {
    if (this.sharers[id]! === 0) this.touched.push(id);
    this.sharers[id]! += share;
  }

  /** Add the current rank's queues to the step's sharers, and its most bytes per resource to the bound's pairs. */
  private flushRank(): void {
    const { pairs, most, stepPairs } = this;
    const ids = pairs.orderId.data;
    const queues = pairs.orderQueue.data;
    for (let k = 0; k < pairs.size; k++) {
      const id = ids[k]!;
      const queue = queues[k]!;
      const bytes = pairs.bytes(k);
      const image = this.image[id]!;
      this.share(image, quantizedShare(bytes / this.queueBytes[this.rank * this.channels + queue]!));
      most.raise(image, queue, bytes);
    }
    for (let k = 0; k < most.size; k++) {
      stepPairs.push(most.orderId.data[k]!);
      stepPairs.push(this.rank * this.channels + most.orderQueue.data[k]!);
      stepPairs.push(most.bytes(k));
    }
    most.clear();
    for (const qi of this.queues) this.queueBytes[qi] = 0;
    this.queues.length = 0;
    pairs.clear();
    this.checkPartial();
  }

  /**
   * After the last {@link flush}: give back what only counting needed (grown to a step's pairs and
   * shares: at 16384 ranks a mesh's were hundreds of MB), so that `auto`'s candidates, prepared
   * together, hold only what their placements read.
   */
  release(): void {
    this.pairs.release();
    this.most.release();
    for (const n of [this.stepPairs, this.increments]) n.data = new Float64Array(256);
  }

  /** Close the current step. */
  flush(): void {
    if (this.step < 0) return;
    const repeated = this.shape.repeats(this.repeating);
    // A step that matched the one before only as far as it went (shorter) is counted now.
    if (!repeated && this.repeating) this.stopRepeating();
    this.shape.next(repeated);
    this.repeating = true;
    this.skipped = 0;
    if (repeated) {
      // The step before's sharers and least busy times, again.
      const inc = this.increments;
      for (let k = 0; k < inc.length; k += 2) {
        const qi = inc.data[k] as number;
        this.busyNs[qi] = (this.busyNs[qi] as number) + (inc.data[k + 1] as number);
        this.checkpoints.touch(qi);
        this.stopIfPast(qi, 0);
      }
      this.closed++;
      this.steps.set(this.step, this.lastSharers);
      return;
    }
    this.flushRank();
    this.flushBound();
    this.rank = -1;
    const out = new Float64Array(2 * this.touched.length);
    this.touched.forEach((id, k) => {
      out[2 * k] = id;
      out[2 * k + 1] = Math.max(1, this.sharers[id]!);
      this.sharers[id] = 0;
    });
    this.touched.length = 0;
    this.steps.set(this.step, out);
    this.lastSharers = out;
  }

  /**
   * Into `out`, per queue of the step: its least busy time in the step but its node messages, with
   * the sharers as they are — final at the step's end; before it, below the final (a flushed rank's
   * bytes and shares are final, and sharers only grow).
   */
  private stepBound(out: Float64Array): void {
    for (const qi of this.stepQueues) out[qi] = this.engineNs[qi]!;
    const p = this.stepPairs.data;
    for (let k = 0; k < this.stepPairs.length; k += 3) {
      const id = p[k]!;
      const qi = p[k + 1]!;
      const users = Math.max(1, this.sharers[this.image[id]!]!);
      out[qi] = legDurationNs(out[qi]!, p[k + 2]!, users, this.res.bandwidth(id));
    }
  }

  /** Add each queue's least busy time in the step (sharers final, not yet cleared) to its sum. */
  private flushBound(): void {
    const stepNs = this.engineNs;
    this.stepBound(stepNs);
    this.increments.length = 0;
    for (const qi of this.stepQueues) {
      // A crossing leg's node message comes on top of its transfer (placer.ts), not inside it.
      const ns = (stepNs[qi] as number) + (this.messageNs[qi] as number);
      this.busyNs[qi]! += ns;
      this.checkpoints.touch(qi);
      this.increments.push(qi);
      this.increments.push(ns);
      this.stopIfPast(qi, 0);
      stepNs[qi] = 0;
      this.messageNs[qi] = 0;
    }
    this.closed++;
    this.stepQueues.length = 0;
    this.stepPairs.length = 0;
    this.nextCheck = FIRST_CHECK;
  }

  /** Throw CUT_OFF when queue `qi` is busy, with `more` of the current step, past {@link stopAboveNs}. */
  private stopIfPast(qi: number, more: number): void {
    if (this.busyNs[qi]! + more > this.stopAboveNs) throw CUT_OFF;
  }

  /** Within a step, at a rank's end: stop once the step so far takes a queue past {@link stopAboveNs}. */
  private checkPartial(): void {
    if (this.stopAboveNs === Number.POSITIVE_INFINITY || this.stepPairs.length < this.nextCheck) return;
    // Twice the pairs before the next look: the looks cost as much as one more at the step's end.
    this.nextCheck = 2 * this.stepPairs.length;
    this.partial ??= new Float64Array(this.busyNs.length);
    this.stepBound(this.partial);
    for (const qi of this.stepQueues) this.stopIfPast(qi, this.partial[qi]! + this.messageNs[qi]!);
  }
}
