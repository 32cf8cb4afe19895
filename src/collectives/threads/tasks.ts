/**
 * The work a functional run hands to worker threads (a part of the ranks' inputs, a range of the
 * check's output tiles), as plain data a worker is posted, and the one function that does each task — on a worker or on the calling thread, the same code and the same
 * bytes.
 */
import { adoptArenas, type SharedPages } from "../../engine/index.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { OverflowPolicy } from "../../numerics/index.js";
import { dtypeBytes } from "../../spec/dtype.js";
import type { OutputCheck } from "../check/compare.js";
import { generateInputs, type InputSpec, type RankPart } from "../check/inputs.js";
import { CHECK_TILE, type CheckSpec, checkOutputs, type OutputRange } from "../check/verify.js";
import type { BufferReader, InputTarget } from "../device/buffer-layout.js";
import { DeviceMachine } from "../device/device-machine.js";
import { decodePlan, type PlanWire } from "./plan-wire.js";
import { beat } from "./pool.js";
import { piecesOver, SpanBuffer, type TaskPiece } from "./spans.js";
import { OtherThreadFailed, runShare } from "./threaded-execute.js";

/**
 * Ranks `part` of a run's inputs, written into their device buffers (`spans`, one a rank of the
 * part), which lie in `arenas` (engine DeviceMemory.arenaHandles). A worker (`slot` ≥ 1: its scratch
 * slot there) adopts the arenas and rebuilds its spans over them (spans.ts ArenaPiece), so it draws
 * straight into the pages; the calling thread (slot 0) made them, and its spans are views already.
 */
export interface InputsTask {
  readonly task: "inputs";
  readonly spec: InputSpec;
  readonly part: RankPart;
  readonly spans: readonly (readonly TaskPiece[])[];
  readonly arenas: readonly object[];
  readonly slot: number;
}

/**
 * Output elements `range` of every rank checked against the exact result (verify.ts checkOutputs),
 * reading every rank's input and output buffer (`inputs`, `outputs`: one a rank) in place, over
 * `arenas` as an {@link InputsTask}'s.
 */
export interface CheckTask {
  readonly task: "check";
  readonly spec: CheckSpec;
  readonly range: OutputRange;
  readonly inputs: readonly (readonly TaskPiece[])[];
  readonly outputs: readonly (readonly TaskPiece[])[];
  readonly arenas: readonly object[];
  readonly slot: number;
}

/**
 * This worker's share of a split execution (threaded-execute.ts runShare), in two steps so it makes
 * its machine while the calling thread finds the pages to share: {@link ExecuteMachineTask}, then
 * {@link ExecuteRunTask}.
 */
export type ExecuteTask = ExecuteMachineTask | ExecuteRunTask;

/** A device machine of this worker's own for `plan`, kept for the run that follows. */
export interface ExecuteMachineTask {
  readonly task: "execute";
  readonly step: "machine";
  readonly plan: PlanWire;
  readonly profile: ArchProfile;
  readonly options: { readonly overflow: OverflowPolicy; readonly srSeed?: number };
}

/**
 * The machine made last over the calling thread's shared pages, its reduce scratch in block `slot`;
 * the shared pages `set` set (their first touch); then its legs, in step with the other threads
 * through `progress`. Its answer: the packets its legs ran (−1: it stopped because another thread
 * failed).
 */
export interface ExecuteRunTask {
  readonly task: "execute";
  readonly step: "run";
  readonly shared: SharedPages;
  readonly slot: number;
  /** threaded-execute.ts newProgress: shared by the run's threads. */
  readonly progress: Int32Array;
  /** The plan's legWaits, shared: filled by the calling thread while this worker sets up. */
  readonly waits: Int32Array;
  readonly set: RankPart;
}

export type WorkerTask = InputsTask | CheckTask | ExecuteTask;

/**
 * The machine this worker's last {@link ExecuteMachineTask} made, or why it could not: its run
 * takes it (a failed step's answer is dropped, the run's is not: pool.ts runOnWorkers).
 */
let made: DeviceMachine | Error | undefined;

/** {@link ExecuteTask}: the packets this worker's legs ran (0 for the machine). */
function execute(t: ExecuteTask): number {
  if (t.step === "machine") {
    made = undefined;
    try {
      made = new DeviceMachine(decodePlan(t.plan), t.profile, {
        ...t.options,
        keepEvents: false,
        sharedMemory: true,
      });
    } catch (e) {
      made = e instanceof Error ? e : new Error(String(e));
    }
    return 0;
  }
  const machine = made;
  made = undefined;
  const setUp = () => {
    if (machine === undefined) throw new Error("a split execution's run came with no machine made");
    if (machine instanceof Error) throw machine;
    machine.device.memory.adoptPages(t.shared, t.slot);
    machine.device.memory.setPages(t.shared, t.set.first, t.set.end);
    return machine;
  };
  try {
    return runShare(t.progress, t.slot, setUp, t.waits).packets;
  } catch (e) {
    if (e instanceof OtherThreadFailed) return -1;
    throw e;
  }
}

/**
 * The buffers of a task's arenas, by index, for a worker (`slot` ≥ 1), which adopts them; none for
 * the calling thread, whose views are its own.
 */
function adopt(t: { readonly arenas: readonly object[]; readonly slot: number }): readonly ArrayBufferLike[] {
  return t.slot > 0 ? adoptArenas(t.arenas, t.slot) : [];
}

/**
 * Generate a part's inputs into device memory, as generateInputs with the run's sink would: drawn
 * straight into the device pages where the draw can write there, else through the sink. The bytes
 * drawn in place.
 */
function writeInputs(t: InputsTask): number {
  const eb = dtypeBytes(t.spec.dtype);
  const arenas = adopt(t);
  const buffers = t.spans.map((s) => new SpanBuffer(piecesOver(s, arenas)));
  const bufferOf = (r: number) => buffers[r - t.part.first] as SpanBuffer;
  const sink = (r: number, from: number, bytes: Uint8Array) => {
    bufferOf(r).write(from * eb, bytes);
    if (from === 0) beat();
  };
  let inPlace = 0;
  const target: InputTarget = {
    view: (r, from, maxBytes) => bufferOf(r).viewAt(from * eb, maxBytes),
    written: (_r, from, bytes) => {
      inPlace += bytes;
      if (from === 0) beat();
    },
  };
  generateInputs(t.spec, sink, { blocks: true, part: t.part, target });
  return inPlace;
}

/** Check a range of the outputs, reading the buffers as the device machine's reader would. */
function checkRange(t: CheckTask): OutputCheck {
  const eb = dtypeBytes(t.spec.dtype);
  const arenas = adopt(t);
  const inputs = t.inputs.map((s) => new SpanBuffer(piecesOver(s, arenas)));
  const outputs = t.outputs.map((s) => new SpanBuffer(piecesOver(s, arenas)));
  const tile = new Uint8Array(CHECK_TILE * eb);
  const read: BufferReader = (rank, buffer, from, len) => {
    const b = (buffer === "input" ? inputs : outputs)[rank] as SpanBuffer;
    return b.read(from * eb, len * eb, tile);
  };
  return checkOutputs(t.spec, read, undefined, t.range);
}

/** Do a task; what it answers. */
export function doTask(t: WorkerTask): unknown {
  switch (t.task) {
    case "check":
      return checkRange(t);
    case "execute":
      return execute(t);
    default:
      return writeInputs(t);
  }
}
