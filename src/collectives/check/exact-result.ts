/**
 * The mathematically exact result of a collective in float64, computed straight from the
 * definition (no plan, no order): what exact data must give bit for bit, and what the error of
 * random data is measured against. Computed a tile of outputs at a time, from inputs read a tile at
 * a time, so a check never holds a float64 copy of a whole result.
 */
import type { OverflowPolicy } from "../../numerics/index.js";
import type { Dtype } from "../../spec/dtype.js";
import type { CollectiveName, ReduceOp } from "../plan/plan.js";
import { type ExactSum, wasmAccumulate, wasmExactSum } from "./check-kernels.js";

/** Elements [from, from + len) of rank q's input, decoded (the view may be reused by the next call). */
export type InputTiles = (q: number, from: number, len: number) => Float32Array;

/** What each input is multiplied by in a sum: avg's FP32 1 / ranks, else 1. */
const sumScale = (op: ReduceOp, ranks: number) => (op === "avg" ? Math.fround(1 / ranks) : 1);

/**
 * The reduction over every rank's input elements [from, from + len) into acc[0, len): in the check
 * module when `acc` and the input tiles are its tiles (check-kernels.ts), else in these loops.
 */
function reduceInto(
  op: ReduceOp,
  ranks: number,
  input: InputTiles,
  from: number,
  len: number,
  acc: Float64Array,
): void {
  const start = op === "min" ? Number.POSITIVE_INFINITY : op === "max" ? Number.NEGATIVE_INFINITY : 0;
  acc.fill(start, 0, len);
  const scale = sumScale(op, ranks);
  const combine = op === "max" || op === "min" ? op : "add";
  for (let q = 0; q < ranks; q++) {
    const v = input(q, from, len);
    if (wasmAccumulate(combine, acc, v, len, scale)) continue;
    if (op === "max") for (let i = 0; i < len; i++) acc[i] = Math.max(acc[i]!, v[i]!);
    else if (op === "min") for (let i = 0; i < len; i++) acc[i] = Math.min(acc[i]!, v[i]!);
    else for (let i = 0; i < len; i++) acc[i]! += v[i]! * scale;
  }
}

/**
 * Output elements [o, o + len) of rank r, exactly, into acc[0, len). `count` is the input count per
 * rank. allr: the reduction of every input at o; redsct: of every input at r · (its output) + o;
 * allg: input ⌊o / count⌋ at o mod count; sendrecv: input r − 1 at o.
 */
export function exactTile(
  collective: CollectiveName,
  op: ReduceOp,
  ranks: number,
  count: number,
  r: number,
  o: number,
  len: number,
  input: InputTiles,
  acc: Float64Array,
): void {
  if (collective === "allr") reduceInto(op, ranks, input, o, len, acc);
  else if (collective === "redsct") reduceInto(op, ranks, input, r * (count / ranks) + o, len, acc);
  else if (collective === "sendrecv") acc.set(input((r - 1 + ranks) % ranks, o, len).subarray(0, len));
  else {
    for (let done = 0; done < len; ) {
      const at = o + done;
      const q = Math.floor(at / count);
      const n = Math.min(len - done, (q + 1) * count - at);
      acc.set(input(q, at - q * count, n).subarray(0, n), done);
      done += n;
    }
  }
}

/** Elements [from, from + len) of rank q's input as the device holds them (a view used at once). */
export type InputCodes = (q: number, from: number, len: number) => Uint8Array;

/**
 * {@link exactTile}'s output elements [o, o + len) of rank r, when they are a sum (allr, redsct;
 * not max or min), encoded in the dtype with their largest error, in one pass over the inputs'
 * codes (check-kernels.ts wasmExactSum): the same sum, step for step. Undefined when that pass
 * does not apply or run; then exactTile.
 */
export function exactSumTile(
  collective: CollectiveName,
  op: ReduceOp,
  dt: Dtype,
  ranks: number,
  count: number,
  r: number,
  o: number,
  len: number,
  codes: InputCodes,
  overflow: OverflowPolicy,
): ExactSum | undefined {
  if ((collective !== "allr" && collective !== "redsct") || op === "max" || op === "min") return undefined;
  const from = collective === "allr" ? o : r * (count / ranks) + o;
  return wasmExactSum(dt, ranks, (q) => codes(q, from, len), len, sumScale(op, ranks), overflow);
}

/** Whether every rank's exact output is the same (all-reduce, all-gather). */
export function sharedExact(collective: CollectiveName): boolean {
  return collective === "allr" || collective === "allg";
}

/**
 * Every rank's exact output, whole (for tests and small runs; a device run checks tile by tile).
 * All-reduce and all-gather ranks share one array: their results are the same.
 * @example exactResult("allr", "sum", [Float32Array.of(1), Float32Array.of(2)])[1][0]; // 3
 */
export function exactResult(
  collective: CollectiveName,
  op: ReduceOp,
  inputs: readonly Float32Array[],
): Float64Array[] {
  const n = inputs.length;
  const count = inputs[0]?.length ?? 0;
  const outLen = collective === "redsct" ? count / n : collective === "allg" ? count * n : count;
  const input: InputTiles = (q, from, len) => (inputs[q] as Float32Array).subarray(from, from + len);
  const one = (r: number) => {
    const acc = new Float64Array(outLen);
    exactTile(collective, op, n, count, r, 0, outLen, input, acc);
    return acc;
  };
  if (sharedExact(collective)) return new Array<Float64Array>(n).fill(one(0));
  return inputs.map((_, r) => one(r));
}
