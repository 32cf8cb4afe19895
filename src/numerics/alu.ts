import { FieldError } from "../bits/errors.js";
import { Dtype, dtypeName, isDtype, MIN_MAX_CONSTANT_DTYPES } from "../spec/dtype.js";
import { decodeToF32, encodeFromF32 } from "./codec.js";
import { overflowCodes } from "./float-encode.js";
import { BF16_FORMAT } from "./float-formats.js";
import { fmaF32 } from "./fma.js";
import { type OverflowPolicy, RNE, type Rounding } from "./rounding.js";
import { wasmAlu, wasmAluTo } from "./wasm/kernels.js";

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
 * Speed: ADD / MIN / MAX over 256 elements or more run as WebAssembly SIMD kernels (wasm/kernels.wat,
 * pinned to these loops bit for bit by test/numerics/wasm-kernels.test.ts): in place when acc and
 * src view one WasmArena, else staged in 64 KiB chunks. Otherwise each kernel is one monomorphic
 * loop over typed arrays with no call per element. A NaN result is rare, so it is caught after the
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
  if (wasmAlu("add", acc, 4, src, 0, count)) return;
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
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) {
    const r = fmaF32(src[i]!, scale, acc[i]!);
    acc[i] = r;
    if (Number.isNaN(r)) bits[i] = CANONICAL_NAN_BITS;
  }
}

/*
 * MODEL — NaN and signed zero in MIN/MAX: IEEE 754-2019 minimum / maximum (§9.6): a NaN in either
 * operand gives NaN, and −0 < +0. That is exactly Math.min / Math.max. The alternative
 * (minimumNumber, where a number beats a NaN) would hide a NaN in a reduction; we prefer the
 * reduction to show it. The seeds and public docs are silent.
 */

/** MIN: acc[i] = minimum(acc[i], src[i]). */
export function aluMin(acc: Float32Array, src: Float32Array, count: number): void {
  checkCount("aluMin", count, acc, src);
  if (wasmAlu("min", acc, 4, src, 0, count)) return;
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) {
    const r = Math.min(acc[i]!, src[i]!);
    acc[i] = r;
    if (Number.isNaN(r)) bits[i] = CANONICAL_NAN_BITS;
  }
}

/** MAX: acc[i] = maximum(acc[i], src[i]). */
export function aluMax(acc: Float32Array, src: Float32Array, count: number): void {
  checkCount("aluMax", count, acc, src);
  if (wasmAlu("max", acc, 4, src, 0, count)) return;
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) {
    const r = Math.max(acc[i]!, src[i]!);
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
 * i < count, x[i] being element i of dtype `dt` at `bytes[byteOffset…]`. The same bits as
 * `decodeToF32` into `scratch` followed by {@link aluAdd} / {@link aluMin} / {@link aluMax}, which
 * is what runs for most dtypes; a bf16 or FP32 source of 256 elements or more is decoded inside a
 * wasm kernel instead (no scratch pass; in place when acc and bytes view one WasmArena).
 * @throws {FieldError} as decodeToF32 and the ALU functions do (span, count, dtype).
 */
export function aluApplyEncoded(
  op: "add" | "min" | "max",
  acc: Float32Array,
  dt: Dtype,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
  scratch: Float32Array,
): void {
  const width = kernelWidth(dt, acc, bytes, byteOffset, count);
  if (width !== 0 && wasmAlu(op, acc, width, bytes, byteOffset, count)) return;
  decodeToF32(dt, bytes, byteOffset, count, scratch, 0);
  if (op === "add") aluAdd(acc, scratch, count);
  else if (op === "min") aluMin(acc, scratch, count);
  else aluMax(acc, scratch, count);
}

/** The source width a wasm kernel decodes (2 bf16, 4 FP32), or 0: another dtype or a bad span. */
function kernelWidth(
  dt: Dtype,
  acc: Float32Array,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
): 0 | 2 | 4 {
  const width = dt === Dtype.BFLOAT16 ? 2 : dt === Dtype.FP32 || dt === Dtype.FP32R ? 4 : 0;
  const inRange =
    Number.isInteger(byteOffset) && byteOffset >= 0 && byteOffset + count * width <= bytes.length;
  return inRange && Number.isInteger(count) && count >= 0 && count <= acc.length ? width : 0;
}

/**
 * The first source step of an ADD / MIN / MAX reduce: acc[i] ← x[i], element i of dtype `dt` at
 * `bytes[byteOffset…]`, every NaN written as 0x7fc00000. Bit for bit what filling acc with
 * {@link aluIdentity}(op) and applying the source with {@link aluApplyEncoded} gives, whichever of
 * the three ops it starts (x + (−0) = x, −0 included; minimum(+inf, x) = maximum(−inf, x) = x), in one pass
 * instead of two. bf16 and FP32 sources of 256 elements or more load in a wasm kernel.
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
  const width = kernelWidth(dt, acc, bytes, byteOffset, count);
  if (width !== 0 && wasmAlu("load", acc, width, bytes, byteOffset, count)) return;
  decodeToF32(dt, bytes, byteOffset, count, acc, 0);
  const bits = f32Bits(acc);
  for (let i = 0; i < count; i++) if (Number.isNaN(acc[i]!)) bits[i] = CANONICAL_NAN_BITS;
}

/**
 * The last source step of a reduce and the output in one: `out[outOffset…]` ← the `count`
 * elements op(acc[i], x[i]) encoded as `outDt` with `rounding` and `overflow` (x as in
 * {@link aluApplyEncoded}). The same bytes as aluApplyEncoded followed by encodeFromF32; afterwards
 * acc holds op(acc, x) or, when a fused kernel ran, its old values (treat it as spent). Fused into
 * one wasm pass, without writing acc, when acc, bytes and out view one WasmArena (out apart from
 * both), the source is bf16 or FP32, and the output is FP32 / FP32R or bf16 RNE.
 * @throws {FieldError} as aluApplyEncoded and encodeFromF32 do.
 * @example
 * aluLoadEncoded(acc, Dtype.BFLOAT16, src0, 0, n);
 * aluApplyEncodedThenEncode("add", acc, Dtype.BFLOAT16, src1, 0, n, scratch, Dtype.BFLOAT16, out, 0);
 */
export function aluApplyEncodedThenEncode(
  op: "add" | "min" | "max",
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
): void {
  const width = kernelWidth(dt, acc, bytes, byteOffset, count);
  const fp32Out = outDt === Dtype.FP32 || outDt === Dtype.FP32R;
  const bf16Out = outDt === Dtype.BFLOAT16 && rounding.mode === "rne";
  const outWidth = fp32Out ? 4 : 2;
  const outInRange =
    Number.isInteger(outOffset) && outOffset >= 0 && outOffset + count * outWidth <= out.length;
  if (width !== 0 && (fp32Out || bf16Out) && outInRange) {
    const codes = bf16Out ? overflowCodes(BF16_FORMAT, overflow) : undefined;
    if (wasmAluTo(op, acc, width, bytes, byteOffset, count, out, outOffset, codes)) return;
  }
  aluApplyEncoded(op, acc, dt, bytes, byteOffset, count, scratch);
  encodeFromF32(outDt, acc, 0, count, out, outOffset, rounding, overflow);
}
