/**
 * A plan's execution split over threads: each thread runs the legs of its ranks (so each device
 * queue, its rings and its stochastic-rounding stream belong to one thread for the whole run) on a
 * device machine of its own over the same shared device memory, a batch of independent legs at a
 * time, all threads meeting at the end of each batch. Within a batch no leg of one thread reads
 * or writes bytes a leg of another writes (batches are cut where one would), so every byte ends as
 * the run on one thread leaves it, in any interleaving.
 *
 * The pages the legs write (their destinations and the queues' rings) are allocated before the
 * run, on the calling thread, and their first touch split over the threads: no thread allocates a
 * page during it (engine DeviceMemory.sharePages).
 */
import { PAGE_BYTES, type SharedPages } from "../../engine/index.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { batches, type DeviceMachine, legQueue, RING_SLOTS, ringBaseOf } from "../device/device-machine.js";
import { isSb2sb } from "../plan/packets.js";
import type { BufRef, Leg, Plan } from "../plan/plan.js";
import { runOnWorkers } from "./pool.js";
import type { WorkerTask } from "./tasks.js";
import { splitParts } from "./threaded-run.js";

/** The thread that runs a leg: by its rank, so a device queue (legQueue) has one thread. */
export const legThread = (leg: Leg, threads: number): number => leg.rank % threads;

/** Bytes of a queue's TX and RX rings (device-machine.ts ringBaseOf: the RX ring right after). */
const RING_PAIR_BYTES = 2 * RING_SLOTS * 16;

/** Pages [lo, hi) of device memory touches, added to `pages`. */
function addPages(pages: Set<number>, lo: number, hi: number): void {
  for (let p = Math.floor(lo / PAGE_BYTES); p * PAGE_BYTES < hi; p++) pages.add(p);
}

/** The device pages a run of the plan writes: its legs' destinations and their queues' rings. */
export function writtenPages(machine: DeviceMachine): Set<number> {
  const { plan, profile, layout } = machine;
  const eb = dtypeBytes(plan.dtype);
  const pages = new Set<number>();
  const queues = new Set<bigint>();
  for (const leg of plan.legs) {
    queues.add(ringBaseOf(profile, legQueue(profile, plan.lnc, leg.rank, leg.queue)));
    for (const d of leg.dsts) {
      const at = Number(layout.addr(d, 0));
      addPages(pages, at, at + leg.count * eb);
    }
  }
  for (const base of queues) addPages(pages, Number(base), Number(base) + RING_PAIR_BYTES);
  return pages;
}

/** Address spans [lo, hi) as flat pairs. */
type Spans = number[];

/** Whether any span of `a` meets any of `b`. */
function meet(a: Spans, b: Spans): boolean {
  for (let i = 0; i < a.length; i += 2)
    for (let j = 0; j < b.length; j += 2)
      if ((a[i] as number) < (b[j + 1] as number) && (b[j] as number) < (a[i + 1] as number)) return true;
  return false;
}

/** A leg's reads and writes as address spans, and its thread. */
interface LegSpans {
  readonly thread: number;
  readonly reads: Spans;
  readonly writes: Spans;
}

/**
 * Whether no leg writes bytes a leg of another thread reads or writes (sorting the spans by their
 * start: a batch has hundreds of legs, and comparing each pair took most of a step's time).
 */
function disjoint(legs: readonly LegSpans[]): boolean {
  const all: { lo: number; hi: number; thread: number; write: boolean }[] = [];
  for (const l of legs) {
    for (let i = 0; i < l.reads.length; i += 2)
      all.push({ lo: l.reads[i] as number, hi: l.reads[i + 1] as number, thread: l.thread, write: false });
    for (let i = 0; i < l.writes.length; i += 2)
      all.push({ lo: l.writes[i] as number, hi: l.writes[i + 1] as number, thread: l.thread, write: true });
  }
  all.sort((a, b) => a.lo - b.lo);
  // Each span is checked against the spans starting inside it; a pair that overlaps always has one
  // starting inside the other.
  for (let i = 0; i < all.length; i++) {
    const a = all[i] as (typeof all)[number];
    for (let j = i + 1; j < all.length && (all[j] as (typeof all)[number]).lo < a.hi; j++) {
      const b = all[j] as (typeof all)[number];
      if (b.thread !== a.thread && (a.write || b.write)) return false;
    }
  }
  return true;
}

/**
 * The plan's batches (device-machine.ts batches) cut further wherever a leg reads or writes bytes
 * a leg of another thread in the batch so far writes, or writes bytes it reads: within each piece,
 * the threads' legs touch disjoint bytes but for what they only read.
 */
export function threadBatches(machine: DeviceMachine, threads: number): [number, number][] {
  const { plan, layout } = machine;
  const eb = dtypeBytes(plan.dtype);
  const span = (refs: readonly BufRef[], count: number): Spans => {
    const out: Spans = [];
    for (const r of refs) {
      const at = Number(layout.addr(r, 0));
      out.push(at, at + count * eb);
    }
    return out;
  };
  const out: [number, number][] = [];
  for (const [first, end] of batches(plan)) {
    const legs = plan.legs.slice(first, end).map((leg) => ({
      thread: legThread(leg, threads),
      reads: span(
        leg.srcs.map((src) => src.ref),
        leg.count,
      ),
      writes: span(leg.dsts, leg.count),
    }));
    if (disjoint(legs)) {
      out.push([first, end]);
      continue;
    }
    let start = first;
    let reads: Spans[] = Array.from({ length: threads }, () => []);
    let writes: Spans[] = Array.from({ length: threads }, () => []);
    for (let i = first; i < end; i++) {
      const { thread: t, reads: r, writes: w } = legs[i - first] as LegSpans;
      const clash = writes.some(
        (o, k) => k !== t && (meet(r, o) || meet(w, o) || meet(w, reads[k] as Spans)),
      );
      if (clash) {
        out.push([start, i]);
        start = i;
        reads = reads.map(() => []);
        writes = writes.map(() => []);
      }
      (reads[t] as Spans).push(...r);
      (writes[t] as Spans).push(...w);
    }
    out.push([start, end]);
  }
  return out;
}

/** Whether a plan can run split over threads: none of its legs is an SB2SB leg (staged in SBUF). */
export const splittable = (plan: Plan): boolean => !plan.legs.some((leg) => isSb2sb(leg));

/**
 * Execute the machine's plan on `threads` threads (machine.execute, split): each worker sets up a
 * machine of its own over the shared pages, then every batch runs its legs on every thread at once.
 * The machine counts every thread's packets. `onBatch` as DeviceMachine.execute's.
 * @throws Error with a worker's message when a worker's leg faults.
 */
export function executeOnThreads(
  machine: DeviceMachine,
  threads: number,
  onBatch?: (legsDone: number) => void,
): void {
  const memory = machine.device.memory;
  const shared: SharedPages = memory.sharePages(writtenPages(machine));
  try {
    const parts = splitParts(shared.owed.length, threads);
    const { overflow, srSeed } = machine.opts;
    const plan = JSON.stringify(machine.plan);
    const setups: WorkerTask[] = parts.slice(1).map((part, k) => ({
      task: "machine",
      plan,
      profile: machine.profile,
      options: { overflow, ...(srSeed === undefined ? {} : { srSeed }) },
      shared,
      slot: k + 1,
      threads,
      set: part,
    }));
    const own = parts[0] as { first: number; end: number };
    runOnWorkers(setups, () => memory.setPages(shared, own.first, own.end));
    const mine = (leg: Leg) => legThread(leg, threads) === 0;
    for (const [first, end] of threadBatches(machine, threads)) {
      const tasks: WorkerTask[] = setups.map(() => ({ task: "legs", first, end }));
      const counts = runOnWorkers<number>(tasks, () => machine.runLegs(first, end, mine));
      machine.packets += counts.reduce((a, b) => a + b, 0);
      onBatch?.(end);
    }
  } finally {
    runOnWorkers(
      Array.from({ length: threads - 1 }, () => ({ task: "release" }) as const),
      () => {},
    );
    memory.unseal();
  }
}
