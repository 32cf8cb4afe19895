/**
 * The one scheduler: places a collective's legs in time with the cost model (cost-model.ts) as the
 * planner emits them, in one streaming pass that keeps no leg. A pre-pass over the same emission
 * counts, per step, the queues touching each shared resource (what bandwidth is shared by). Memory
 * is bounded by the ranges written (one end time and writer per range, in typed arrays), not by the
 * legs, so timing-only reaches rank counts and sizes whose plans would not fit in memory. A trace
 * asks for the per-leg times: `record` keeps start / end per leg (plan order = leg id) on the same
 * pass. The result depends only on the request and SR — never on data — so a timing-only run and a
 * full run report the same time.
 */
import { dtypeBytes } from "../../spec/dtype.js";
import { emitPlan } from "../plan/build-plan.js";
import type { BufferName, BufRef, LegKind } from "../plan/plan.js";
import type { LegSink, LegSpec } from "../plan/plan-builder.js";
import type { PlanRequest } from "../plan/plan-request.js";
import { ARCH_TIMING, SEMAPHORE_TO_START_NS } from "./cost-model.js";
import { LegCoster } from "./leg-cost.js";
import type { ArchLinks } from "./links.js";
import { CHIP_PORTS, chipRoute } from "./route.js";
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

/**
 * Integer ids of the shared resources: each chip's HBM, each direction of each chip-to-chip link
 * inside a node (route.ts), each node's EFA NICs (out and in), each rank's DMA ceiling.
 */
class Resources {
  readonly count: number;
  private readonly chip: Int32Array;
  private readonly chipInNode: Int32Array;
  private readonly node: Int32Array;
  /** Per rank: its node's first NIC id and its chip's own NIC index. */
  private readonly nicBase: Int32Array;
  private readonly nicOwn: Int32Array;
  private readonly nics: number;
  private readonly hbmEnd: number;
  private readonly c2cEnd: number;
  private readonly nicOutEnd: number;
  private readonly nicInEnd: number;
  private readonly cpn: number;
  private readonly links: ArchLinks;
  private readonly bw: readonly [number, number, number, number];

  constructor(t: Topology) {
    const cpn = t.links.chipsPerNode;
    const nics = t.links.nicsPerNode;
    this.cpn = cpn;
    this.chip = Int32Array.from(t.places, (p) => p.node * cpn + p.chip);
    this.chipInNode = Int32Array.from(t.places, (p) => p.chip);
    this.node = Int32Array.from(t.places, (p) => p.node);
    this.nics = nics;
    this.nicBase = Int32Array.from(t.places, (p) => p.node * nics);
    this.nicOwn = Int32Array.from(t.places, (p) => Math.floor((p.chip * nics) / cpn));
    this.links = t.links;
    this.hbmEnd = t.nodes * cpn;
    this.c2cEnd = this.hbmEnd + t.nodes * cpn * CHIP_PORTS;
    this.nicOutEnd = this.c2cEnd + t.nodes * nics;
    this.nicInEnd = this.nicOutEnd + t.nodes * nics;
    this.count = this.nicInEnd + t.ranks;
    const l = t.links.links;
    const dma = ARCH_TIMING[t.profile.name].coreDmaBytesPerNs * t.lnc;
    this.bw = [l["intra-chip"].bytesPerNs, l["chip-to-chip"].bytesPerNs, l["node-to-node"].bytesPerNs, dma];
  }

  /** The HBM of a rank's chip. */
  hbm(rank: number): number {
    return this.chip[rank]!;
  }

  /** A rank's DMA ceiling. */
  dma(rank: number): number {
    return this.nicInEnd + rank;
  }

  /** Add every chip-to-chip link a transfer from → to crosses inside a node (none across nodes). */
  c2c(from: number, to: number, touches: Touches): void {
    const node = this.node[from]!;
    if (node !== this.node[to]! || this.chip[from]! === this.chip[to]!) return;
    touches.linkBase = this.hbmEnd + node * this.cpn * CHIP_PORTS;
    chipRoute(this.links, this.chipInNode[from]!, this.chipInNode[to]!, touches.addLink);
  }

  /**
   * The sending NIC of a transfer from → to across nodes on a rank's DMA channel, or −1. MODEL: the
   * runtime spreads a rank's channels over the node's NICs, starting at its chip's own.
   */
  nicOut(from: number, to: number, channel: number): number {
    if (this.node[from]! === this.node[to]!) return -1;
    return this.c2cEnd + this.nicBase[from]! + ((this.nicOwn[from]! + channel) % this.nics);
  }

  /** The receiving NIC of a transfer from → to across nodes on a channel (as {@link nicOut}), or −1. */
  nicIn(from: number, to: number, channel: number): number {
    if (this.node[from]! === this.node[to]!) return -1;
    return this.nicOutEnd + this.nicBase[to]! + ((this.nicOwn[to]! + channel) % this.nics);
  }

  bandwidth(id: number): number {
    return this.bw[id < this.hbmEnd ? 0 : id < this.c2cEnd ? 1 : id < this.nicInEnd ? 2 : 3];
  }
}

/** The resources one leg touches, with its bytes there in units of the leg's bytes. */
class Touches {
  /** At most 7 per source and destination (HBM, 4 links, 2 NICs) and one more; ≤ 32 sources. */
  readonly ids = new Int32Array(512);
  readonly times = new Int32Array(512);
  size = 0;
  /** The first link id of the node a route runs in. */
  linkBase = 0;
  readonly addLink = (id: number): void => this.add(this.linkBase + id, 1);

  of(res: Resources, leg: LegSpec): this {
    this.size = 0;
    for (const s of leg.srcs) {
      this.add(res.hbm(s.ref.rank), 1);
      this.links(res, s.ref.rank, leg.rank, leg.queue);
    }
    for (const d of leg.dsts) {
      this.add(res.hbm(d.rank), 1);
      this.links(res, leg.rank, d.rank, leg.queue);
    }
    // The engine moves max(read, written): so does the rank's DMA.
    this.add(res.dma(leg.rank), Math.max(leg.srcs.length, leg.dsts.length));
    return this;
  }

  /** The links data crosses from one rank's memory to another's, beyond the HBM. */
  private links(res: Resources, from: number, to: number, channel: number): void {
    res.c2c(from, to, this);
    this.add(res.nicOut(from, to, channel), 1);
    this.add(res.nicIn(from, to, channel), 1);
  }

  private add(id: number, times: number): void {
    if (id < 0) return;
    for (let k = 0; k < this.size; k++) {
      if (this.ids[k] === id) {
        this.times[k]! += times;
        return;
      }
    }
    this.ids[this.size] = id;
    this.times[this.size++] = times;
  }
}

const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;
/** Per range: end time, element count, writer queue index. */
const STRIDE = 3;

/** A written range: its rank and its dense (buffer, element) index. */
interface Slot {
  rank: number;
  index: number;
}

/**
 * The last write of every range written so far — its end time, count and writer queue side by side
 * in paged Float64Arrays, per rank so that a rank's consecutive legs stay in cache.
 * A range is (rank, buffer, first element); the distinct (buffer, element) pairs get dense indices
 * shared by all ranks.
 */
class Writes {
  /** Per buffer, element → dense index. */
  private readonly index: Readonly<Record<BufferName, Map<number, number>>> = {
    input: new Map(),
    output: new Map(),
    scratch: new Map(),
  };
  private indices = 0;
  private readonly pages: Float64Array[][];

  constructor(ranks: number) {
    this.pages = Array.from({ length: ranks }, () => []);
  }

  /** The page holding a rank's range of a dense index, or undefined before any write there. */
  private at(rank: number, index: number): Float64Array | undefined {
    return (this.pages[rank] as Float64Array[])[index >>> PAGE_BITS];
  }

  /** The element count of the last write of a range (into `out`: where it is), 0 when never written. */
  count(ref: BufRef, out: Slot): number {
    const i = this.index[ref.buffer].get(ref.elem);
    if (i === undefined) return 0;
    out.rank = ref.rank;
    out.index = i;
    return this.at(ref.rank, i)?.[STRIDE * (i & (PAGE - 1)) + 1] ?? 0;
  }

  /** End time of a range {@link count} found written. */
  end(s: Slot): number {
    return (this.at(s.rank, s.index) as Float64Array)[STRIDE * (s.index & (PAGE - 1))]!;
  }

  /** Writer queue index (rank · channels + queue) of a range {@link count} found written. */
  queue(s: Slot): number {
    return (this.at(s.rank, s.index) as Float64Array)[STRIDE * (s.index & (PAGE - 1)) + 2]!;
  }

  write(ref: BufRef, end: number, count: number, queue: number): void {
    const index = this.index[ref.buffer];
    let i = index.get(ref.elem);
    if (i === undefined) {
      i = this.indices++;
      index.set(ref.elem, i);
    }
    const pages = this.pages[ref.rank] as Float64Array[];
    while (pages.length <= i >>> PAGE_BITS) pages.push(new Float64Array(STRIDE * PAGE));
    const page = pages[i >>> PAGE_BITS] as Float64Array;
    const at = STRIDE * (i & (PAGE - 1));
    page[at] = end;
    page[at + 1] = count;
    page[at + 2] = queue;
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
 */
class StepUsers implements LegSink {
  readonly steps = new Map<number, Float64Array>();
  private step = -1;
  private rank = -1;
  /** Bytes per queue of the current rank in the current step, and the queues that have some. */
  private readonly queueBytes: Float64Array;
  private readonly queues: number[] = [];
  /** Bytes per (resource, queue) pair of the current rank in the current step. */
  private readonly pairs = new Map<number, number>();
  private readonly sharers: Float64Array;
  private readonly touched: number[] = [];
  private readonly touches = new Touches();

  constructor(
    private readonly res: Resources,
    private readonly channels: number,
    private readonly queueCount: number,
    private readonly eb: number,
  ) {
    this.queueBytes = new Float64Array(queueCount);
    this.sharers = new Float64Array(res.count);
  }

  add(leg: LegSpec): void {
    if (leg.step !== this.step) {
      this.flush();
      if (this.steps.has(leg.step)) throw new Error(`planner: step ${leg.step} emitted in two runs`);
      this.step = leg.step;
    }
    if (leg.rank !== this.rank) this.flushRank();
    this.rank = leg.rank;
    const qi = leg.rank * this.channels + leg.queue;
    const bytes = leg.count * this.eb;
    if (this.queueBytes[qi]! === 0) this.queues.push(qi);
    this.queueBytes[qi]! += bytes;
    const { ids, size } = this.touches.of(this.res, leg);
    for (let k = 0; k < size; k++) {
      const pair = ids[k]! * this.queueCount + qi;
      this.pairs.set(pair, (this.pairs.get(pair) ?? 0) + bytes);
    }
  }

  /** Add the current rank's queues to the step's sharers. */
  private flushRank(): void {
    for (const [pair, bytes] of this.pairs) {
      const id = Math.floor(pair / this.queueCount);
      const qi = pair - id * this.queueCount;
      if (this.sharers[id]! === 0) this.touched.push(id);
      this.sharers[id]! += bytes / this.queueBytes[qi]!;
    }
    for (const qi of this.queues) this.queueBytes[qi] = 0;
    this.queues.length = 0;
    this.pairs.clear();
  }

  /** Close the current step. */
  flush(): void {
    if (this.step < 0) return;
    this.flushRank();
    this.rank = -1;
    const out = new Float64Array(2 * this.touched.length);
    this.touched.forEach((id, k) => {
      out[2 * k] = id;
      out[2 * k + 1] = Math.max(1, this.sharers[id]!);
      this.sharers[id] = 0;
    });
    this.touched.length = 0;
    this.steps.set(this.step, out);
  }
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

/** The pass that places each leg as it arrives (plan order) and keeps only what later legs read. */
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
  private readonly writes: Writes;
  private readonly touches = new Touches();
  private readonly slot: Slot = { rank: 0, index: 0 };
  private readonly coster: LegCoster;
  private readonly eb: number;
  private readonly channels: number;

  constructor(
    private readonly t: Topology,
    req: PlanRequest,
    private readonly res: Resources,
    private readonly steps: ReadonlyMap<number, Float64Array>,
    sr: boolean,
    private readonly recorder: Recorder | undefined,
  ) {
    this.users = new Float64Array(res.count);
    this.channels = t.channelsPerRank;
    this.queueFree = new Float64Array(t.ranks * this.channels);
    this.writes = new Writes(t.ranks);
    this.coster = new LegCoster(t.profile, req.dtype, req.op, sr);
    this.eb = dtypeBytes(req.dtype);
  }

  private enterStep(step: number): void {
    const leaving = this.steps.get(this.step);
    if (leaving !== undefined) for (let k = 0; k < leaving.length; k += 2) this.users[leaving[k]!] = 0;
    const entering = this.steps.get(step) as Float64Array;
    for (let k = 0; k < entering.length; k += 2) this.users[entering[k]!] = entering[k + 1]!;
    this.step = step;
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
      duration = Math.max(duration, (bytes * times[k]! * this.users[id]!) / this.res.bandwidth(id));
    }
    const qi = leg.rank * this.channels + leg.queue;
    let start = this.queueFree[qi]!;
    const slot = this.slot;
    for (const { ref } of leg.srcs) {
      const count = this.writes.count(ref, slot);
      if (count === 0) {
        // Never written: a peer's input, ready once the peer says so.
        if (ref.rank !== leg.rank) start = Math.max(start, waitNs(this.t, ref.rank, -1, leg.rank, leg.queue));
        continue;
      }
      if (count !== leg.count) {
        throw new Error(
          `planner: leg reads ${ref.rank}:${ref.buffer}:${ref.elem}×${leg.count} but it was written ×${count}`,
        );
      }
      const wq = this.writes.queue(slot);
      const wait = waitNs(this.t, Math.floor(wq / this.channels), wq % this.channels, leg.rank, leg.queue);
      start = Math.max(start, this.writes.end(slot) + wait);
    }
    // Writing into a peer needs the peer ready too.
    for (const d of leg.dsts)
      if (d.rank !== leg.rank) start = Math.max(start, waitNs(this.t, d.rank, -1, leg.rank, leg.queue));
    const end = start + duration;
    this.queueFree[qi] = end;
    for (const d of leg.dsts) this.writes.write(d, end, leg.count, qi);
    if (end > this.last) this.last = end;
    this.recorder?.push(start, end);
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

/**
 * Time a collective in one streaming pass (plus the sharing pre-pass); with `record`, keep the
 * per-leg times (index = the leg's id in {@link buildPlan}'s plan).
 * @throws UsageError as {@link emitPlan}.
 * @example scheduleCollective({ topology, collective: "allr", algorithm: "ring", dtype, op: "sum",
 *   count: 1 << 29 }, { sr: false }).totalNs;
 */
export function scheduleCollective(req: PlanRequest, opts: ScheduleOptions): Timing {
  const t = req.topology;
  const res = new Resources(t);
  const users = new StepUsers(res, t.channelsPerRank, t.ranks * t.channelsPerRank, dtypeBytes(req.dtype));
  emitPlan(req, users);
  users.flush();
  const recorder = opts.record === true ? new Recorder() : undefined;
  const placer = new Placer(t, req, res, users.steps, opts.sr, recorder);
  emitPlan(req, placer);
  const totalNs = ARCH_TIMING[t.profile.name].launchNs + placer.last;
  const timing = { totalNs, legKinds: placer.kinds, descriptors: placer.descriptors };
  if (recorder === undefined) return timing;
  const schedule = {
    start: recorder.start.subarray(0, recorder.size),
    end: recorder.end.subarray(0, recorder.size),
    totalNs,
  };
  return { ...timing, schedule };
}
