/**
 * Comparing a run's bytes: elements whose bits differ (nccl-tests `#wrong`), guard bytes that
 * changed, and the largest absolute error against an exact float64 result. Plain typed arrays only
 * (no Node `Buffer`): the library runs in a browser.
 */
import { decodeToF32 } from "../../numerics/index.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { GUARD_FILL, type Span } from "../device/buffer-layout.js";
import { wasmCountWrong, wasmDecodeTile, wasmMaxAbsErr } from "./check-kernels.js";

export interface OutputCheck {
  readonly wrong: number;
  readonly maxAbsErr: number;
}

/** Two aligned word views of the first `bytes` bytes of a and b, when both start on a word. */
function wordViews(a: Uint8Array, b: Uint8Array, bytes: number): [Int32Array, Int32Array] | undefined {
  if (a.byteOffset % 4 !== 0 || b.byteOffset % 4 !== 0) return undefined;
  const n = bytes >>> 2;
  return [new Int32Array(a.buffer, a.byteOffset, n), new Int32Array(b.buffer, b.byteOffset, n)];
}

/** Elements of `actual` whose bytes differ from `expected`. */
export function countWrong(actual: Uint8Array, expected: Uint8Array, dt: Dtype): number {
  const eb = dtypeBytes(dt);
  const both = Math.min(actual.length, expected.length);
  const fast = wasmCountWrong(actual.subarray(0, both), expected.subarray(0, both), eb);
  const words = fast === undefined ? wordViews(actual, expected, both) : undefined;
  let wrong = fast ?? 0;
  for (let i = fast === undefined ? 0 : both; i < both; i += eb) {
    if (words !== undefined && i % 4 === 0) {
      // Equal words hold no wrong element: skip them a word at a time.
      const [a, e] = words;
      let w = i >>> 2;
      while (w < a.length && a[w] === e[w]) w++;
      const next = w << 2;
      i = next - (next % eb);
      if (i >= both) break;
    }
    for (let k = 0; k < eb; k++) {
      if (actual[i + k] !== expected[i + k]) {
        wrong++;
        break;
      }
    }
  }
  // Elements of `actual` past the end of `expected` differ from nothing: wrong, and also counted in
  // the length difference (as before: a short expectation is never a pass).
  return wrong + (actual.length - both) / eb + Math.abs(actual.length - expected.length) / eb;
}

/** Guard bytes that no longer hold the guard pattern. */
export function countGuardErrors(guard: Uint8Array): number {
  let bad = 0;
  for (const b of guard) if (b !== GUARD_FILL) bad++;
  return bad;
}

/** Guard bytes of ranks 0..ranks − 1 in `memory` that no longer hold the pattern; `guardsOf(r)` names r's. */
export function countRankGuardErrors(
  memory: { read(addr: bigint, bytes: number): Uint8Array },
  ranks: number,
  guardsOf: (rank: number) => readonly Span[],
): number {
  let bad = 0;
  for (let r = 0; r < ranks; r++) {
    for (const g of guardsOf(r)) bad += countGuardErrors(memory.read(g.addr, g.bytes));
  }
  return bad;
}

/** max |actual − exact| over the elements (NaN or inf in actual give Infinity). */
export function maxAbsError(
  actual: Uint8Array,
  dt: Dtype,
  exact: Float64Array,
  scratch: Float32Array = new Float32Array(exact.length),
): number {
  const n = exact.length;
  if (!wasmDecodeTile(dt, actual, scratch, n)) decodeToF32(dt, actual, 0, n, scratch, 0);
  const fast = wasmMaxAbsErr(scratch, exact, n);
  if (fast !== undefined) return fast;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.abs(scratch[i]! - exact[i]!);
    worst = Number.isNaN(e) ? Number.POSITIVE_INFINITY : Math.max(worst, e);
  }
  return worst;
}
