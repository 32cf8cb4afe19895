/**
 * The work a functional run hands to worker threads, as plain data a worker is posted, and the one
 * function that does each task — on a worker or on the calling thread, the same code and the same
 * bytes.
 */
import type { MemorySpan } from "../../engine/index.js";
import type { Dtype } from "../../spec/dtype.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { type DataKind, generateInputs, type RankPart } from "../check/inputs.js";
import { SpanBuffer } from "./spans.js";

/** Ranks `part` of a run's inputs, written into their device buffers (`spans`, one a rank of the part). */
export interface InputsTask {
  readonly task: "inputs";
  readonly data: DataKind;
  readonly dtype: Dtype;
  readonly ranks: number;
  readonly count: number;
  readonly seed: number;
  readonly part: RankPart;
  readonly spans: readonly (readonly MemorySpan[])[];
}

export type WorkerTask = InputsTask;

/** Generate a part's inputs into device memory, as generateInputs with the run's sink would. */
function writeInputs(t: InputsTask): void {
  const eb = dtypeBytes(t.dtype);
  const buffers = t.spans.map((s) => new SpanBuffer(s));
  const sink = (r: number, from: number, bytes: Uint8Array) =>
    (buffers[r - t.part.first] as SpanBuffer).write(from * eb, bytes);
  generateInputs(t.data, t.dtype, t.ranks, t.count, t.seed, sink, true, t.part);
}

/** Do a task; what it answers. */
export function doTask(t: WorkerTask): unknown {
  writeInputs(t);
  return undefined;
}
