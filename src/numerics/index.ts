/**
 * sdmakit numerics: the dtypes the CCE reads and writes, their conversions to and from FP32
 * (round to nearest even or stochastic), and the FP32 ALU (ADD, fused FMA, MIN, MAX).
 * Bit-exact against LLVM APFloat (test/vectors, tools/vectors/gen.cpp). Zero dependencies.
 *
 * Per-function TSDoc below; the MODEL choices are collected in docs/FIDELITY.md.
 * @module
 */

/**
 * The CCE ALU over FP32 accumulators, the readable reference the kernels are pinned to: ADD, fused
 * FMA, MIN / MAX (IEEE 754-2019 minimum/maximum), the MIN/MAX constant clamp, the identity each op
 * starts from, the FP32 value of a MIN/MAX constant word, and the accumulator-dtype rule (MODEL:
 * always FP32).
 * @throws {FieldError} when `count` exceeds an array, on a constant dtype other than fp32 / int32 /
 * uint32, or an accum dtype code outside 1..15.
 * @example
 * const acc = new Float32Array(n).fill(aluIdentity("add"));
 * for (const src of sources) aluAdd(acc, src, n);
 */
export {
  type AluOp,
  aluAccumulatorDtype,
  aluAdd,
  aluClamp,
  aluConstantToF32,
  aluFma,
  aluIdentity,
  aluMax,
  aluMin,
} from "./alu.js";
/**
 * `decodeToF32`: `count` little-endian elements of a dtype from bytes into FP32. `encodeFromF32`:
 * FP32 values as a dtype, little-endian, with RNE or stochastic rounding and an overflow policy.
 * @throws {FieldError} on an unknown dtype, a negative or fractional count, or a span past either array.
 * @example
 * const f32 = new Float32Array(2);
 * decodeToF32(Dtype.BFLOAT16, Uint8Array.of(0x80, 0x3f, 0x00, 0xc0), 0, 2, f32); // f32 = [1, -2]
 * const out = new Uint8Array(1);
 * encodeFromF32(Dtype.FP8_E4, Float32Array.of(300), 0, 1, out, 0);                 // out[0] = 0x78 (inf)
 * encodeFromF32(Dtype.FP8_E4, Float32Array.of(300), 0, 1, out, 0, RNE, "satfinite"); // out[0] = 0x77 (240)
 */
export { decodeToF32, encodeFromF32 } from "./codec.js";
/** The scalar narrow-float encoder the kernels are checked against. */
export { encodeNarrowFloat } from "./float-encode.js";
/**
 * The five narrow float formats (bf16, fp16, fp8 e3m4 / e4m3 / e5m2) as data.
 * @example narrowFloatFormat(Dtype.FP8_E4)?.maxCode; // 0x77
 */
export type { NarrowFloatFormat } from "./float-formats.js";
/**
 * The format of a narrow float dtype; undefined for FP32 and the integers. Never throws.
 * @example narrowFloatFormat(Dtype.FP8_E5)?.infCode; // 0x7c
 */
export { BF16_FORMAT, narrowFloatFormat } from "./float-formats.js";
/**
 * FP32 fused multiply-add a·b + c with a single rounding. Never throws.
 * @example fmaF32((1 + 2 ** -23) * 2 ** -12, (2 - 2 ** -22) * 2 ** -13, 1 + 2 ** -23); // 1 + 2^-23, not 1 + 2^-22
 */
export { fmaF32 } from "./fma.js";
/**
 * One whole reduce from the sources' bytes to the output's (reduce.ts): numerics picks the kernels
 * (one two-source pass, the stepwise ones, or JS), the arena and any staging; the bits are those of
 * the ALU reference above. `accumulatorStart` is the value a reduce's accumulator starts from.
 * @throws {FieldError} on a span past its bytes, a count unlike the output's, or no source.
 * @example
 * const dt = Dtype.BFLOAT16;
 * const span = (bytes: Uint8Array) => ({ dtype: dt, bytes, offset: 0, count: n });
 * reduceInto("add", [span(a), span(b)], span(out), { rounding: RNE, overflow: "ieee" });
 */
export {
  accumulatorStart,
  type FmaOperands,
  type ReduceOptions,
  type ReduceSource,
  reduceInto,
  type Span,
} from "./reduce.js";
/**
 * Reserve a reduce scratch block at the start of a {@link WasmArena}, so a reduce whose bytes live in
 * that arena runs there in place, and SR reads a seed's random words kept there;
 * `reduceScratchBytes` is the size of such a block.
 * @throws {FieldError} when the block does not fit the arena.
 * @example const pagesFrom = reserveReduceScratch(new WasmArena(16 << 20), 1 << 14, 1 << 16);
 */
export { type ReduceScratch, reduceScratchBytes, reserveReduceScratch } from "./reduce-scratch.js";
/**
 * Rounding mode (`SrRounding`: the stochastic one) and overflow policy of a conversion to a narrow
 * float.
 * @example const sr: Rounding = { mode: "sr", rng: new SrStream(1) };
 */
export type { OverflowPolicy, Rounding, SrRounding } from "./rounding.js";
/**
 * `RNE`: the round-to-nearest-even {@link Rounding}. `OVERFLOW_POLICIES`: every {@link OverflowPolicy}.
 * @example encodeFromF32(Dtype.BFLOAT16, src, 0, n, out, 0, RNE, "ieee");
 */
export { OVERFLOW_POLICIES, RNE } from "./rounding.js";
/**
 * What stochastic rounding draws from: anything with `nextU32()`. Never throws.
 * @example const counter: RandomSource = { nextU32: () => (k++ << 16) >>> 0 };
 */
export type { RandomSource } from "./sr-stream.js";
/**
 * The seeded stochastic-rounding random stream, one per DMA queue (MODEL: xoshiro128**).
 * @throws {FieldError} from the constructor and `reseed` when the seed is not an integer in 0..2^32−1.
 * @example
 * const rng = new SrStream(0);
 * encodeFromF32(Dtype.BFLOAT16, src, 0, n, out, 0, { mode: "sr", rng });
 * rng.reseed(0); // a seed-init descriptor: the same seed replays the same bits
 */
export { SrStream } from "./sr-stream.js";
/**
 * Memory the WebAssembly SIMD kernels work on in place: allocate a reduce's accumulator, source
 * bytes and output as views of one arena and the ALU steps and codecs of every dtype run with no
 * staging copy (other arrays are staged in 64 KiB chunks; same bits either way).
 * @throws {FieldError} when the byte length is not an integer in 1..2^31.
 * @example
 * const arena = new WasmArena(8 * n);
 * const acc = arena.f32(0, n);
 * const bytes = arena.u8(4 * n, 2 * n); // one bf16 source
 */
/**
 * The kernels' switches, not their paths: `useWasmKernels(false)` runs the JS loops instead (the
 * same bits; tests and the bench hold the two against each other), `wasmKernelsRun(fn)` names the
 * kernels `fn` ran, `provideWasmKernelModule` hands over a module compiled elsewhere (the web page's
 * worker). Which kernel a reduce takes stays inside reduceInto.
 * @throws {FieldError} from provideWasmKernelModule when given no WebAssembly.Module.
 * @example wasmKernelsRun(() => decodeToF32(Dtype.FP16, bytes, 0, 64, out)); // ["dec_fp16"]
 */
export { provideWasmKernelModule, useWasmKernels, WasmArena, wasmKernelsRun } from "./wasm/kernels.js";
