/**
 * Input data for a checked run, two kinds:
 * - `exact` (nccl-tests): small integers such that every partial sum, in any order, is exact in the
 *   dtype and in FP32 — so the result does not depend on the algorithm and is compared as bits;
 * - `random`: values spread over the dtype's range (seeded), where rounding shows; checked against
 *   the scalar reference, with the error against an exact float64 result reported.
 * Values are generated as numbers, encoded with RNE, and decoded back, so `values` is exactly what
 * the bytes hold.
 */
import { decodeToF32, encodeFromF32, SrStream } from "../../numerics/index.js";
import { type Dtype, dtypeBytes, isFloatDtype } from "../../spec/dtype.js";
import type { ReduceOp } from "../plan/plan.js";
import { exactIntegerRange, isUnsignedDtype } from "./dtypes.js";

export type DataKind = "exact" | "random";

export interface RankInputs {
  /** The encoded input of each rank. */
  readonly bytes: readonly Uint8Array[];
  /** The same, decoded (exactly) to numbers. */
  readonly values: readonly Float32Array[];
}

/**
 * Whether exact data makes the result order-independent for this op, dtype and rank count: always
 * for sum / max / min; for avg only with float dtypes and a power-of-two rank count (the 1/n
 * pre-multiply is then exact).
 */
export function exactApplies(op: ReduceOp, dt: Dtype, ranks: number): boolean {
  if (op !== "avg") return true;
  return isFloatDtype(dt) && (ranks & (ranks - 1)) === 0;
}

/** A uniform number in [0, 1) from the stream. */
function unit(rng: SrStream): number {
  return rng.nextU32() / 2 ** 32;
}

/**
 * Make `ranks` inputs of `count` elements each.
 * Exact data: element i of rank r is an integer in [−mag, mag] ([0, mag] unsigned), nonzero only for
 * the E ranks r with (r + i) mod n < E when E < n, where E is {@link exactIntegerRange} and
 * mag = max(1, ⌊E / n⌋): any partial sum then has |sum| ≤ E.
 */
export function makeInputs(
  kind: DataKind,
  dt: Dtype,
  ranks: number,
  count: number,
  seed: number,
): RankInputs {
  const rng = new SrStream(seed >>> 0);
  const E = exactIntegerRange(dt);
  const unsigned = isUnsignedDtype(dt);
  const mag = Math.max(1, Math.floor(E / ranks));
  const bytes: Uint8Array[] = [];
  const values: Float32Array[] = [];
  for (let r = 0; r < ranks; r++) {
    const v = new Float32Array(count);
    if (kind === "exact") {
      const span = unsigned ? mag + 1 : 2 * mag + 1;
      for (let i = 0; i < count; i++) {
        if (E < ranks && (r + i) % ranks >= E) continue;
        const k = Math.floor(unit(rng) * span);
        v[i] = unsigned ? k : k - mag;
      }
    } else if (isFloatDtype(dt)) {
      // Spread over [−1, 1) but keep n values' sum finite in the narrowest format (e3m4 max 15.5).
      const bound = Math.min(1, 15 / ranks);
      for (let i = 0; i < count; i++) v[i] = (2 * unit(rng) - 1) * bound;
    } else {
      const lo = unsigned ? 0 : -E;
      const spanInt = Math.floor((E - lo) / ranks);
      for (let i = 0; i < count; i++) v[i] = Math.floor(lo / ranks + unit(rng) * (spanInt + 1));
    }
    const b = new Uint8Array(count * dtypeBytes(dt));
    encodeFromF32(dt, v, 0, count, b, 0);
    decodeToF32(dt, b, 0, count, v, 0);
    bytes.push(b);
    values.push(v);
  }
  return { bytes, values };
}
