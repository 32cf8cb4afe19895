/**
 * A functional run's independent stages split over threads: each thread takes a contiguous part of
 * the ranks (their inputs) or of the output tiles (the exact check) and works on shared device
 * memory in place. The parts are cut the same
 * way whatever the thread count, and every part's bytes are those one thread would write, so the
 * run is bit for bit the run on one thread.
 */
import { SHARED_SCRATCH_SLOTS } from "../../engine/index.js";
import type { OutputCheck } from "../check/compare.js";
import type { InputSpec, RankPart } from "../check/inputs.js";
import { CHECK_TILE, type CheckSpec } from "../check/verify.js";
import type { DeviceMachine } from "../device/device-machine.js";
import { runOnWorkers } from "./pool.js";
import { placePieces } from "./spans.js";
import { type CheckTask, doTask, type InputsTask } from "./tasks.js";

/** `n` items cut into at most `threads` contiguous parts of near-equal size, the first ones larger. */
export function splitParts(n: number, threads: number): RankPart[] {
  const parts = Math.max(1, Math.min(threads, n));
  const out: RankPart[] = [];
  for (let k = 0, first = 0; k < parts; k++) {
    const size = Math.floor(n / parts) + (k < n % parts ? 1 : 0);
    out.push({ first, end: first + size });
    first += size;
  }
  return out;
}

/**
 * `n` items cut for a task on `threads` threads, one part a thread's scratch slot in the shared
 * arenas (a worker adopts them there): at most SHARED_SCRATCH_SLOTS parts, whatever the threads.
 */
const slotParts = (n: number, threads: number): RankPart[] =>
  splitParts(n, Math.min(threads, SHARED_SCRATCH_SLOTS));

/**
 * Write every rank's input into the machine's (shared) device memory on `threads` threads: the
 * pages are allocated here first, in rank order, as one thread writing them would; then the
 * calling thread generates the first part while the workers generate the others, each drawing
 * straight into the pages where it can. The bytes each part drew in place, in part order.
 */
export function writeInputsOnThreads(machine: DeviceMachine, spec: InputSpec, threads: number): number[] {
  const spans = Array.from({ length: spec.ranks }, (_, r) => machine.spans(r, "input", true));
  const memory = machine.device.memory;
  const arenas = memory.arenaHandles();
  const tasks: InputsTask[] = slotParts(spec.ranks, threads).map((part, slot) => ({
    task: "inputs",
    spec,
    part,
    spans: spans.slice(part.first, part.end).map((s) => (slot > 0 ? placePieces(memory, s) : s)),
    arenas,
    slot,
  }));
  const [own, ...rest] = tasks as [InputsTask, ...InputsTask[]];
  let first = 0;
  const others = runOnWorkers<number>(rest, () => {
    first = doTask(own) as number;
  });
  return [first, ...others];
}

/**
 * The exact check (verify.ts checkOutputs without expected outputs) on `threads` threads: each a
 * contiguous range of output tiles of every rank, reading the buffers in place; the wrong elements
 * summed and the largest error of the ranges — what one thread checking every tile finds.
 */
export function checkOnThreads(machine: DeviceMachine, spec: CheckSpec, threads: number): OutputCheck {
  const ranks = Array.from({ length: spec.ranks }, (_, r) => r);
  const memory = machine.device.memory;
  const inputs = ranks.map((r) => machine.spans(r, "input", false));
  const outputs = ranks.map((r) => machine.spans(r, "output", false));
  // The workers' spans, placed in their arenas (spans.ts ArenaPiece).
  const placed = (spans: typeof inputs) => spans.map((s) => placePieces(memory, s));
  const [workerInputs, workerOutputs] = [placed(inputs), placed(outputs)];
  const arenas = memory.arenaHandles();
  const tiles = Math.ceil(spec.outputCount / CHECK_TILE);
  const tasks: CheckTask[] = slotParts(tiles, threads).map((part, slot) => ({
    task: "check",
    spec,
    range: { from: part.first * CHECK_TILE, to: Math.min(spec.outputCount, part.end * CHECK_TILE) },
    inputs: slot > 0 ? workerInputs : inputs,
    outputs: slot > 0 ? workerOutputs : outputs,
    arenas,
    slot,
  }));
  const [own, ...rest] = tasks as [CheckTask, ...CheckTask[]];
  let first: OutputCheck = { wrong: 0, maxAbsErr: 0 };
  const checks = runOnWorkers<OutputCheck>(rest, () => {
    first = doTask(own) as OutputCheck;
  });
  return [first, ...checks].reduce((a, b) => ({
    wrong: a.wrong + b.wrong,
    maxAbsErr: Math.max(a.maxAbsErr, b.maxAbsErr),
  }));
}
