/**
 * The mathematically exact result of a collective in float64, computed straight from the
 * definition (no plan, no order): what exact data must give bit for bit, and what the error of
 * random data is measured against.
 */
import type { CollectiveName, ReduceOp } from "./plan.js";

function combine(op: ReduceOp, values: readonly Float32Array[], index: number, n: number): number {
  let acc = op === "min" ? Number.POSITIVE_INFINITY : op === "max" ? Number.NEGATIVE_INFINITY : 0;
  for (const v of values) {
    const x = v[index]!;
    if (op === "max") acc = Math.max(acc, x);
    else if (op === "min") acc = Math.min(acc, x);
    else acc += op === "avg" ? x * Math.fround(1 / n) : x;
  }
  return acc;
}

/**
 * Every rank's exact output.
 * @example exactResult("allr", "sum", [Float32Array.of(1), Float32Array.of(2)])[1][0]; // 3
 */
export function exactResult(
  collective: CollectiveName,
  op: ReduceOp,
  inputs: readonly Float32Array[],
): Float64Array[] {
  const n = inputs.length;
  const len = inputs[0]?.length ?? 0;
  const outs: Float64Array[] = [];
  for (let r = 0; r < n; r++) {
    if (collective === "allr") {
      const o = new Float64Array(len);
      for (let i = 0; i < len; i++) o[i] = combine(op, inputs, i, n);
      outs.push(o);
    } else if (collective === "redsct") {
      const per = len / n;
      const o = new Float64Array(per);
      for (let j = 0; j < per; j++) o[j] = combine(op, inputs, r * per + j, n);
      outs.push(o);
    } else if (collective === "allg") {
      const o = new Float64Array(len * n);
      inputs.forEach((v, q) => o.set(v, q * len));
      outs.push(o);
    } else outs.push(Float64Array.from(inputs[(r - 1 + n) % n]!));
  }
  return outs;
}
