/**
 * Checking a run's outputs: element by element as bit patterns (nccl-tests `#wrong`), the guard
 * bytes around every buffer (dmatest: a byte written outside is its own kind of error), and the
 * largest absolute error against the exact float64 result.
 */
import { decodeToF32, encodeFromF32, type OverflowPolicy } from "../numerics/index.js";
import { type Dtype, dtypeBytes } from "../spec/dtype.js";
import { GUARD_FILL } from "./buffer-layout.js";

/** Bytes compared at once (memcmp) before looking at elements; a multiple of every dtype size. */
const BLOCK_BYTES = 1 << 16;

/** Node's Buffer when present (its compare is a native memcmp); browsers compare element-wise. */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** True when bytes [i, end) of `a` and `e` are equal. */
function blockEqual(a: Uint8Array, e: Uint8Array, i: number, end: number): boolean {
  if (NodeBuffer !== undefined)
    return NodeBuffer.from(a.buffer, a.byteOffset, a.byteLength).compare(e, i, end, i, end) === 0;
  for (let k = i; k < end; k++) if (a[k] !== e[k]) return false;
  return true;
}

/** Elements of `actual` whose bytes differ from `expected`. */
export function countWrong(actual: Uint8Array, expected: Uint8Array, dt: Dtype): number {
  const eb = dtypeBytes(dt);
  let wrong = 0;
  const both = Math.min(actual.length, expected.length);
  for (let i = 0; i < actual.length; i += eb) {
    // Whole equal blocks hold no wrong element: skip them at memcmp speed.
    while (
      i % BLOCK_BYTES === 0 &&
      i + BLOCK_BYTES <= both &&
      blockEqual(actual, expected, i, i + BLOCK_BYTES)
    )
      i += BLOCK_BYTES;
    if (i >= actual.length) break;
    for (let k = 0; k < eb; k++) {
      if (actual[i + k] !== expected[i + k]) {
        wrong++;
        break;
      }
    }
  }
  return wrong + Math.abs(actual.length - expected.length) / eb;
}

/** Guard bytes that no longer hold the guard pattern. */
export function countGuardErrors(guard: Uint8Array): number {
  let bad = 0;
  for (const b of guard) if (b !== GUARD_FILL) bad++;
  return bad;
}

/**
 * The exact result encoded in the dtype (RNE): with exact data it is representable, so this is
 * the bit pattern every element must have.
 */
export function encodeExact(dt: Dtype, exact: Float64Array, overflow: OverflowPolicy): Uint8Array {
  const out = new Uint8Array(exact.length * dtypeBytes(dt));
  encodeFromF32(dt, Float32Array.from(exact), 0, exact.length, out, 0, undefined, overflow);
  return out;
}

/** max |actual − exact| over the elements (NaN or inf in actual give Infinity). */
export function maxAbsError(actual: Uint8Array, dt: Dtype, exact: Float64Array): number {
  const v = new Float32Array(exact.length);
  decodeToF32(dt, actual, 0, exact.length, v, 0);
  let worst = 0;
  for (let i = 0; i < v.length; i++) {
    const e = Math.abs(v[i]! - exact[i]!);
    worst = Number.isNaN(e) ? Number.POSITIVE_INFINITY : Math.max(worst, e);
  }
  return worst;
}
