// How many cores the host gives this process just now, for the rows that compare one thread with
// two in wall time. Linux groups a session's threads for the scheduler (autogroup, on here): while
// another session keeps a core busy, this one gets its fair share of the machine whatever its
// thread count, and two threads then get one thread's time between them — measured on this 2-core
// machine under the other tenants' tests: two spins each took twice as long as one alone. A row's
// one-thread ÷ two-thread ratio is then ≈ 1 whatever the code does; the note says so. The same
// probe with a copy instead of a spin gives the memory bandwidth two threads get against one: a
// ceiling for the copies and reduces of a split run whatever the cores (1.4–1.7 here with 1.9–2.0).
import { Worker } from "node:worker_threads";

/** Iterations of a spin: ≈ 0.15 s of one core here. */
const SPIN = 200_000_000;
/** Spins each side is the least wall time of (another tenant takes a core for tens of ms at a time). */
const BEST = 3;

/** Copies of 64 MiB a copy probe makes (≈ 0.1 s of one core here; past the 32 MiB L3). */
const COPIES = 24;

/** The work each thread does: the same function on both, so the same code. */
function spin(n: number): number {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x + i) | 0;
  return x;
}

/** Where the copy probe keeps its buffers in a thread (a global: the worker gets its work as text). */
type CopyBuffers = { copyFrom?: Uint8Array; copyTo?: Uint8Array };

/** The copy probe's work: `n` copies of 64 MiB, its buffers made on its first call in each thread. */
function copy(n: number): number {
  const g = globalThis as CopyBuffers;
  g.copyFrom ??= new Uint8Array(1 << 26).fill(1);
  g.copyTo ??= new Uint8Array(1 << 26);
  for (let i = 0; i < n; i++) g.copyTo.set(g.copyFrom);
  return g.copyTo[0] as number;
}

/** Wall milliseconds of `fn`. */
function wallMs(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/** The least wall milliseconds of BEST runs of `fn`. */
function bestWallMs(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < BEST; i++) best = Math.min(best, wallMs(fn));
  return best;
}

/**
 * A worker that does `work(n)` once (its JIT warm) and says so (flag[1] from −1 to 0), then for each
 * round: waits for flag[0] to reach the round, does it, and raises flag[1] to it.
 */
function probeWorker(flag: Int32Array, work: (n: number) => number, n: number): Worker {
  const code = `const { workerData } = require("node:worker_threads");
const { flag, n, rounds } = workerData;
const work = ${work.toString()};
work(n);
Atomics.store(flag, 1, 0);
Atomics.notify(flag, 1);
for (let round = 1; round <= rounds; round++) {
  Atomics.wait(flag, 0, round - 1);
  work(n);
  Atomics.store(flag, 1, round);
  Atomics.notify(flag, 1);
}`;
  return new Worker(code, { eval: true, workerData: { flag, n, rounds: BEST } });
}

/** The longest the probe's worker may take to answer (its work takes ≈ 0.15 s): one that failed to start. */
const WORKER_MS = 60_000;

/** Wait until flag[1] is past `was`. @throws Error when the probe's worker said nothing for WORKER_MS. */
function workerPast(flag: Int32Array, was: number): void {
  if (Atomics.wait(flag, 1, was, WORKER_MS) === "timed-out")
    throw new Error(`the probe's worker said nothing for ${WORKER_MS / 1000} s`);
}

/**
 * What two threads doing `work(n)` at once get against one alone (each side the best of BEST): 2 ×
 * the one's wall ÷ the two's — 2 when nothing they share holds them back.
 */
function twoAgainstOne(work: (n: number) => number, n: number): number {
  const flag = new Int32Array(new SharedArrayBuffer(8));
  flag[1] = -1;
  const worker = probeWorker(flag, work, n);
  try {
    work(n);
    // The worker's warm-up over before this thread times one alone.
    workerPast(flag, -1);
    const one = bestWallMs(() => work(n));
    let round = 0;
    const two = bestWallMs(() => {
      round++;
      Atomics.store(flag, 0, round);
      Atomics.notify(flag, 0);
      work(n);
      workerPast(flag, round - 1);
    });
    return (2 * one) / two;
  } finally {
    void worker.terminate();
  }
}

/** The cores this process got: 2 on two free cores, 1 when the host gives this session one core's time. */
export const coresGot = (): number => twoAgainstOne(spin, SPIN);

/** The memory bandwidth two threads copying at once get, in copies of one alone's: ≤ the cores got. */
export function bandwidthGot(): number {
  try {
    return twoAgainstOne(copy, COPIES);
  } finally {
    // 128 MiB this thread would otherwise keep through every bench after it (the worker's go with it).
    const g = globalThis as CopyBuffers;
    delete g.copyFrom;
    delete g.copyTo;
  }
}
