/**
 * Checking a run's outputs: element by element as bit patterns (nccl-tests `#wrong`), the guard
 * bytes around every buffer (dmatest: a byte written outside is its own kind of error), and the
 * largest absolute error against the exact float64 result — a tile at a time, reading the device's
 * buffers in place, so a check holds nothing of the size of a buffer. Plain typed arrays only (no
 * Node `Buffer`): the library runs in a browser.
 */
import { decodeToF32, encodeFromF32, type OverflowPolicy } from "../../numerics/index.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import type { BufferReader } from "../device/buffer-layout.js";
import { type ExchangeSpec, exchangeGeometry, isExchange } from "../plan/exchange.js";
import type { CollectiveName, ReduceOp } from "../plan/plan.js";
import {
  CHECK_KERNELS_TILE,
  checkTiles,
  wantBeside,
  wasmCountWrongMany,
  wasmDecodeTile,
  wasmDemote,
} from "./check-kernels.js";
import { countWrong, maxAbsError, type OutputCheck } from "./compare.js";
import { exactSumTile, exactTile, sharedExact } from "./exact-result.js";
import { checkExchange } from "./exchange-check.js";

/** Elements checked at once: a tile of each input, the exact result and the output stay in cache. */
export const CHECK_TILE = CHECK_KERNELS_TILE;

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
  /** permute's pairs, alltoallv / allgv's metadata (plan/exchange.ts). */
  readonly exchange?: ExchangeSpec | undefined;
}

/** Output elements [from, to) of every rank: the part of a check one thread does. */
export interface OutputRange {
  readonly from: number;
  readonly to: number;
}

/**
 * Every rank's wrong elements in output elements [o, o + len) against one encoding `want`, their
 * streams read together; `copies`: want's copies beside outputs in other arenas (wantBeside).
 */
function rankWrongCounts(
  read: BufferReader,
  ranks: number,
  dtype: Dtype,
  copies: Map<ArrayBufferLike, Uint8Array>,
) {
  return (want: Uint8Array, o: number, len: number) =>
    wasmCountWrongMany(
      want,
      ranks,
      (r) => read(r, "output", o, len),
      dtypeBytes(dtype),
      copies,
      (_, out) => countWrong(out, wantBeside(want, out.buffer, copies), dtype),
    );
}

/**
 * Check every rank's output tile by tile: bits against `expected` (each rank's whole expected
 * output — the scalar reference's) or, when it is undefined, against the exact result encoded in
 * the dtype (exact data); the error against the exact result either way. The exact result comes from
 * the inputs as `read` gives them (the plans only read inputs). An exchange (plan/exchange.ts) is
 * checked as copies, bits against its sources, whatever the data (exchange-check.ts).
 * `range` (not for an exchange): only those output elements, `from` a multiple of
 * {@link CHECK_TILE} — the tiles are independent, so parts checked apart add up to the whole
 * (wrong elements summed, the largest error the largest of the parts').
 */
export function checkOutputs(
  spec: CheckSpec,
  read: BufferReader,
  expected?: readonly Uint8Array[],
  range: OutputRange = { from: 0, to: spec.outputCount },
): OutputCheck {
  const { collective, dtype, ranks, outputCount } = spec;
  if (isExchange(collective)) {
    const req = { collective, topology: { ranks }, count: outputCount, exchange: spec.exchange };
    return checkExchange(dtype, ranks, exchangeGeometry(req), read);
  }
  const eb = dtypeBytes(dtype);
  let tiles = checkTiles();
  const codes = (q: number, from: number, len: number) => read(q, "input", from, len);
  const sumOf = (r: number, o: number, len: number) =>
    exactSumTile(collective, spec.op, dtype, ranks, spec.inputCount, r, o, len, codes, spec.overflow);
  const input = (q: number, from: number, len: number) => {
    const codes = read(q, "input", from, len);
    const { f32 } = tiles;
    if (!wasmDecodeTile(dtype, codes, f32, len)) decodeToF32(dtype, codes, 0, len, f32, 0);
    return f32;
  };
  const shared = sharedExact(collective);
  let wrong = 0;
  let maxAbsErr = 0;
  // The copies of a tile's wanted codes beside outputs in other arenas (wantBeside).
  const copies = new Map<ArrayBufferLike, Uint8Array>();
  const countAll = rankWrongCounts(read, ranks, dtype, copies);
  let bads: number[] | undefined;
  // The tile checked; whether `exact` holds its exact result (the one-pass sum leaves that in registers).
  let o = range.from;
  let len = 0;
  let exact: Float64Array = new Float64Array(0);
  let hasExact = false;
  const exactOf = (r: number) => {
    if (!hasExact) exactTile(collective, spec.op, ranks, spec.inputCount, r, o, len, input, exact);
    hasExact = true;
    return exact;
  };
  for (; o < range.to; o += CHECK_TILE) {
    len = Math.min(CHECK_TILE, range.to - o);
    // The tiles beside the device bytes (their arena's host block), so most are read in place.
    tiles = checkTiles(read(0, "output", o, len).buffer);
    const { f32, acc, want: encoded } = tiles;
    exact = acc.subarray(0, len);
    hasExact = false;
    // Ranks that share the exact result share its encoding and that encoding's error.
    let want: Uint8Array | undefined;
    let wantErr = -1;
    for (let r = 0; r < ranks; r++) {
      if (r === 0 || !shared) {
        const sum = expected === undefined ? sumOf(r, o, len) : undefined;
        hasExact = false;
        want =
          sum?.want ??
          (expected === undefined ? encodeExact(dtype, exactOf(r), spec.overflow, encoded, f32) : undefined);
        wantErr = sum?.err ?? -1;
        copies.clear();
        // Every rank's output against the one encoding at once (their streams read together).
        bads = shared && want !== undefined ? countAll(want, o, len) : undefined;
      }
      const out = read(r, "output", o, len);
      const w =
        want === undefined
          ? (expected?.[r] as Uint8Array).subarray(o * eb, (o + len) * eb)
          : wantBeside(want, out.buffer, copies);
      const bad = bads?.[r] ?? countWrong(out, w, dtype);
      wrong += bad;
      if (bad === 0 && want !== undefined) {
        if (wantErr < 0) wantErr = maxAbsError(w, dtype, exactOf(r), f32);
        maxAbsErr = Math.max(maxAbsErr, wantErr);
      } else {
        // The exact result first: reading the inputs may reuse the tile `out` was staged in.
        exactOf(r);
        maxAbsErr = Math.max(maxAbsErr, maxAbsError(read(r, "output", o, len), dtype, exact, f32));
      }
    }
  }
  return { wrong, maxAbsErr };
}
