/**
 * Worker threads for a functional run's independent work (a rank's inputs, a range of the check's
 * tiles), handed out and waited for synchronously: a run is a synchronous call, so the calling
 * thread posts each worker its task, does its own share, then blocks on a shared flag
 * (Atomics.wait) and takes the worker's answer off its port (receiveMessageOnPort) — no event loop
 * turn in between. The workers read and write device memory in place (shared memory: engine
 * DeviceMemory.spansOf); what they compute is what the calling thread would, bit for bit.
 *
 * A worker that dies (out of memory, say) posts no answer and raises no flag, and a thread blocked
 * in Atomics.wait never sees its exit event: so every wait here ends after {@link SILENCE} of no
 * word from the worker (an answer, a beat: {@link beat}) with a typed error, and the worker is
 * dropped from the pool.
 *
 * Node only, reached through `process.getBuiltinModule` so the library imports no `node:` module
 * for a browser: where it is missing a run uses one thread. The pool lives for the process; its
 * workers are unref'd, so they never keep it alive.
 */
import { SdmakitError, UsageError } from "../../bits/errors.js";
import { sourceWorkerBoot } from "./source-worker.js";
import type { WorkerTask } from "./tasks.js";

/* The slice of node:worker_threads used here (reached at run time, not imported). */
interface Port {
  postMessage(message: unknown): void;
}
interface WorkerLike {
  postMessage(message: unknown): void;
  unref(): void;
  terminate(): unknown;
}
interface WorkerOptions {
  readonly eval?: boolean;
  readonly workerData: unknown;
  readonly transferList: readonly unknown[];
}
interface WorkerThreads {
  Worker: new (script: URL | string, options: WorkerOptions) => WorkerLike;
  MessageChannel: new () => { port1: Port; port2: Port };
  receiveMessageOnPort(port: Port): { message: unknown } | undefined;
}

type Builtins = { getBuiltinModule?: (id: string) => unknown };
const builtin = <T>(id: string): T | undefined =>
  (globalThis as { process?: Builtins }).process?.getBuiltinModule?.(id) as T | undefined;

/** The cores this process may use (os.availableParallelism), 1 where it cannot tell. */
export function availableThreads(): number {
  const os = builtin<{ availableParallelism?: () => number }>("node:os");
  return Math.max(1, os?.availableParallelism?.() ?? 1);
}

/**
 * How long a thread waits with no word from a worker (an answer, a beat) before it calls the worker
 * stopped: far more than any task goes between beats (a leg, a rank's input, a part of the check,
 * each bounded by the device memory a run may take), far less than for ever. `ms` is changed only
 * by tests (the pool's own: a stopped worker).
 */
export const SILENCE = { ms: 300_000 };

/** The error a wait ends with when `who` said nothing for {@link SILENCE}. */
export const silentError = (who: string): SdmakitError =>
  new SdmakitError(`${who} said nothing for ${SILENCE.ms / 1000} s: it has stopped (out of memory?)`);

/** This worker's flag (worker.ts): where {@link beat} counts. */
let ownFlag: Int32Array | undefined;

/** Called once by a worker's entry with its flag, so {@link beat} reaches the waiting thread. */
export function beatInto(flag: Int32Array): void {
  ownFlag = flag;
}

/**
 * On a worker, tell the waiting thread it is still working (a no-op on the calling thread): a count
 * it reads when its wait for an answer times out, not a wake-up — one a leg woke it ≈ 180 times in
 * the last 60 ms of a split run where it finished its share first.
 */
export function beat(): void {
  if (ownFlag !== undefined) Atomics.add(ownFlag, BEATS, 1);
}

/** A worker's flag: its answers given (raised after each), then its beats. */
const ANSWERS = 0;
const BEATS = 1;
const FLAG_WORDS = 2;

/** On a worker, after posting an answer: the waiting thread's count of answers raised. */
export function answered(flag: Int32Array): void {
  Atomics.add(flag, ANSWERS, 1);
  Atomics.notify(flag, ANSWERS);
}

/**
 * A worker, its answer port, and the counts of answers it has given (raised after each) and of
 * tasks posted to it.
 */
interface Slot {
  readonly worker: WorkerLike;
  readonly port: Port;
  readonly flag: Int32Array;
  sent: number;
}

const slots: Slot[] = [];

/**
 * A worker of the built worker.js beside this module; run from the TypeScript source (the tests),
 * one that loads worker.ts as source-worker.ts says.
 */
function newWorker(wt: WorkerThreads, setup: WorkerOptions): WorkerLike {
  // The name is not a literal: a bundler (the web page's) would otherwise inline the worker file.
  const source = import.meta.url.endsWith(".ts");
  const name = source ? "./worker.ts" : "./worker.js";
  const script = new URL(name, import.meta.url);
  if (!source) return new wt.Worker(script, setup);
  return new wt.Worker(sourceWorkerBoot(script), { ...setup, eval: true });
}

/** `n` workers ready (made on first use, kept for the process). */
function workers(wt: WorkerThreads, n: number): Slot[] {
  while (slots.length < n) {
    const { port1, port2 } = new wt.MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4 * FLAG_WORDS));
    const worker = newWorker(wt, { workerData: { port: port2, flag }, transferList: [port2] });
    worker.unref();
    slots.push({ worker, port: port1, flag, sent: 0 });
  }
  return slots.slice(0, n);
}

/**
 * Have `n` workers started (made now if they are not yet), without waiting for them: a worker loads
 * its modules (≈ 0.3 s cold) while the calling thread plans the run, not while it waits for the
 * worker's first answer. @throws UsageError where the runtime has no worker threads.
 */
export function startWorkers(n: number): void {
  workers(workerThreads(), n);
}

/** Whether this runtime can run work on other threads (Node's worker threads, shared memory). */
export function threadsAvailable(): boolean {
  return typeof SharedArrayBuffer !== "undefined" && builtin("node:worker_threads") !== undefined;
}

/** A worker's answer: its value, its task's error, or (`silent`) the pool's error for a silent worker. */
type Answer = { value: unknown } | { error: string; silent?: SdmakitError };

/**
 * The waits a {@link SILENCE} is cut into: a beat is a count, not a wake-up (one a leg woke the
 * waiting thread ≈ 180 times at the end of a split run), so a wait reads it at a slice's end; a
 * worker that stopped is dropped within SILENCE and one slice of its last word, not two SILENCEs.
 */
const SILENCE_SLICES = 8;

/**
 * Wait for a slot's answers to all it was sent; its answer to the last, those before dropped. A
 * worker silent for {@link SILENCE} (no answer nor beat in {@link SILENCE_SLICES} slices of it in a
 * row) is dropped from the pool and answers with why.
 */
function lastAnswer(wt: WorkerThreads, slot: Slot): Answer {
  const { flag } = slot;
  let n = Atomics.load(flag, ANSWERS);
  let beats = Atomics.load(flag, BEATS);
  for (let quiet = 0; n < slot.sent; ) {
    Atomics.wait(flag, ANSWERS, n, SILENCE.ms / SILENCE_SLICES);
    const answers = Atomics.load(flag, ANSWERS);
    const now = Atomics.load(flag, BEATS);
    quiet = answers === n && now === beats ? quiet + 1 : 0;
    if (quiet === SILENCE_SLICES) return drop(slot);
    n = answers;
    beats = now;
  }
  let answer: Answer = { error: "no answer" };
  for (let m = wt.receiveMessageOnPort(slot.port); m !== undefined; m = wt.receiveMessageOnPort(slot.port))
    answer = m.message as Answer;
  return answer;
}

/** Stop the pool's worker `i` behind its back, as a crash would (tests: the silence limit). */
export function stopWorkerForTest(i: number): void {
  slots[i]?.worker.terminate();
}

/** A silent worker's answer: it is stopped and forgotten, so the next run makes a new one. */
function drop(slot: Slot): Answer {
  const at = slots.indexOf(slot);
  if (at >= 0) slots.splice(at, 1);
  slot.worker.terminate();
  const silent = silentError("the worker");
  return { error: silent.message, silent };
}

/** The worker threads, or a UsageError where the runtime has none. */
function workerThreads(): WorkerThreads {
  const wt = builtin<WorkerThreads>("node:worker_threads");
  if (wt === undefined || typeof SharedArrayBuffer === "undefined")
    throw new UsageError("worker threads are not available in this runtime: use threads 1");
  return wt;
}

/**
 * Post `tasks[i]` to worker i, waiting for none: a first step of work the workers do while this
 * thread readies the next. {@link runOnWorkers} then waits for their answers to its tasks; those
 * to the tasks before are dropped, so a first step that fails must tell its next. @throws
 * UsageError where the runtime has no worker threads.
 */
export function postToWorkers(tasks: readonly WorkerTask[]): void {
  const ready = workers(workerThreads(), tasks.length);
  tasks.forEach((task, i) => {
    const slot = ready[i] as Slot;
    slot.sent++;
    slot.worker.postMessage(task);
  });
}

/**
 * Run `tasks[i]` on worker i while `own()` runs here, and wait for all of them: their answers in
 * order. @throws Error with a worker's message when its task threw.
 */
export function runOnWorkers<T>(tasks: readonly WorkerTask[], own: () => void): T[] {
  const wt = workerThreads();
  postToWorkers(tasks);
  const ready = workers(wt, tasks.length);
  let failure: unknown;
  try {
    own();
  } catch (e) {
    failure = e;
  }
  const answers = ready.map((slot) => lastAnswer(wt, slot));
  if (failure !== undefined) throw failure;
  return answers.map((a) => {
    if ("error" in a) throw a.silent ?? new Error(`worker thread: ${a.error}`);
    return a.value as T;
  });
}
