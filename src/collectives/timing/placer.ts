/**
 * The scheduler's placing pass (schedule.ts): each leg, as the planner emits it, starts when its
 * queue is free, what it reads has been written and the peers it touches are ready, and lasts its
 * engine time or longer where it shares a resource (the pre-pass's sharers, step-users.ts). Only
 * what later legs read is kept (last-writes.ts). Hot: a timing-only run at thousands of ranks
 * places millions of legs, so per leg there is no allocation and no string-keyed look-up.
 */
import { type BufRef, type LegKind, type LegSource, noLegKinds } from "../plan/plan.js";
import type { LegSink, LegSpec } from "../plan/plan-builder.js";
import type { Topology } from "../topology/topology.js";
import type { Checkpoints } from "./checkpoints.js";
import { legDurationNs } from "./cost-model.js";
import { KEPT_STEPS, LastWrites, type ReadRules } from "./last-writes.js";
import type { Folded, NodeFold } from "./node-fold.js";
import { type Resources, Touches } from "./resources.js";
import type { LegMeasure } from "./step-users.js";

/**
 * The wait between something ending on (rank, queue) `from` and a leg on (rank, queue) `to` learning
 * of it: nothing on the same queue (in order), else max(semaphore-to-start, the hop latency between
 * the ranks). Queue −1: not a queue (a peer's buffer becoming ready). Per rank pair only the link
 * class is looked up (the ranks' node and chip); the three waits are worked out once.
 */
export class Waits {
  private readonly node: Int32Array;
  private readonly chip: Int32Array;
  /** Intra-chip, chip-to-chip, node-to-node. */
  private readonly hop: Float64Array;
  private readonly semaphore: number;

  constructor(t: Topology) {
    this.node = Int32Array.from(t.places, (p) => p.node);
    this.chip = Int32Array.from(t.places, (p) => p.chip);
    const l = t.links.links;
    const classes = [l["intra-chip"], l["chip-to-chip"], l["node-to-node"]];
    this.semaphore = t.timing.semaphoreNs;
    this.hop = Float64Array.from(classes, (c) => Math.max(this.semaphore, c.latencyNs));
  }

  ns(fromRank: number, fromQueue: number, toRank: number, toQueue: number): number {
    if (fromRank === toRank) return fromQueue === toQueue ? 0 : this.semaphore;
    if (this.node[fromRank] !== this.node[toRank]) return this.hop[2]!;
    return this.hop[this.chip[fromRank] !== this.chip[toRank] ? 1 : 0]!;
  }
}

/**
 * A placement that stops once it cannot end by `lastNs` (after the launch): at the pre-pass's
 * checkpoints (step-users.ts), each queue still has its least busy time from there on ahead of it.
 */
export interface Cutoff {
  readonly lastNs: number;
  /** Per queue, the least busy time of all steps; per checkpoint step, of the steps before it. */
  readonly busyNs: Float64Array;
  readonly checkpoints: Checkpoints;
}

/** Thrown through the planner's emission when a placement passes its cutoff. */
export const CUT_OFF = new Error("the placement passed its cutoff");

/**
 * What a placement tells as it goes, for a recorded schedule or a streamed trace: each leg once
 * placed (plan order), and before that each earlier write the leg waits on in another queue.
 */
export interface LegObserver {
  /** The leg about to be placed reads a write that ended at `endNs` on (rank, queue). */
  waited?(rank: number, queue: number, endNs: number): void;
  placed(leg: LegSpec, startNs: number, endNs: number): void;
}

/** Growable per-leg start / end times. */
export class Recorder implements LegObserver {
  start: Float64Array;
  end: Float64Array;
  size = 0;

  /**
   * `expectedLegs`: about how many legs will be placed (plan/leg-estimate.ts, or the count), room
   * made at once rather than by doubling from 1024 (a 96-rank schedule records ≈ 10^6 legs).
   */
  constructor(expectedLegs = 0) {
    const room = Math.max(1024, Math.ceil(expectedLegs));
    this.start = new Float64Array(room);
    this.end = new Float64Array(room);
  }

  placed(_leg: LegSpec, start: number, end: number): void {
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

/** What a placement reads besides the request: the pre-pass's results and where to record. */
export interface PlacerInputs {
  readonly res: Resources;
  readonly fold: NodeFold;
  /** Per step: (resource id, sharers) pairs. */
  readonly steps: ReadonlyMap<number, Float64Array>;
  /** Per resource id: the id whose sharers it has (itself, or its first-node image when folded). */
  readonly image: Int32Array;
  readonly coster: LegMeasure;
  readonly recorder: LegObserver | undefined;
  readonly cutoff: Cutoff | undefined;
  /** How later legs read earlier writes (default: {@link KEPT_STEPS} back, exact; readRulesFor). */
  readonly reads?: ReadRules;
}

/**
 * The pass that places each leg as it arrives (plan order) and keeps only what later legs read.
 * Folded (node-fold.ts), the legs are the first node's: a range of another node is read at its image
 * there (its writer taken to that node), a resource of another node counts its image's sharers.
 */
export class Placer implements LegSink {
  last = 0;
  descriptors = 0;
  packets = 0;
  private readonly counts = noLegKinds();
  /** Legs come in runs of one kind: counted per run, not with a keyed store per leg. */
  private runKind: LegKind = "copy";
  private runLength = 0;
  private step = -1;
  private readonly users: Float64Array;
  private readonly queueFree: Float64Array;
  private readonly writes: LastWrites;
  private readonly touches = new Touches();
  private readonly folded: Folded = { rank: 0, elem: 0, nodes: 0 };
  private readonly waits: Waits;
  private readonly channels: number;
  /** The first step whose writes are never read (none kept from there on). */
  private readonly unreadFrom: number;
  /** With a cutoff: per queue, the pre-pass's least busy time up to the last checkpoint passed. */
  private before: Float64Array | undefined;
  /** What a leg crossing nodes costs its queue besides its bytes (timing-params.ts nodeMessageNs). */
  private readonly nodeMessage: number;

  constructor(
    t: Topology,
    private readonly p: PlacerInputs,
  ) {
    this.users = new Float64Array(p.res.count);
    this.channels = t.channelsPerRank;
    this.nodeMessage = t.timing.nodeMessageNs;
    this.queueFree = new Float64Array(p.fold.perNode * this.channels);
    this.waits = new Waits(t);
    this.writes = new LastWrites(p.reads?.kept, p.reads?.spans);
    this.unreadFrom = p.reads?.unreadFrom ?? Number.POSITIVE_INFINITY;
  }

  /** Legs placed, by kind. */
  get kinds(): Record<LegKind, number> {
    this.counts[this.runKind] += this.runLength;
    this.runLength = 0;
    return this.counts;
  }

  private enterStep(step: number): void {
    const leaving = this.p.steps.get(this.step);
    if (leaving !== undefined) for (let k = 0; k < leaving.length; k += 2) this.users[leaving[k]!] = 0;
    const entering = this.p.steps.get(step) as Float64Array;
    for (let k = 0; k < entering.length; k += 2) this.users[entering[k]!] = entering[k + 1]!;
    this.step = step;
    this.writes.enter(step);
    const cutoff = this.p.cutoff;
    if (cutoff === undefined) return;
    this.before ??= new Float64Array(this.queueFree.length);
    const before = this.before;
    if (!cutoff.checkpoints.advance(step, before)) return;
    // Every queue is busy at least its remaining steps' least time after it is next free.
    const total = cutoff.busyNs;
    let least = 0;
    for (let qi = 0; qi < this.queueFree.length; qi++)
      least = Math.max(least, this.queueFree[qi]! + (total[qi]! - before[qi]!));
    if (least > cutoff.lastNs) throw CUT_OFF;
  }

  add(leg: LegSpec): void {
    if (leg.step !== this.step) this.enterStep(leg.step);
    if (leg.kind !== this.runKind) {
      this.counts[this.runKind] += this.runLength;
      this.runKind = leg.kind;
      this.runLength = 0;
    }
    this.runLength++;
    const { res, image, fold } = this.p;
    const bytes = this.p.coster.bytes(leg);
    const cost = this.p.coster.cost(leg);
    this.descriptors += cost.descriptors;
    this.packets += cost.packets;
    let duration = cost.ns;
    const touched = this.touches.of(res, leg);
    const { ids, times, size } = touched;
    for (let k = 0; k < size; k++) {
      const id = ids[k]!;
      const users = this.users[image[id]!]!;
      duration = legDurationNs(duration, bytes * times[k]!, users, res.bandwidth(id));
    }
    // A message to another node is posted and completed by the host's proxy before and after its
    // bytes move: its queue waits that on top of the transfer, not overlapped with it.
    if (touched.crossesNodes) duration += this.nodeMessage;
    const qi = leg.rank * this.channels + leg.queue;
    const start = Math.max(this.queueFree[qi]!, this.readyNs(leg));
    const end = start + duration;
    this.queueFree[qi] = end;
    // Indexed loops here and below: an iterator made a leg was a tenth of a timing-only run's garbage.
    const kept = leg.step < this.unreadFrom ? leg.dsts.length : 0;
    for (let k = 0; k < kept; k++) {
      const d = leg.dsts[k] as BufRef;
      const f = fold.fold(d, leg.step, this.folded);
      // The image's writer: the leg's rank taken as the range's node is taken to the first.
      const writer = fold.back(leg.rank, f.nodes) * this.channels + leg.queue;
      this.writes.write(f.rank, d.buffer, f.elem, end, leg.count, writer);
    }
    if (end > this.last) this.last = end;
    this.p.recorder?.placed(leg, start, end);
  }

  /** When what a leg reads has been written and the peers it touches are ready. */
  private readyNs(leg: LegSpec): number {
    let ready = 0;
    for (let k = 0; k < leg.srcs.length; k++) {
      const ref = (leg.srcs[k] as LegSource).ref;
      // An input no leg has written needs no image to be looked up.
      const f = this.writes.mayHold(ref.buffer) ? this.p.fold.fold(ref, leg.step, this.folded) : undefined;
      if (f !== undefined && this.writes.spans) {
        ready = Math.max(ready, this.spanReady(f, ref, leg));
        continue;
      }
      if (f === undefined || !this.writes.find(f.rank, ref.buffer, f.elem)) {
        if (ref.buffer !== "input") {
          throw new Error(
            `planner: leg reads ${ref.rank}:${ref.buffer}:${ref.elem}, not written in the last ${this.writes.kept} steps`,
          );
        }
        // Never written: a peer's input, ready once the peer says so.
        if (ref.rank !== leg.rank) ready = Math.max(ready, this.waits.ns(ref.rank, -1, leg.rank, leg.queue));
        continue;
      }
      if (this.writes.count() !== leg.count) {
        throw new Error(
          `planner: leg reads ${ref.rank}:${ref.buffer}:${ref.elem}×${leg.count} but it was written ×${this.writes.count()}`,
        );
      }
      ready = Math.max(ready, this.hitReady(f as Folded, leg));
    }
    // Writing into a peer needs the peer ready too.
    for (let k = 0; k < leg.dsts.length; k++) {
      const d = leg.dsts[k] as BufRef;
      if (d.rank !== leg.rank) ready = Math.max(ready, this.waits.ns(d.rank, -1, leg.rank, leg.queue));
    }
    return ready;
  }

  /** When the write just found (LastWrites' hit) is seen by `leg`'s queue. */
  private hitReady(f: Folded, leg: LegSpec): number {
    const wq = this.writes.queue();
    const writer = this.p.fold.unfold(Math.floor(wq / this.channels), f.nodes);
    const end = this.writes.end();
    this.p.recorder?.waited?.(writer, wq % this.channels, end);
    return end + this.waits.ns(writer, wq % this.channels, leg.rank, leg.queue);
  }

  /**
   * When a read that may be part of one write or span several (spanWriters' rules, RDH) can start:
   * the newer of the write starting where it starts and the one ending where it ends, if that one
   * holds the read; else the consecutive writes from its start.
   */
  private spanReady(f: Folded, ref: BufRef, leg: LegSpec): number {
    const w = this.writes;
    const stop = f.elem + leg.count;
    const first = w.find(f.rank, ref.buffer, f.elem) ? w.age() : Number.POSITIVE_INFINITY;
    const last = w.findEnd(f.rank, ref.buffer, stop);
    if (last && w.age() < first && stop - w.count() <= f.elem) return this.hitReady(f, leg);
    if (first === Number.POSITIVE_INFINITY) {
      if (last) throw badRead(ref, leg.count, "not as written");
      if (ref.buffer !== "input") throw badRead(ref, leg.count, `not written in the last ${w.kept} steps`);
      return ref.rank === leg.rank ? 0 : this.waits.ns(ref.rank, -1, leg.rank, leg.queue);
    }
    let ready = 0;
    for (let at = f.elem; at < stop; at += w.count()) {
      if (!w.find(f.rank, ref.buffer, at)) throw badRead(ref, leg.count, "not as written");
      ready = Math.max(ready, this.hitReady(f, leg));
      // The first write may hold the whole read (its first part); a later one must end inside it.
      if (at + w.count() > stop) {
        if (at === f.elem) break;
        throw badRead(ref, leg.count, "not as written");
      }
    }
    return ready;
  }
}

/**
 * The planner bug a read {@link Placer}'s spanReady cannot place is. A function, not a closure per
 * read: tsx (the bench, the tests) names each closure it makes with an Object.defineProperty.
 */
function badRead(ref: BufRef, count: number, why: string): Error {
  return new Error(`planner: leg reads ${ref.rank}:${ref.buffer}:${ref.elem}×${count}, ${why}`);
}
