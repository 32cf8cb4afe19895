import { FieldError } from "../bits/errors.js";
import { Dtype, dtypeBytes, dtypeName, isDtype, MIN_MAX_CONSTANT_DTYPES } from "../spec/dtype.js";
import { decodeToF32, encodeFromF32 } from "./codec.js";
import { overflowCodes } from "./float-encode.js";
import { narrowFloatFormat } from "./float-formats.js";
import { fmaF32 } from "./fma.js";
import { type OverflowPolicy, RNE, type Rounding } from "./rounding.js";
import { SrStream } from "./sr-stream.js";
import { wasmAlu, wasmClamp, wasmReduce2, wasmReduceMany } from "./wasm/kernels.js";

/** The CCE ALU operations (SDMA_CCETYPE ADD 0, FMA 1, MAX 2, MIN 3; seed 000 §1.1, §4.1). */
export type AluOp = "add" | "fma" | "min" | "max";

/**
 * MODEL — integer and narrow accumulation: the accumulator is FP32 whatever the meta-control
 * accum_dtype nibble (bits 19:16, seed 000 §3.3) names. Public docs state that DMA compute runs in
 * FP32 and that integer all-reduces are converted to FP32 by the compiler
 * (../shared/GROUND_TRUTH.md); the seeds show the nibble is encoded but not what the silicon does
 * with it. So an int32 sum rounds like an FP32 sum (exact below 2^24) and is converted back by
 * the integer policy of int-encode.ts. This is the one place that rule lives.
 * @returns always {@link Dtype.FP32} for a valid dtype code.
 */
export function aluAccumulatorDtype(accumDt: number): Dtype {
  if (!isDtype(accumDt)) {
    throw new FieldError("alu", "accum_dtype", accumDt, `${Dtype.UINT64}..${Dtype.FP8_E5}`);
  }
  return Dtype.FP32;
}

/**
 * The value an accumulator starts from so that applying the first source loads it unchanged:
 * −0 for ADD and FMA (x + (−0) = x for every x, −0 included), +inf for MIN, −inf for MAX.
 */
export function aluIdentity(op: AluOp): number {
  return op === "min" ? Number.POSITIVE_INFINITY : op === "max" ? Number.NEGATIVE_INFINITY : -0;
}

/*
 * MODEL — NaN results: every NaN an ALU op produces is written as the canonical quiet NaN
 * 0x7fc00000. IEEE 754 leaves the sign and payload of a NaN result open, and what a JS engine
 * hands back differs by CPU and JIT tier; fixing one pattern keeps results bit-identical on every
 * machine (DESIGN.md "Deterministic"). The narrow-float encoders keep a NaN's sign, so a NaN
 * reduced into bf16 comes out as +NaN 0x7fc0.
 */
const CANONICAL_NAN_BITS = 0x7fc00000;

function f32Bits(a: Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

/*
 * Speed: ADD / FMA / MIN / MAX over 64 elements or more run as WebAssembly SIMD kernels
 * (wasm/kernels.wat, pinned to these loops bit for bit by test/numerics/wasm-kernels.test.ts): in
 * place when acc and src view one WasmArena, else staged in 64 KiB chunks. Otherwise each kernel is
 * one monomorphic loop over typed arrays with no call per element. A NaN result is rare, so it is caught after the
 * fact (`Number.isNaN`, one compare once optimised) and rewritten as the canonical bits through
 * the integer view of acc: one well-predicted branch per element.
 */

/** The ALU kernels run over [0, count) of every array they are given. */
function checkCount(fn: string, count: number, a: Float32Array, b: Float32Array = a): void {
  const limit = a.length < b.length ? a.length : b.length;
  if (!Number.isInteger(count) || count < 0 || count > limit) {
    throw new FieldError(fn, "count", count, `0..${limit}`);
  }
}

/**
 * ADD: acc[i] = acc[i] + src[i], rounded to FP32. The double sum of two FP32 values rounded to FP32
 * is the correctly rounded FP32 sum (53 ≥ 2·24 + 2: double rounding is innocuous for +).
 */
export function aluAdd(acc: Float32Array, src: Float32Array, count: number): void {
  checkCount("aluAdd", count, acc, src);
  if (wasmAlu("add", acc, Dtype.FP32, src, 0, count)) return;
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) {
    const r = acc[i]! + src[i]!;
    acc[i] = r;
    if (Number.isNaN(r)) bits[i] = CANONICAL_NAN_BITS;
  }
}

/** FMA: acc[i] = src[i]·scale + acc[i] with one rounding to FP32 (seed 000 §3.1: a=input, b=scale, c=stored). */
export function aluFma(acc: Float32Array, src: Float32Array, scale: number, count: number): void {
  checkCount("aluFma", count, acc, src);
  if (isF32(scale) && wasmAlu("fma", acc, Dtype.FP32, src, 0, count, scale)) return;
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) {
    const r = fmaF32(src[i]!, scale, acc[i]!);
    acc[i] = r;
    if (Number.isNaN(r)) bits[i] = CANONICAL_NAN_BITS;
  }
}

/** The kernels take the scale as an FP32 value (the descriptor's word; NaN too); another runs in JS. */
function isF32(x: number): boolean {
  return Math.fround(x) === x || Number.isNaN(x);
}

/*
 * MODEL — NaN and signed zero in MIN/MAX: IEEE 754-2019 minimum / maximum (§9.6): a NaN in either
 * operand gives NaN, and −0 < +0. That is exactly Math.min / Math.max. The alternative
 * (minimumNumber, where a number beats a NaN) would hide a NaN in a reduction; we prefer the
 * reduction to show it. The seeds and public docs are silent.
 */

/** MIN: acc[i] = minimum(acc[i], src[i]). */
export function aluMin(acc: Float32Array, src: Float32Array, count: number): void {
  minMax("min", Math.min, acc, src, count);
}

/** MAX: acc[i] = maximum(acc[i], src[i]). */
export function aluMax(acc: Float32Array, src: Float32Array, count: number): void {
  minMax("max", Math.max, acc, src, count);
}

/** MIN or MAX element by element, a NaN result canonical (the wasm kernel when there is one). */
function minMax(
  op: "min" | "max",
  pick: (a: number, b: number) => number,
  acc: Float32Array,
  src: Float32Array,
  count: number,
): void {
  checkCount(op === "min" ? "aluMin" : "aluMax", count, acc, src);
  if (wasmAlu(op, acc, Dtype.FP32, src, 0, count)) return;
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) {
    const r = pick(acc[i]!, src[i]!);
    acc[i] = r;
    if (Number.isNaN(r)) bits[i] = CANONICAL_NAN_BITS;
  }
}

/**
 * The optional constant of MIN/MAX (min_max_info.use_constant, seed 000 §4.1): the constant joins
 * the reduction as one more, broadcast, operand. `max` with constant 0 is a ReLU.
 */
export function aluClamp(op: "min" | "max", acc: Float32Array, constant: number, count: number): void {
  checkCount("aluClamp", count, acc);
  const c = Math.fround(constant);
  if (wasmClamp(op, acc, c, count)) return;
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) {
    const r = op === "min" ? Math.min(acc[i]!, c) : Math.max(acc[i]!, c);
    acc[i] = r;
    if (Number.isNaN(r)) bits[i] = CANONICAL_NAN_BITS;
  }
}

/**
 * The FP32 value of a MIN/MAX constant given as its 32-bit word and dtype (fp32, int32 or uint32:
 * the dtypes public docs allow; an int32/uint32 constant rounds to FP32 once, to nearest even).
 */
export function aluConstantToF32(dt: Dtype, word: number): number {
  if (!MIN_MAX_CONSTANT_DTYPES.includes(dt)) {
    throw new FieldError("alu", "constant_dtype", dt, MIN_MAX_CONSTANT_DTYPES.map(dtypeName).join(", "));
  }
  const bytes = new Uint8Array(new Uint32Array([word >>> 0]).buffer);
  const out = new Float32Array(1);
  decodeToF32(dt, bytes, 0, 1, out);
  return out[0]!;
}

/**
 * One source step of a reduce, straight from the source's bytes: acc[i] ← op(acc[i], x[i]) for
 * i < count (FMA: x[i]·scale + acc[i], one rounding), x[i] being element i of dtype `dt` at
 * `bytes[byteOffset…]`. The same bits as `decodeToF32` into `scratch` followed by {@link aluAdd} /
 * {@link aluFma} / {@link aluMin} / {@link aluMax}, which is what runs where no kernel does (fewer
 * than 64 elements, a scale that is not an FP32 value, no wasm SIMD); otherwise every dtype is
 * decoded inside a wasm kernel (no scratch pass; in place when acc and bytes view one WasmArena).
 * @throws {FieldError} as decodeToF32 and the ALU functions do (span, count, dtype).
 */
export function aluApplyEncoded(
  op: AluOp,
  acc: Float32Array,
  dt: Dtype,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
  scratch: Float32Array,
  scale = 0,
): void {
  if (inRange(dt, acc, bytes, byteOffset, count) && (op !== "fma" || isF32(scale))) {
    if (wasmAlu(op, acc, dt, bytes, byteOffset, count, scale)) return;
  }
  decodeToF32(dt, bytes, byteOffset, count, scratch, 0);
  if (op === "add") aluAdd(acc, scratch, count);
  else if (op === "fma") aluFma(acc, scratch, scale, count);
  else if (op === "min") aluMin(acc, scratch, count);
  else aluMax(acc, scratch, count);
}

/** Whether `count` elements of `dt` at bytes[byteOffset…] and acc[0, count) are in range. */
function inRange(
  dt: Dtype,
  acc: Float32Array,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
): boolean {
  const width = dtypeBytes(dt);
  return (
    Number.isInteger(byteOffset) &&
    Number.isInteger(count) &&
    byteOffset >= 0 &&
    count >= 0 &&
    count <= acc.length &&
    byteOffset + count * width <= bytes.length
  );
}

/**
 * The first source step of an ADD / MIN / MAX reduce: acc[i] ← x[i], element i of dtype `dt` at
 * `bytes[byteOffset…]`, every NaN written as 0x7fc00000. Bit for bit what filling acc with
 * {@link aluIdentity}(op) and applying the source with {@link aluApplyEncoded} gives, whichever of
 * the three ops it starts (x + (−0) = x, −0 included; minimum(+inf, x) = maximum(−inf, x) = x), in one pass
 * instead of two; in a wasm kernel for every dtype.
 * @throws {FieldError} as decodeToF32 does (span, count, dtype).
 * @example
 * aluLoadEncoded(acc, Dtype.BFLOAT16, src0, 0, n);
 * aluApplyEncoded("add", acc, Dtype.BFLOAT16, src1, 0, n, scratch);
 */
export function aluLoadEncoded(
  acc: Float32Array,
  dt: Dtype,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
): void {
  if (inRange(dt, acc, bytes, byteOffset, count) && wasmAlu("load", acc, dt, bytes, byteOffset, count))
    return;
  decodeToF32(dt, bytes, byteOffset, count, acc, 0);
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) if (Number.isNaN(acc[i]!)) bits[i] = CANONICAL_NAN_BITS;
}

/**
 * The last source step of a reduce and the output in one: `out[outOffset…]` ← the `count`
 * elements op(acc[i], x[i]) encoded as `outDt` with `rounding` and `overflow` (x as in
 * {@link aluApplyEncoded}). The same bytes as aluApplyEncoded followed by encodeFromF32, run block
 * by block so that a long span's accumulator is read back while it is still in cache; afterwards
 * acc holds op(acc, x).
 * @throws {FieldError} as aluApplyEncoded and encodeFromF32 do.
 * @example
 * aluLoadEncoded(acc, Dtype.BFLOAT16, src0, 0, n);
 * aluApplyEncodedThenEncode("add", acc, Dtype.BFLOAT16, src1, 0, n, scratch, Dtype.BFLOAT16, out, 0);
 */
export function aluApplyEncodedThenEncode(
  op: AluOp,
  acc: Float32Array,
  dt: Dtype,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
  scratch: Float32Array,
  outDt: Dtype,
  out: Uint8Array,
  outOffset: number,
  rounding: Rounding = RNE,
  overflow: OverflowPolicy = "ieee",
  scale = 0,
): void {
  if (count <= BLOCK) {
    aluApplyEncoded(op, acc, dt, bytes, byteOffset, count, scratch, scale);
    encodeFromF32(outDt, acc, 0, count, out, outOffset, rounding, overflow);
    return;
  }
  checkCount("aluApplyEncodedThenEncode", count, acc);
  const inWidth = dtypeBytes(dt);
  const outWidth = dtypeBytes(outDt);
  for (let done = 0; done < count; done += BLOCK) {
    const n = Math.min(BLOCK, count - done);
    const block = acc.subarray(done, done + n);
    aluApplyEncoded(op, block, dt, bytes, byteOffset + done * inWidth, n, scratch, scale);
    encodeFromF32(outDt, block, 0, n, out, outOffset + done * outWidth, rounding, overflow);
  }
}

/**
 * The accumulator of one block at its start, from the first source when a kernel step can: loaded
 * (ADD / MIN / MAX of several sources), or scaled into the +0 start (FMA: one rounding, as the FMA
 * step on +0 gives); else the start value. Returns the index of the first source still to apply.
 */
function startBlock(
  op: AluOp,
  acc: Float32Array,
  sources: readonly EncodedSource[],
  done: number,
  n: number,
): number {
  const first = sources[0] as EncodedSource;
  const at = first.byteOffset + done * dtypeBytes(first.dt);
  const several = sources.length > 1;
  if (op !== "fma") {
    if (several) aluLoadEncoded(acc, first.dt, first.bytes, at, n);
    else acc.fill(aluIdentity(op), 0, n);
    return several ? 1 : 0;
  }
  const scale = first.scale ?? 0;
  if (several && isF32(scale) && inRange(first.dt, acc, first.bytes, at, n)) {
    if (wasmAlu("scale", acc, first.dt, first.bytes, at, n, scale)) return 1;
  }
  acc.fill(0, 0, n);
  return 0;
}

/**
 * The whole reduce in one kernel with no accumulator, everything in one WasmArena: two sources of
 * the output's dtype (wasmReduce2; FMA with FP32 scales; SR draws a long span's words into
 * `scratch`) or three or four ADD sources of it, RNE (wasmReduceMany: a kangaring reduce); false
 * when that does not apply.
 */
function reduceWhole(
  op: AluOp,
  sources: readonly EncodedSource[],
  count: number,
  outDt: Dtype,
  out: Uint8Array,
  outOffset: number,
  rounding: Rounding,
  overflow: OverflowPolicy,
  scratch: Float32Array,
): boolean {
  const n = sources.length;
  const many = (n === 3 || n === 4) && op === "add" && rounding.mode === "rne";
  if (n !== 2 && !many) return false;
  const span = count * dtypeBytes(outDt);
  if (!Number.isInteger(count) || count < 0 || !fits(out, outOffset, span)) return false;
  // Indexed, no array made: the engine calls this for every compute packet.
  for (let i = 0; i < n; i++) {
    const s = sources[i] as EncodedSource;
    if (s.dt !== outDt || !fits(s.bytes, s.byteOffset, span)) return false;
  }
  const fmt = narrowFloatFormat(outDt);
  const codes = fmt === undefined ? undefined : overflowCodes(fmt, overflow);
  const finite = codes?.finite ?? 0;
  const inf = codes?.inf ?? 0;
  if (many) return wasmReduceMany(op, outDt, sources, count, out, outOffset, finite, inf);
  const a = sources[0] as EncodedSource;
  const b = sources[1] as EncodedSource;
  const scale0 = a.scale ?? 0;
  const scale1 = b.scale ?? 0;
  if (op === "fma" && !(isF32(scale0) && isF32(scale1))) return false;
  const sr = rounding.mode === "sr" && fmt !== undefined ? rounding.rng : undefined;
  if (sr !== undefined && !(sr instanceof SrStream)) return false;
  return wasmReduce2(
    op,
    outDt,
    a.bytes,
    a.byteOffset,
    b.bytes,
    b.byteOffset,
    count,
    out,
    outOffset,
    sr,
    finite,
    inf,
    scale0,
    scale1,
    scratch,
  );
}

/** `span` bytes from `at` lie inside `bytes` (a module function: no closure made per packet). */
function fits(bytes: Uint8Array, at: number, span: number): boolean {
  return Number.isInteger(at) && at >= 0 && at + span <= bytes.length;
}

/** Elements per block of aluApplyEncodedThenEncode: 16 KiB of accumulator, resident in L1. */
const BLOCK = 4096;

/** One source of {@link aluReduceEncoded}: `count` elements of `dt` at `bytes[byteOffset…]`. */
export interface EncodedSource {
  readonly dt: Dtype;
  readonly bytes: Uint8Array;
  readonly byteOffset: number;
  /** FMA only: this source's scale (the fma-desc's), an FP32 value. */
  readonly scale?: number;
}

/**
 * A whole reduce in one pass over memory: `out[outOffset…]` ← op over the sources of their
 * elements, encoded as `outDt`. ADD / MIN / MAX start from the first source (aluLoadEncoded), FMA
 * from +0 (execute.ts MODEL "accumulator start"), and each further source is applied in order.
 * The same bytes as those steps over the whole span, run in blocks of min(acc.length,
 * scratch.length) elements (16 Ki = 64 KiB of accumulator stays in L2) so that no accumulator
 * round trip reaches memory; in wasm kernels when acc, sources and out view one WasmArena. Two
 * sources of the output's dtype run as one kernel with no accumulator at all.
 * @throws {FieldError} as the steps do; when there is no source.
 * @example
 * aluReduceEncoded("add", acc, [{ dt, bytes: a, byteOffset: 0 }, { dt, bytes: b, byteOffset: 0 }], n, scratch, dt, out, 0);
 */
export function aluReduceEncoded(
  op: AluOp,
  acc: Float32Array,
  sources: readonly EncodedSource[],
  count: number,
  scratch: Float32Array,
  outDt: Dtype,
  out: Uint8Array,
  outOffset: number,
  rounding: Rounding = RNE,
  overflow: OverflowPolicy = "ieee",
): void {
  if (sources.length === 0) throw new FieldError("aluReduceEncoded", "sources", 0, "1 or more");
  if (reduceWhole(op, sources, count, outDt, out, outOffset, rounding, overflow, scratch)) return;
  const block = Math.min(acc.length, scratch.length);
  if (count > 0 && block < 1) throw new FieldError("aluReduceEncoded", "acc.length", block, "1 or more");
  const outWidth = dtypeBytes(outDt);
  const last = sources.length - 1;
  for (let done = 0; done < count; done += block) {
    const n = Math.min(block, count - done);
    const next = startBlock(op, acc, sources, done, n);
    for (let i = next; i <= last; i++) {
      const s = sources[i] as EncodedSource;
      const at = s.byteOffset + done * dtypeBytes(s.dt);
      if (i < last) aluApplyEncoded(op, acc, s.dt, s.bytes, at, n, scratch, s.scale);
      else {
        aluApplyEncodedThenEncode(
          op,
          acc,
          s.dt,
          s.bytes,
          at,
          n,
          scratch,
          outDt,
          out,
          outOffset + done * outWidth,
          rounding,
          overflow,
          s.scale,
        );
      }
    }
  }
}
