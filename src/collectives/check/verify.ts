/**
 * Checking a run's outputs: element by element as bit patterns (nccl-tests `#wrong`), the guard
 * bytes around every buffer (dmatest: a byte written outside is its own kind of error), and the
 * largest absolute error against the exact float64 result — a tile at a time, reading the device's
 * buffers in place, so a check holds nothing of the size of a buffer. Plain typed arrays only (no
 * Node `Buffer`): the library runs in a browser.
 */
import { decodeToF32, encodeFromF32, type OverflowPolicy } from "../../numerics/index.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { type BufferReader, GUARD_FILL } from "../device/buffer-layout.js";
import type { CollectiveName, ReduceOp } from "../plan/plan.js";
import {
  CHECK_KERNELS_TILE,
  checkTiles,
  wasmCountWrong,
  wasmDemote,
  wasmMaxAbsErr,
} from "./check-kernels.js";
import { exactTile, sharedExact } from "./exact-result.js";

/** Elements checked at once: a tile of each input, the exact result and the output stay in cache. */
export const CHECK_TILE = CHECK_KERNELS_TILE;

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

/**
 * The exact result encoded in the dtype (RNE): with exact data it is representable, so this is
 * the bit pattern every element must have. `out` and `f32` (scratch) are made when not given.
 */
export function encodeExact(
  dt: Dtype,
  exact: Float64Array,
  overflow: OverflowPolicy,
  out: Uint8Array = new Uint8Array(exact.length * dtypeBytes(dt)),
  f32: Float32Array = new Float32Array(exact.length),
): Uint8Array {
  const n = exact.length;
  if (!wasmDemote(exact, f32, n)) for (let i = 0; i < n; i++) f32[i] = exact[i]!;
  encodeFromF32(dt, f32, 0, n, out, 0, undefined, overflow);
  return out.subarray(0, n * dtypeBytes(dt));
}

/** max |actual − exact| over the elements (NaN or inf in actual give Infinity). */
export function maxAbsError(
  actual: Uint8Array,
  dt: Dtype,
  exact: Float64Array,
  scratch: Float32Array = new Float32Array(exact.length),
): number {
  const n = exact.length;
  decodeToF32(dt, actual, 0, n, scratch, 0);
  const fast = wasmMaxAbsErr(scratch, exact, n);
  if (fast !== undefined) return fast;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.abs(scratch[i]! - exact[i]!);
    worst = Number.isNaN(e) ? Number.POSITIVE_INFINITY : Math.max(worst, e);
  }
  return worst;
}

export interface CheckSpec {
  readonly collective: CollectiveName;
  readonly op: ReduceOp;
  readonly dtype: Dtype;
  readonly ranks: number;
  /** Input elements per rank. */
  readonly inputCount: number;
  /** Output elements per rank. */
  readonly outputCount: number;
  readonly overflow: OverflowPolicy;
}

export interface OutputCheck {
  readonly wrong: number;
  readonly maxAbsErr: number;
}

/**
 * Check every rank's output tile by tile: bits against `expected` (each rank's whole expected
 * output — the scalar reference's) or, when it is undefined, against the exact result encoded in
 * the dtype (exact data); the error against the exact result either way. The exact result comes from
 * the inputs as `read` gives them (the plans only read inputs).
 */
export function checkOutputs(
  spec: CheckSpec,
  read: BufferReader,
  expected?: readonly Uint8Array[],
): OutputCheck {
  const { collective, dtype, ranks, outputCount } = spec;
  const eb = dtypeBytes(dtype);
  const { f32, acc, want: encoded } = checkTiles();
  const input = (q: number, from: number, len: number) => {
    decodeToF32(dtype, read(q, "input", from, len), 0, len, f32, 0);
    return f32;
  };
  const shared = sharedExact(collective);
  let wrong = 0;
  let maxAbsErr = 0;
  for (let o = 0; o < outputCount; o += CHECK_TILE) {
    const len = Math.min(CHECK_TILE, outputCount - o);
    const exact = acc.subarray(0, len);
    // Ranks that share the exact result share its encoding and that encoding's error.
    let want: Uint8Array | undefined;
    let wantErr = -1;
    for (let r = 0; r < ranks; r++) {
      if (r === 0 || !shared) {
        exactTile(collective, spec.op, ranks, spec.inputCount, r, o, len, input, exact);
        want = expected === undefined ? encodeExact(dtype, exact, spec.overflow, encoded, f32) : undefined;
        wantErr = -1;
      }
      const w = want ?? (expected?.[r] as Uint8Array).subarray(o * eb, (o + len) * eb);
      const out = read(r, "output", o, len);
      const bad = countWrong(out, w, dtype);
      wrong += bad;
      if (bad === 0 && want !== undefined) {
        if (wantErr < 0) wantErr = maxAbsError(w, dtype, exact, f32);
        maxAbsErr = Math.max(maxAbsErr, wantErr);
      } else maxAbsErr = Math.max(maxAbsErr, maxAbsError(out, dtype, exact, f32));
    }
  }
  return { wrong, maxAbsErr };
}
