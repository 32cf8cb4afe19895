/**
 * The work a functional run hands to worker threads (a part of the ranks' inputs, a range of the
 * check's output tiles), as plain data a worker is posted, and the one function that does each task — on a worker or on the calling thread, the same code and the same
 * bytes.
 */
import type { MemorySpan } from "../../engine/index.js";
import { dtypeBytes } from "../../spec/dtype.js";
import type { OutputCheck } from "../check/compare.js";
import { generateInputs, type InputSpec, type RankPart } from "../check/inputs.js";
import { CHECK_TILE, type CheckSpec, checkOutputs, type OutputRange } from "../check/verify.js";
import type { BufferReader } from "../device/buffer-layout.js";
import { SpanBuffer } from "./spans.js";

/** Ranks `part` of a run's inputs, written into their device buffers (`spans`, one a rank of the part). */
export interface InputsTask {
  readonly task: "inputs";
  readonly spec: InputSpec;
  readonly part: RankPart;
  readonly spans: readonly (readonly MemorySpan[])[];
}

/**
 * Output elements `range` of every rank checked against the exact result (verify.ts checkOutputs),
 * reading every rank's input and output buffer (`inputs`, `outputs`: one a rank) in place.
 */
export interface CheckTask {
  readonly task: "check";
  readonly spec: CheckSpec;
  readonly range: OutputRange;
  readonly inputs: readonly (readonly MemorySpan[])[];
  readonly outputs: readonly (readonly MemorySpan[])[];
}

/** Arena spans whose pages are touched ahead of use (engine DeviceMemory.pagesAhead). */
export interface TouchTask {
  readonly task: "touch";
  readonly spans: readonly { readonly buffer: ArrayBufferLike; readonly from: number; readonly to: number }[];
}

export type WorkerTask = InputsTask | CheckTask | TouchTask;

/** The bytes between touches: the host's page (4 KiB; a larger page is touched more than once). */
const HOST_PAGE = 4096;

/**
 * Fault in every host page of the spans by adding 0 to a word of each, atomically: the page is
 * written (so mapped), its bytes never change, and a write the calling thread makes to the same
 * word at the same time is neither lost nor torn.
 */
function touch(t: TouchTask): void {
  for (const { buffer, from, to } of t.spans) {
    const words = new Int32Array(buffer as SharedArrayBuffer);
    for (let at = from; at < to; at += HOST_PAGE) Atomics.add(words, at >> 2, 0);
  }
}

/** Generate a part's inputs into device memory, as generateInputs with the run's sink would. */
function writeInputs(t: InputsTask): void {
  const eb = dtypeBytes(t.spec.dtype);
  const buffers = t.spans.map((s) => new SpanBuffer(s));
  const sink = (r: number, from: number, bytes: Uint8Array) =>
    (buffers[r - t.part.first] as SpanBuffer).write(from * eb, bytes);
  generateInputs(t.spec, sink, { blocks: true, part: t.part });
}

/** Check a range of the outputs, reading the buffers as the device machine's reader would. */
function checkRange(t: CheckTask): OutputCheck {
  const eb = dtypeBytes(t.spec.dtype);
  const inputs = t.inputs.map((s) => new SpanBuffer(s));
  const outputs = t.outputs.map((s) => new SpanBuffer(s));
  const tile = new Uint8Array(CHECK_TILE * eb);
  const read: BufferReader = (rank, buffer, from, len) => {
    const b = (buffer === "input" ? inputs : outputs)[rank] as SpanBuffer;
    return b.read(from * eb, len * eb, tile);
  };
  return checkOutputs(t.spec, read, undefined, t.range);
}

/** Do a task; what it answers. */
export function doTask(t: WorkerTask): unknown {
  if (t.task === "check") return checkRange(t);
  if (t.task === "touch") touch(t);
  else writeInputs(t);
  return undefined;
}
