/**
 * The schedule of a plan without the plan: the planner emits its legs twice into sinks that keep
 * no leg. Pass 1 counts, per step, the legs touching each shared resource (what the cost model
 * shares bandwidth by); pass 2 places each leg as it arrives and drops it. Memory is bounded by
 * the ranges written (one end time and writer per range, in typed arrays), not by the legs, so
 * timing-only reaches rank counts and sizes whose plans would not fit in memory.
 *
 * The times are those of {@link schedulePlan} (the oracle; `stream-schedule.test.ts` asserts equal
 * times over many plans): the same engine time function (cached per distinct leg shape — it is
 * pure), the same sharing rule, the same wait, the same maxima. Resources are integers here, names
 * there.
 */
import { dtypeBytes } from "../spec/dtype.js";
import { emitPlan } from "./build-plan.js";
import { engineCostModel, LAUNCH_OVERHEAD_NS } from "./cost-model.js";
import type { BufferName, BufRef, LegKind } from "./plan.js";
import type { LegSink, LegSpec } from "./plan-builder.js";
import type { PlanRequest } from "./plan-request.js";
import { engineNs, waitNs } from "./schedule.js";
import type { Topology } from "./topology.js";

export interface StreamedTiming {
  /** Launch overhead + the last end, in ns: {@link schedulePlan}'s `totalNs` for the same plan. */
  readonly totalNs: number;
  /** Legs of the plan, by kind. */
  readonly legKinds: Readonly<Record<LegKind, number>>;
}

/**
 * Integer ids of the shared resources (the names `schedule.ts` gives them): each chip's HBM, each
 * directed chip-to-chip link inside a node, each node's network interface.
 */
class Resources {
  readonly count: number;
  private readonly chip: Int32Array;
  private readonly chipInNode: Int32Array;
  private readonly node: Int32Array;
  private readonly hbmEnd: number;
  private readonly c2cEnd: number;
  private readonly cpn: number;
  private readonly bw: readonly [number, number, number];

  constructor(t: Topology) {
    const cpn = t.links.chipsPerNode;
    this.cpn = cpn;
    this.chip = Int32Array.from(t.places, (p) => p.node * cpn + p.chip);
    this.chipInNode = Int32Array.from(t.places, (p) => p.chip);
    this.node = Int32Array.from(t.places, (p) => p.node);
    this.hbmEnd = t.nodes * cpn;
    this.c2cEnd = this.hbmEnd + t.nodes * cpn * cpn;
    this.count = this.c2cEnd + t.nodes;
    const l = t.links.links;
    this.bw = [l["intra-chip"].bytesPerNs, l["chip-to-chip"].bytesPerNs, l["node-to-node"].bytesPerNs];
  }

  /** The HBM of a rank's chip. */
  hbm(rank: number): number {
    return this.chip[rank]!;
  }

  /** The link a transfer from → to crosses beyond its chip's HBM, or −1 on one chip. */
  link(from: number, to: number): number {
    const nf = this.node[from]!;
    if (nf !== this.node[to]!) return this.c2cEnd + nf;
    const cf = this.chip[from]!;
    if (cf !== this.chip[to]!) return this.hbmEnd + cf * this.cpn + this.chipInNode[to]!;
    return -1;
  }

  bandwidth(id: number): number {
    return this.bw[id < this.hbmEnd ? 0 : id < this.c2cEnd ? 1 : 2];
  }
}

/** The resources one leg touches, with how many times (its bytes there = bytes × times). */
class Touches {
  /** At most two per source and destination; a leg has ≤ 32 sources and a few destinations. */
  readonly ids = new Int32Array(256);
  readonly times = new Int32Array(256);
  size = 0;

  of(res: Resources, leg: LegSpec): this {
    this.size = 0;
    for (const s of leg.srcs) {
      this.add(res.hbm(s.ref.rank));
      this.add(res.link(s.ref.rank, leg.rank));
    }
    for (const d of leg.dsts) {
      this.add(res.hbm(d.rank));
      this.add(res.link(leg.rank, d.rank));
    }
    return this;
  }

  private add(id: number): void {
    if (id < 0) return;
    for (let k = 0; k < this.size; k++) {
      if (this.ids[k] === id) {
        this.times[k]!++;
        return;
      }
    }
    this.ids[this.size] = id;
    this.times[this.size++] = 1;
  }
}

const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;
/** `meta` packs a range's element count and its writer queue: count · QUEUE_SPAN + queue index. */
const QUEUE_SPAN = 65536;

/** A written range: its rank and its dense (buffer, element) index. */
interface Slot {
  rank: number;
  index: number;
}

/**
 * The last write of every range written so far — its end time and meta (count, writer queue)
 * side by side in paged Float64Arrays, per rank so that a rank's consecutive legs stay in cache.
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

  /** Meta (count · QUEUE_SPAN + queue) of the last write of a range, 0 when never written. */
  meta(ref: BufRef, out: Slot): number {
    const i = this.index[ref.buffer].get(ref.elem);
    if (i === undefined) return 0;
    out.rank = ref.rank;
    out.index = i;
    return this.at(ref.rank, i)?.[2 * (i & (PAGE - 1)) + 1] ?? 0;
  }

  /** End time of a range {@link meta} found written. */
  end(s: Slot): number {
    return (this.at(s.rank, s.index) as Float64Array)[2 * (s.index & (PAGE - 1))]!;
  }

  write(ref: BufRef, end: number, meta: number): void {
    const index = this.index[ref.buffer];
    let i = index.get(ref.elem);
    if (i === undefined) {
      i = this.indices++;
      index.set(ref.elem, i);
    }
    const pages = this.pages[ref.rank] as Float64Array[];
    while (pages.length <= i >>> PAGE_BITS) pages.push(new Float64Array(2 * PAGE));
    const page = pages[i >>> PAGE_BITS] as Float64Array;
    page[2 * (i & (PAGE - 1))] = end;
    page[2 * (i & (PAGE - 1)) + 1] = meta;
  }
}

/** Pass 1: per step, the number of legs touching each resource, as (id, legs) pairs. */
class StepUsers implements LegSink {
  readonly steps = new Map<number, Int32Array>();
  private step = -1;
  private readonly legs: Int32Array;
  private readonly touched: number[] = [];
  private readonly touches = new Touches();

  constructor(private readonly res: Resources) {
    this.legs = new Int32Array(res.count);
  }

  add(leg: LegSpec): void {
    if (leg.step !== this.step) {
      this.flush();
      if (this.steps.has(leg.step)) throw new Error(`planner: step ${leg.step} emitted in two runs`);
      this.step = leg.step;
    }
    const { ids, size } = this.touches.of(this.res, leg);
    for (let k = 0; k < size; k++) {
      const id = ids[k]!;
      if (this.legs[id]! === 0) this.touched.push(id);
      this.legs[id]!++;
    }
  }

  /** Close the current step. */
  flush(): void {
    if (this.step < 0) return;
    const pairs = new Int32Array(2 * this.touched.length);
    this.touched.forEach((id, k) => {
      pairs[2 * k] = id;
      pairs[2 * k + 1] = this.legs[id]!;
      this.legs[id] = 0;
    });
    this.touched.length = 0;
    this.steps.set(this.step, pairs);
  }
}

/** Pass 2: place each leg as it arrives (plan order) and keep only what later legs read. */
class Placer implements LegSink {
  last = 0;
  readonly kinds: Record<LegKind, number> = {
    copy: 0,
    "reduce-copy": 0,
    duplicate: 0,
    "sb2sb-copy": 0,
    "sb2sb-reduce": 0,
  };
  private step = -1;
  private readonly users: Int32Array;
  private readonly queueFree: Float64Array;
  private readonly writes: Writes;
  private readonly touches = new Touches();
  private readonly slot: Slot = { rank: 0, index: 0 };
  private readonly engine = new Map<number, number>();
  private lastKey = -1;
  private lastNs = 0;
  private readonly model;
  private readonly eb: number;
  private readonly queues: number;

  constructor(
    private readonly req: PlanRequest,
    private readonly res: Resources,
    private readonly steps: ReadonlyMap<number, Int32Array>,
    private readonly sr: boolean,
  ) {
    const t = req.topology;
    this.users = new Int32Array(res.count);
    this.queues = t.channelsPerRank;
    this.queueFree = new Float64Array(t.ranks * this.queues);
    this.writes = new Writes(t.ranks);
    this.model = engineCostModel(t.profile);
    this.eb = dtypeBytes(req.dtype);
  }

  private enterStep(step: number): void {
    const leaving = this.steps.get(this.step);
    if (leaving !== undefined) for (let k = 0; k < leaving.length; k += 2) this.users[leaving[k]!] = 0;
    const entering = this.steps.get(step) as Int32Array;
    for (let k = 0; k < entering.length; k += 2) this.users[entering[k]!] = entering[k + 1]!;
    this.step = step;
  }

  /** The engine time of a leg, computed once per distinct (kind, count, sources, destinations). */
  private engineTime(leg: LegSpec): number {
    const key = ((leg.count * 8 + KIND_CODE[leg.kind]) * 64 + leg.srcs.length) * 64 + leg.dsts.length;
    if (key === this.lastKey) return this.lastNs;
    let ns = this.engine.get(key);
    if (ns === undefined) {
      ns = engineNs(this.model, this.req.topology, this.req, leg, this.sr);
      this.engine.set(key, ns);
    }
    this.lastKey = key;
    this.lastNs = ns;
    return ns;
  }

  add(leg: LegSpec): void {
    if (leg.step !== this.step) this.enterStep(leg.step);
    this.kinds[leg.kind]++;
    const bytes = leg.count * this.eb;
    let duration = this.engineTime(leg);
    const { ids, times, size } = this.touches.of(this.res, leg);
    for (let k = 0; k < size; k++) {
      const id = ids[k]!;
      duration = Math.max(duration, (bytes * times[k]! * this.users[id]!) / this.res.bandwidth(id));
    }
    const qi = leg.rank * this.queues + leg.queue;
    let start = this.queueFree[qi]!;
    const t = this.req.topology;
    const slot = this.slot;
    for (const { ref } of leg.srcs) {
      const meta = this.writes.meta(ref, slot);
      if (meta === 0) continue;
      const count = Math.floor(meta / QUEUE_SPAN);
      if (count !== leg.count) {
        throw new Error(
          `planner: leg reads ${ref.rank}:${ref.buffer}:${ref.elem}×${leg.count} but it was written ×${count}`,
        );
      }
      const wq = meta - count * QUEUE_SPAN;
      const from = { rank: Math.floor(wq / this.queues), queue: wq % this.queues };
      start = Math.max(start, this.writes.end(slot) + waitNs(t, from, leg));
    }
    const end = start + duration;
    this.queueFree[qi] = end;
    for (const d of leg.dsts) this.writes.write(d, end, leg.count * QUEUE_SPAN + qi);
    if (end > this.last) this.last = end;
  }
}

const KIND_CODE: Readonly<Record<LegKind, number>> = {
  copy: 0,
  "reduce-copy": 1,
  duplicate: 2,
  "sb2sb-copy": 3,
  "sb2sb-reduce": 4,
};

/**
 * Time a collective without materialising its plan.
 * @throws UsageError as {@link emitPlan}.
 * @example scheduleStreamed({ topology, collective: "allr", algorithm: "ring", dtype, op: "sum",
 *   count: 1 << 29 }, { sr: false }).totalNs;
 */
export function scheduleStreamed(req: PlanRequest, opts: { readonly sr: boolean }): StreamedTiming {
  const res = new Resources(req.topology);
  const users = new StepUsers(res);
  emitPlan(req, users);
  users.flush();
  const placer = new Placer(req, res, users.steps, opts.sr);
  emitPlan(req, placer);
  return { totalNs: LAUNCH_OVERHEAD_NS + placer.last, legKinds: placer.kinds };
}
