/**
 * A plan's execution split over threads: each thread runs the legs of its ranks (so each device
 * queue, its rings and its stochastic-rounding stream belong to one thread for the whole run) in
 * plan order, on a device machine of its own over the same shared device memory, each leg once the
 * legs of other threads it waits for are done (leg-waits.ts: those it clashes with or is after).
 * The threads tell each other their progress through a shared array (Atomics.wait / notify): no
 * step where all threads meet, no message a step — a thread that falls behind in one step delays
 * another only where that one needs its bytes.
 *
 * The pages the legs write (their destinations and the queues' rings) are allocated before the
 * run, on the calling thread, and their first touch split over the threads, each setting its part
 * before any thread runs a leg — but for the pages legs overwrite whole before anything reads them
 * (split-pages.ts): no thread allocates a page during it (engine DeviceMemory.sharePages).
 */
import type { SharedPages } from "../../engine/index.js";
import { batches, type DeviceMachine } from "../device/device-machine.js";
import { isSb2sb } from "../plan/packets.js";
import type { Leg, Plan } from "../plan/plan.js";
import { legThread, legWaits } from "./leg-waits.js";
import { encodePlan } from "./plan-wire.js";
import { beat, postToWorkers, runOnWorkers, SILENCE, silentError } from "./pool.js";
import { overwrittenPages, writtenPages } from "./split-pages.js";
import type { ExecuteTask } from "./tasks.js";
import { splitParts } from "./threaded-run.js";

/** Whether a plan can run split over threads: none of its legs is an SB2SB leg (staged in SBUF). */
export const splittable = (plan: Plan): boolean => !plan.legs.some((leg) => isSb2sb(leg));

/** Thrown where a thread stops waiting because another failed (that thread says why). */
export class OtherThreadFailed extends Error {
  constructor() {
    super("another thread of the run failed");
  }
}

/**
 * The progress of a split execution, shared by its threads: per thread, the plan index after its
 * last leg done (−1 until its pages are set, FAILED once it failed); after them, a flag raised when
 * any thread failed.
 */
function newProgress(threads: number): Int32Array {
  const progress = new Int32Array(new SharedArrayBuffer(4 * (threads + 1)));
  progress.fill(-1, 0, threads);
  return progress;
}

/** A failed thread's progress: past every leg, so no thread waits for it. */
const FAILED = 0x7fffffff;

/** Tell the other threads that thread `slot` is at plan index `at`. */
function tell(progress: Int32Array, slot: number, at: number): void {
  Atomics.store(progress, slot, at);
  Atomics.notify(progress, slot);
}

/**
 * Wait until thread k is past plan index `index`. @throws OtherThreadFailed when a thread failed;
 * Error when thread k did no leg for pool.ts SILENCE (a worker that died).
 */
function waitPast(progress: Int32Array, k: number, index: number): void {
  for (let v = Atomics.load(progress, k); v <= index; v = Atomics.load(progress, k)) {
    if (Atomics.wait(progress, k, v, SILENCE.ms) === "timed-out" && Atomics.load(progress, k) === v)
      throw silentError(`thread ${k} of the run`);
    // Thread k moved: a worker waiting on it is not silent (the calling thread would drop it).
    beat();
  }
  if (Atomics.load(progress, progress.length - 1) !== 0) throw new OtherThreadFailed();
}

/**
 * Thread `slot`'s share of a split execution: `setUp` (its part of the pages set; on a worker, its
 * machine made first; on the calling thread, `waits` filled), then, once every thread has set up,
 * its legs in plan order, each after the legs it waits for (`waits`: legWaits, shared by the
 * threads); `onLeg` told the plan index after each. A failure (its own, or another thread's:
 * OtherThreadFailed) is told to the other threads before it is thrown, so none waits for ever. The
 * machine its legs ran on.
 */
export function runShare(
  progress: Int32Array,
  slot: number,
  setUp: () => DeviceMachine,
  waits: Int32Array,
  onLeg?: (next: number) => void,
): DeviceMachine {
  const threads = progress.length - 1;
  try {
    const machine = setUp();
    const legs = machine.plan.legs;
    tell(progress, slot, 0);
    // `waits` is read only from here: the calling thread filled it before it told it set up, and
    // what a thread wrote before an Atomics store is seen after the Atomics load that sees it.
    for (let k = 0; k < threads; k++) waitPast(progress, k, -1);
    for (let i = 0; i < legs.length; i++) {
      const leg = legs[i] as Leg;
      if (legThread(leg, threads) !== slot) continue;
      for (let k = 0; k < threads; k++) {
        const j = waits[i * threads + k] as number;
        if (j >= 0) waitPast(progress, k, j);
      }
      machine.post(leg);
      machine.run();
      tell(progress, slot, i + 1);
      beat();
      onLeg?.(i + 1);
    }
    tell(progress, slot, legs.length);
    return machine;
  } catch (e) {
    Atomics.store(progress, threads, 1);
    tell(progress, slot, FAILED);
    throw e;
  }
}

/**
 * What tells `onBatch` (DeviceMachine.execute's) the legs every thread is past — a prefix of the
 * plan done — each time this thread passes a batch's end (`onLeg`, given the plan index after
 * each of its legs); `told`: the last count told.
 */
function batchTeller(
  plan: Plan,
  progress: Int32Array,
  threads: number,
  onBatch: ((legsDone: number) => void) | undefined,
): { readonly onLeg: (next: number) => void; readonly told: () => number } {
  const ends = batches(plan).map(([, end]) => end);
  let nextEnd = 0;
  let told = 0;
  const onLeg = (next: number) => {
    if (onBatch === undefined || nextEnd >= ends.length || next < (ends[nextEnd] as number)) return;
    while (next >= (ends[nextEnd] as number)) nextEnd++;
    told = Math.min(...progress.subarray(0, threads));
    onBatch(told);
  };
  return { onLeg, told: () => told };
}

/**
 * Execute the machine's plan on `threads` threads (machine.execute, split): each worker makes a
 * machine of its own over the shared pages and runs its share (runShare) while this thread runs its
 * own. The machine counts every thread's packets. `onBatch` as DeviceMachine.execute's, told the
 * legs every thread is past (a prefix of the plan done) as this thread passes each batch's end.
 * @throws Error with a worker's message when a worker's leg faults.
 */
export function executeOnThreads(
  machine: DeviceMachine,
  threads: number,
  onBatch?: (legsDone: number) => void,
): void {
  const memory = machine.device.memory;
  const { overflow, srSeed } = machine.opts;
  const options = { overflow, ...(srSeed === undefined ? {} : { srSeed }) };
  const plan = encodePlan(machine.plan);
  // Each worker makes its machine while this thread finds the pages to share (about as long).
  const make: ExecuteTask = { task: "execute", step: "machine", plan, profile: machine.profile, options };
  postToWorkers(new Array<ExecuteTask>(threads - 1).fill(make));
  const pages = memory.sharePages(writtenPages(machine));
  // A page a leg overwrites whole before anything reads it is not set first (≈ 700 MiB of the
  // 8-rank 64 MiB all-reduce's 726 MiB of new pages): what a page held before the run, never seen.
  const whole = overwrittenPages(machine);
  const shared: SharedPages = { ...pages, owed: pages.owed.filter(([pageNo]) => !whole.has(pageNo)) };
  try {
    const parts = splitParts(shared.owed.length, threads);
    // Every thread runs its share, with pages to set or none (fewer owed pages than threads: all
    // new pages may read right already, and a thread missing from the run would be waited for).
    while (parts.length < threads) parts.push({ first: shared.owed.length, end: shared.owed.length });
    const progress = newProgress(threads);
    const legs = machine.plan.legs.length;
    const waits = new Int32Array(new SharedArrayBuffer(4 * legs * threads));
    const tasks: ExecuteTask[] = parts.slice(1).map((part, k) => ({
      task: "execute",
      step: "run",
      shared,
      slot: k + 1,
      progress,
      waits,
      set: part,
    }));
    const own = parts[0] as { first: number; end: number };
    const teller = batchTeller(machine.plan, progress, threads, onBatch);
    // The waits are found once, here: the workers meanwhile adopt the shared pages and set theirs.
    const setUp = () => {
      memory.setPages(shared, own.first, own.end);
      waits.set(legWaits(machine.plan, machine.layout, threads));
      return machine;
    };
    const counts = runOnWorkers<number>(tasks, () => {
      try {
        runShare(progress, 0, setUp, waits, teller.onLeg);
      } catch (e) {
        // The thread that failed says why (its answer); a wait it ended is no reason of its own.
        if (!(e instanceof OtherThreadFailed)) throw e;
      }
    });
    if (counts.some((n) => n < 0) || Atomics.load(progress, threads) !== 0)
      throw new Error("a thread of the run stopped without saying why");
    machine.packets += counts.reduce((a, b) => a + b, 0);
    if (teller.told() < legs) onBatch?.(legs);
  } finally {
    memory.unseal();
  }
}
