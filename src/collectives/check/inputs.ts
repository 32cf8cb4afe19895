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
import { jumpAhead } from "../../numerics/sr-jump.js";
import { type Dtype, dtypeBytes, isFloatDtype } from "../../spec/dtype.js";
import type { InputTarget } from "../device/buffer-layout.js";
import type { ReduceOp } from "../plan/plan.js";
import { type SparsePattern, sparseDraws, WasmCodeDraw } from "./check-kernels.js";
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

/** Elements generated at once: a tile's words, values and bytes stay in cache. */
const TILE = 16384;

/**
 * Receives each tile of a rank's encoded input in order (or, asked for, each block of the
 * WebAssembly draw: up to 1 MiB); `bytes` is reused after the call returns.
 */
export type InputSink = (rank: number, firstElem: number, bytes: Uint8Array) => void;

/**
 * Exact data's few values, encoded once: a tile is then written by lookup, with no per-element
 * encode (the same bytes as encoding each value), in WebAssembly where it runs (check-kernels.ts).
 * For 1-, 2- and 4-byte dtypes and up to 2^16 values.
 */
class CodeTable {
  private constructor(
    private readonly codes: Uint8Array | Uint16Array | Uint32Array,
    private readonly width: 1 | 2 | 4,
    private readonly span: number,
    private readonly wasm: WasmCodeDraw | undefined,
  ) {}

  /** The table of the integers −off … span − 1 − off, or undefined where a lookup does not pay. */
  static of(dt: Dtype, off: number, span: number): CodeTable | undefined {
    const eb = dtypeBytes(dt);
    if (span > 1 << 16 || (eb !== 1 && eb !== 2 && eb !== 4)) return undefined;
    // A loop, not Float32Array.from's callback an element: 0.4 ms, not 8.5, for a 16-bit
    // integer's 65 535 values — a table every exact int16 / uint16 run makes.
    const values = new Float32Array(span);
    for (let k = 0; k < span; k++) values[k] = k - off;
    const bytes = new Uint8Array(span * eb);
    encodeFromF32(dt, values, 0, span, bytes, 0);
    const codes = eb === 1 ? bytes : eb === 2 ? new Uint16Array(bytes.buffer) : new Uint32Array(bytes.buffer);
    return new CodeTable(codes, eb, span, WasmCodeDraw.load(bytes, eb, off));
  }

  /** Whether the code of 0 (index `off`) is all zero bytes (so a zero-filled tile holds zeros). */
  zeroIsZeroBytes(off: number): boolean {
    return this.codes[off] === 0;
  }

  /** Codes one {@link draw} gives at most: the module's block, else a tile. */
  get block(): number {
    return this.wasm?.blockElements ?? TILE;
  }

  /** {@link draw}'s codes straight into `out` (device memory); false when they cannot go there. */
  drawInto(rng: SrStream, out: Uint8Array): boolean {
    return this.wasm?.drawInto(rng, this.span, out) ?? false;
  }

  /**
   * Sparse exact data's elements of `pattern` (its `len` ≤ {@link block}) drawn with sparseDraws'
   * count of codes and spread in the module (WasmCodeDraw.drawSparse); undefined where the module does not run.
   */
  drawSparse(rng: SrStream, pattern: SparsePattern): Uint8Array | undefined {
    return this.wasm?.drawSparse(rng, this.span, pattern);
  }

  /** {@link drawSparse}'s elements straight into `out` (device memory); false when they cannot go there. */
  drawSparseInto(rng: SrStream, pattern: SparsePattern, out: Uint8Array): boolean {
    return this.wasm?.drawSparseInto(rng, this.span, pattern, out) ?? false;
  }

  /**
   * The codes of the next `len` (≤ {@link block}) words w of `rng`: element i ← the code of
   * ⌊w_i / 2^32 · span⌋, in the module's memory or in `out` (`words`: scratch for the JS path).
   */
  draw(rng: SrStream, len: number, words: Uint32Array, out: Uint8Array): Uint8Array {
    if (this.wasm !== undefined) return this.wasm.draw(rng, this.span, len);
    rng.fillU32(words, len);
    const U = 2 ** -32;
    const codes = this.codes;
    const span = this.span;
    const o =
      this.width === 1
        ? out
        : this.width === 2
          ? new Uint16Array(out.buffer, out.byteOffset, len)
          : new Uint32Array(out.buffer, out.byteOffset, len);
    for (let i = 0; i < len; i++) o[i] = codes[Math.floor((words[i] as number) * U * span)] as number;
    return out.subarray(0, len * this.width);
  }
}

/** A run's inputs: `ranks` inputs of `count` elements of `dtype`, `kind` data from `seed`. */
export interface InputSpec {
  readonly kind: DataKind;
  readonly dtype: Dtype;
  readonly ranks: number;
  readonly count: number;
  readonly seed: number;
}

/**
 * How generateInputs hands the data over: `blocks` a device page at a time; only ranks `part`;
 * `target`: drawn into device memory where it can be (the same bytes).
 */
export interface InputDelivery {
  readonly blocks?: boolean;
  readonly part?: RankPart;
  readonly target?: InputTarget;
}

/** Ranks [first, end) of a run's inputs: the part one thread generates. */
export interface RankPart {
  readonly first: number;
  readonly end: number;
}

/**
 * Words of the data stream that ranks [0, r) take ({@link generateInputs} draws one word an element,
 * in rank order, but exact data with fewer exact integers than ranks draws only the elements it
 * makes nonzero): where rank r's data starts in the stream.
 */
export function inputWordsBefore(spec: Omit<InputSpec, "seed">, r: number): number {
  const { kind, dtype: dt, ranks, count } = spec;
  const E = exactIntegerRange(dt);
  if (kind !== "exact" || E >= ranks) return r * count;
  let words = 0;
  const full = Math.floor(count / ranks);
  for (let q = 0; q < r; q++) {
    words += full * E;
    for (let i = full * ranks; i < count; i++) if ((q + i) % ranks < E) words++;
  }
  return words;
}

/**
 * Generate `ranks` inputs of `count` elements each, tile by tile into `sink` (rank 0 first, then
 * rank 1, …), holding nothing of the size of an input: what the device run uses to write inputs
 * straight into device memory. The data is that of {@link makeInputs}. `part`: only those ranks,
 * the stream jumped to where the first of them starts (the same bytes: threads split the ranks).
 * Exact data: element i of rank r is an integer in [−mag, mag] ([0, mag] unsigned), nonzero only for
 * the E ranks r with (r + i) mod n < E when E < n, where E is {@link exactIntegerRange} and
 * mag = max(1, ⌊E / n⌋): any partial sum then has |sum| ≤ E.
 * `blocks`: hand exact data drawn by table to `sink` a block at a time (a device page: one write
 * each), not a tile — the same bytes.
 */
export function generateInputs(spec: InputSpec, sink: InputSink, delivery: InputDelivery = {}): void {
  const { kind, dtype: dt, ranks, count, seed } = spec;
  const { blocks = false, part = { first: 0, end: ranks }, target } = delivery;
  const rng = new SrStream(seed >>> 0);
  jumpAhead(rng.stateWords(), inputWordsBefore(spec, part.first));
  const E = exactIntegerRange(dt);
  const unsigned = isUnsignedDtype(dt);
  const mag = Math.max(1, Math.floor(E / ranks));
  const words = new Uint32Array(TILE);
  const v = new Float32Array(TILE);
  const b = new Uint8Array(TILE * dtypeBytes(dt));
  // One word of the stream per generated element, in element order: u = word / 2^32 in [0, 1).
  const U = 2 ** -32;
  const span = unsigned ? mag + 1 : 2 * mag + 1;
  const off = unsigned ? 0 : mag;
  const sparse = E < ranks;
  const table = kind === "exact" ? CodeTable.of(dt, off, span) : undefined;
  if (table !== undefined && !sparse) {
    drawByTable(table, rng, { part, count, eb: dtypeBytes(dt) }, { sink, blocks, target });
    return;
  }
  if (table?.zeroIsZeroBytes(off)) {
    const shape = { ranks, count, nonzero: E, eb: dtypeBytes(dt) };
    drawSparseByTable(table, rng, shape, part, { sink, blocks, target });
    return;
  }
  for (let r = part.first; r < part.end; r++) {
    for (let from = 0; from < count; from += TILE) {
      const len = Math.min(TILE, count - from);
      if (kind === "exact") {
        let draws = len;
        if (sparse) {
          draws = 0;
          for (let i = 0; i < len; i++) if ((r + from + i) % ranks < E) draws++;
        }
        rng.fillU32(words, draws);
        let w = 0;
        for (let i = 0; i < len; i++) {
          if (sparse && (r + from + i) % ranks >= E) v[i] = 0;
          else v[i] = Math.floor((words[w++] as number) * U * span) - off;
        }
      } else if (isFloatDtype(dt)) {
        // Spread over [−1, 1) but keep n values' sum finite in the narrowest format (e3m4 max 15.5).
        const bound = Math.min(1, 15 / ranks);
        rng.fillU32(words, len);
        for (let i = 0; i < len; i++) v[i] = (2 * ((words[i] as number) * U) - 1) * bound;
      } else {
        const lo = unsigned ? 0 : -E;
        const spanInt = Math.floor((E - lo) / ranks);
        rng.fillU32(words, len);
        for (let i = 0; i < len; i++)
          v[i] = Math.floor(lo / ranks + (words[i] as number) * U * (spanInt + 1));
      }
      const n = len * dtypeBytes(dt);
      encodeFromF32(dt, v, 0, len, b, 0);
      sink(r, from, b.subarray(0, n));
    }
  }
}

/**
 * Exact data by table ({@link generateInputs} without sparse ranks): where `target` takes them,
 * the codes up to each device page's end drawn straight into it; else a block of codes at a time
 * (the module's: a device page), handed to `sink` whole (`blocks`) or a tile at a time.
 */
function drawByTable(
  table: CodeTable,
  rng: SrStream,
  shape: { readonly part: RankPart; readonly count: number; readonly eb: number },
  out: { readonly sink: InputSink; readonly blocks: boolean; readonly target: InputTarget | undefined },
): void {
  const { part, count, eb } = shape;
  const { sink, blocks, target } = out;
  const words = new Uint32Array(TILE);
  const b = new Uint8Array(TILE * eb);
  const piece = blocks ? table.block * eb : TILE * eb;
  for (let r = part.first; r < part.end; r++) {
    for (let from = 0; from < count; ) {
      const view = target?.view(r, from, (count - from) * eb);
      if (view !== undefined && table.drawInto(rng, view)) {
        target?.written(r, from, view.length);
        from += view.length / eb;
        continue;
      }
      const len = Math.min(table.block, count - from);
      const codes = table.draw(rng, len, words, b);
      if (codes.length <= piece) sink(r, from, codes);
      else {
        for (let at = 0; at < codes.length; at += piece)
          sink(r, from + at / eb, codes.subarray(at, Math.min(codes.length, at + piece)));
      }
      from += len;
    }
  }
}

/**
 * Sparse exact data by table (the bytes of {@link generateInputs}' per-element loop): element i of
 * rank r is drawn only where (r + i) mod ranks < nonzero, else it is the code of 0 (all zero bytes).
 * Per piece, the draws are taken in one call and scattered over the runs of drawn elements (runs
 * of `nonzero`, every `ranks`): no modulo and no encode per element (a 32-rank fp8 64 MiB input
 * took ≈ 28 s in that loop, mostly the two `%` a element). Where the module runs, it spreads the
 * drawn block in place (check-spread-wat.ts): in the device page itself where `target` takes it (as
 * drawByTable; copying the module's block into the pages cost ≈ 1.8 s of those inputs); the loop
 * below, which copied a run of 16 fp8 codes by hand (≈ 4.6 s of those 32 inputs), runs where it does not.
 */
function drawSparseByTable(
  table: CodeTable,
  rng: SrStream,
  shape: { readonly ranks: number; readonly count: number; readonly nonzero: number; readonly eb: number },
  part: RankPart,
  out: { readonly sink: InputSink; readonly blocks: boolean; readonly target: InputTarget | undefined },
): void {
  const { ranks, count, nonzero, eb } = shape;
  const { sink, blocks, target } = out;
  const piece = blocks ? table.block : TILE;
  const words = new Uint32Array(TILE);
  const scratch = new Uint8Array(TILE * eb);
  const tile = new Uint8Array(piece * eb);
  for (let r = part.first; r < part.end; r++) {
    for (let from = 0, len = 0; from < count; from += len) {
      len = Math.min(piece, count - from);
      const page = target?.view(r, from, len * eb);
      const view = page !== undefined && page.length % eb === 0 ? page : undefined;
      if (view !== undefined) len = view.length / eb;
      const phase = (r + from) % ranks;
      const pattern = { len, phase, nonzero, ranks };
      if (view !== undefined && table.drawSparseInto(rng, pattern, view)) {
        target?.written(r, from, view.length);
        continue;
      }
      const spread = table.drawSparse(rng, pattern);
      if (spread !== undefined) {
        sink(r, from, spread);
        continue;
      }
      const draws = sparseDraws(pattern);
      const codes = draws > 0 ? table.draw(rng, draws, words, scratch) : scratch;
      tile.fill(0, 0, len * eb);
      let c = 0;
      for (let i = 0, q = phase; i < len; ) {
        if (q < nonzero) {
          const run = Math.min(nonzero - q, len - i);
          const bytes = run * eb;
          // A short run by hand: a subarray a run (64 M of them for 32 fp8 ranks × 64 MiB) costs more.
          if (bytes <= 64) for (let k = 0, o = i * eb; k < bytes; k++) tile[o + k] = codes[c + k] as number;
          else tile.set(codes.subarray(c, c + bytes), i * eb);
          c += bytes;
          i += run;
          q += run;
        } else {
          const run = Math.min(ranks - q, len - i);
          i += run;
          q = 0;
        }
      }
      sink(r, from, tile.subarray(0, len * eb));
    }
  }
}

/**
 * Make `ranks` inputs of `count` elements each, as whole arrays with their values (for tests and
 * small runs; the device run streams them with {@link generateInputs}).
 */
export function makeInputs(spec: InputSpec): RankInputs {
  const { dtype: dt, ranks, count } = spec;
  const eb = dtypeBytes(dt);
  const bytes = Array.from({ length: ranks }, () => new Uint8Array(count * eb));
  generateInputs(spec, (r, from, b) => (bytes[r] as Uint8Array).set(b, from * eb));
  const values = bytes.map((b) => {
    const v = new Float32Array(count);
    decodeToF32(dt, b, 0, count, v, 0);
    return v;
  });
  return { bytes, values };
}
