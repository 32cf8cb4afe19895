/**
 * The mathematically exact result of a collective in float64, computed straight from the
 * definition (no plan, no order): what exact data must give bit for bit, and what the error of
 * random data is measured against.
 */
import type { CollectiveName, ReduceOp } from "../plan/plan.js";

/** Elements reduced over every input before moving on: the accumulator tile stays in cache. */
const TILE = 8192;

/** The reduction over ranks of elements [from, from + len) of every input (inputs in rank order). */
function reduce(op: ReduceOp, inputs: readonly Float32Array[], from: number, len: number): Float64Array {
  const n = inputs.length;
  const start = op === "min" ? Number.POSITIVE_INFINITY : op === "max" ? Number.NEGATIVE_INFINITY : 0;
  const acc = new Float64Array(len).fill(start);
  const scale = op === "avg" ? Math.fround(1 / n) : 1;
  for (let t = 0; t < len; t += TILE) {
    const end = Math.min(len, t + TILE);
    for (const v of inputs) {
      if (op === "max") for (let i = t; i < end; i++) acc[i] = Math.max(acc[i]!, v[from + i]!);
      else if (op === "min") for (let i = t; i < end; i++) acc[i] = Math.min(acc[i]!, v[from + i]!);
      else for (let i = t; i < end; i++) acc[i]! += v[from + i]! * scale;
    }
  }
  return acc;
}

/**
 * Every rank's exact output (all-reduce ranks share one array: their results are the same).
 * @example exactResult("allr", "sum", [Float32Array.of(1), Float32Array.of(2)])[1][0]; // 3
 */
export function exactResult(
  collective: CollectiveName,
  op: ReduceOp,
  inputs: readonly Float32Array[],
): Float64Array[] {
  const n = inputs.length;
  const len = inputs[0]?.length ?? 0;
  if (collective === "allr") return new Array<Float64Array>(n).fill(reduce(op, inputs, 0, len));
  if (collective === "redsct") return inputs.map((_, r) => reduce(op, inputs, r * (len / n), len / n));
  if (collective === "allg") {
    const o = new Float64Array(len * n);
    for (const [q, v] of inputs.entries()) o.set(v, q * len);
    return new Array<Float64Array>(n).fill(o);
  }
  return inputs.map((_, r) => Float64Array.from(inputs[(r - 1 + n) % n]!));
}
