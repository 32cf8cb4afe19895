// Numerics throughput as a ratio to a baseline measured in the same run (so the ratio, not the
// absolute speed, is what carries across machines). Imported by bench/run.ts; never part of
// `npm test`.
//
// THE BASELINE, for every row: one `Uint8Array.prototype.set` copy of the row's INPUT bytes (all
// sources together; for a conversion, its one input array), from one buffer into another. It
// reads those bytes once and writes them once; the operation itself also writes its output,
// which the baseline does not count. Ratio = copy time / operation time (higher is better).
// The copy and the operation are timed in alternation, so both see the same machine load.
//
// The target rows run four ways in the same run: the JS loops (wasm kernels switched off); plain
// arrays (the first source decoded straight into the accumulator, every other source decoded into
// scratch and applied, then the encode; wasm kernels staged in 64 KiB chunks); the one-pass-per-step
// arena pattern (identity fill, aluApplyEncoded per source, encodeFromF32, all in one WasmArena); and
// the two-pass arena pattern (aluLoadEncoded for the first source, aluApplyEncodedThenEncode for the
// last), which is what src/engine/execute.ts runs for a CCE packet.
import {
  aluAdd,
  aluApplyEncoded,
  aluApplyEncodedThenEncode,
  aluFma,
  aluIdentity,
  aluLoadEncoded,
  decodeToF32,
  encodeFromF32,
  RNE,
  type Rounding,
  SrStream,
  WasmArena,
} from "../src/numerics/index.js";
import { useWasmKernels } from "../src/numerics/wasm/kernels.js";
import { Dtype, dtypeBytes } from "../src/spec/dtype.js";

export interface BenchRow {
  readonly name: string;
  /** Copy time of the row's input bytes / operation time, measured in alternation (higher is better). */
  readonly ratio: number;
  readonly note: string;
}

const ELEMENTS = 1 << 20; // 1 Mi elements: megabytes per source, as the engine sees them
const REPEATS = 21;

function median(times: number[]): number {
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

function timeMs(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/**
 * Median wall times (ms) of the operation and of the baseline copy of `inputBytes` bytes, timed in
 * alternation over REPEATS rounds after two warm-up rounds, and the row built from them.
 */
function measure(name: string, inputBytes: number, op: () => void): BenchRow {
  const from = new Uint8Array(inputBytes).fill(7);
  const to = new Uint8Array(inputBytes);
  const copy = () => to.set(from);
  const opTimes: number[] = [];
  const copyTimes: number[] = [];
  for (let i = 0; i < REPEATS + 2; i++) {
    const o = timeMs(op);
    const c = timeMs(copy);
    if (i < 2) continue; // warm-up: let the JIT settle
    opTimes.push(o);
    copyTimes.push(c);
  }
  const opMs = median(opTimes);
  const baseMs = median(copyTimes);
  return {
    name,
    ratio: baseMs / opMs,
    note: `${((opMs / ELEMENTS) * 1e6).toFixed(2)} ns/element; baseline: set copy of the ${inputBytes} input bytes, ${baseMs.toFixed(2)} ms`,
  };
}

/** Sources of `dt` holding smooth, varied values (no NaN, no overflow). */
function sources(dt: Dtype, n: number): Uint8Array[] {
  return [0, 1]
    .map((k) => {
      const values = Float32Array.from({ length: ELEMENTS }, (_, i) => Math.sin(i * 0.001 + k) * 100);
      const bytes = new Uint8Array(ELEMENTS * dtypeBytes(dt));
      encodeFromF32(dt, values, 0, ELEMENTS, bytes, 0);
      return bytes;
    })
    .slice(0, n);
}

/**
 * A 2-source reduce on plain arrays: the first source is decoded straight into the accumulator,
 * the second into scratch and applied, the accumulator is encoded to the output dtype. `wasm`
 * false: the JS loops only.
 */
function reduceRow(
  name: string,
  dt: Dtype,
  combine: (acc: Float32Array, src: Float32Array) => void,
  rounding: Rounding,
  wasm = true,
): BenchRow {
  const srcs = sources(dt, 2);
  const acc = new Float32Array(ELEMENTS);
  const scratch = new Float32Array(ELEMENTS);
  const out = new Uint8Array(ELEMENTS * dtypeBytes(dt));
  const inputBytes = srcs.reduce((sum, s) => sum + s.length, 0);
  return measure(name, inputBytes, () => {
    useWasmKernels(wasm);
    decodeToF32(dt, srcs[0]!, 0, ELEMENTS, acc);
    for (const src of srcs.slice(1)) {
      decodeToF32(dt, src, 0, ELEMENTS, scratch);
      combine(acc, scratch);
    }
    encodeFromF32(dt, acc, 0, ELEMENTS, out, 0, rounding);
    useWasmKernels(true);
  });
}

/**
 * The same 2-source ADD reduce with accumulator, sources and output in one WasmArena. `fused`:
 * aluLoadEncoded then aluApplyEncodedThenEncode (two passes); else the previous pattern: identity
 * fill, aluApplyEncoded per source, encodeFromF32 (four passes).
 */
function arenaRow(name: string, dt: Dtype, rounding: Rounding, fused: boolean): BenchRow {
  const width = dtypeBytes(dt);
  const arena = new WasmArena(ELEMENTS * (4 + 3 * width));
  const acc = arena.f32(0, ELEMENTS);
  const srcs = sources(dt, 2).map((bytes, k) => {
    const view = arena.u8(ELEMENTS * (4 + k * width), bytes.length);
    view.set(bytes);
    return view;
  });
  const out = arena.u8(ELEMENTS * (4 + 2 * width), ELEMENTS * width);
  const scratch = new Float32Array(ELEMENTS); // only dtypes without a kernel decode into it
  const [src0, src1] = srcs as [Uint8Array, Uint8Array];
  if (fused) {
    return measure(name, 2 * ELEMENTS * width, () => {
      aluLoadEncoded(acc, dt, src0, 0, ELEMENTS);
      aluApplyEncodedThenEncode("add", acc, dt, src1, 0, ELEMENTS, scratch, dt, out, 0, rounding);
    });
  }
  return measure(name, 2 * ELEMENTS * width, () => {
    acc.fill(aluIdentity("add"));
    for (const src of srcs) aluApplyEncoded("add", acc, dt, src, 0, ELEMENTS, scratch);
    encodeFromF32(dt, acc, 0, ELEMENTS, out, 0, rounding);
  });
}

export default async function run(): Promise<BenchRow[]> {
  const add = (acc: Float32Array, src: Float32Array) => aluAdd(acc, src, ELEMENTS);
  const fma = (acc: Float32Array, src: Float32Array) => aluFma(acc, src, 0.5, ELEMENTS);
  const f32 = new Float32Array(ELEMENTS).map((_, i) => Math.cos(i) * 3);
  const fp8 = new Uint8Array(ELEMENTS).map((_, i) => i * 31);
  const bf16Out = new Uint8Array(2 * ELEMENTS);
  const rng = new SrStream(0);
  return [
    reduceRow("fp32 ADD, 2 sources, JS loops only", Dtype.FP32, add, RNE, false),
    reduceRow("fp32 ADD, 2 sources, plain arrays, wasm staged", Dtype.FP32, add, RNE),
    arenaRow("fp32 ADD, 2 sources, arena, fill+apply×2+encode", Dtype.FP32, RNE, false),
    arenaRow("fp32 ADD, 2 sources, arena, load+apply&encode = engine (≥ 0.5)", Dtype.FP32, RNE, true),
    reduceRow("bf16 / fp32 ADD / bf16 RNE, 2 src, JS loops only", Dtype.BFLOAT16, add, RNE, false),
    reduceRow("bf16 / fp32 ADD / bf16 RNE, 2 src, plain arrays, staged", Dtype.BFLOAT16, add, RNE),
    arenaRow("bf16 / fp32 ADD / bf16 RNE, 2 src, arena, fill+apply×2+enc", Dtype.BFLOAT16, RNE, false),
    arenaRow("bf16 / fp32 ADD / bf16 RNE, 2 src, arena = engine (≥ 0.2)", Dtype.BFLOAT16, RNE, true),
    reduceRow("bf16 / fp32 ADD / bf16 SR, 2 src, wasm staged", Dtype.BFLOAT16, add, { mode: "sr", rng }),
    reduceRow("fp32 FMA (fused), 2 sources", Dtype.FP32, fma, RNE),
    reduceRow("fp8_e4 in / fp32 ADD / fp8_e4 out RNE, 2 sources", Dtype.FP8_E4, add, RNE),
    measure("decode fp8_e4 → fp32", ELEMENTS, () => decodeToF32(Dtype.FP8_E4, fp8, 0, ELEMENTS, f32)),
    measure("encode fp32 → bf16 RNE", 4 * ELEMENTS, () =>
      encodeFromF32(Dtype.BFLOAT16, f32, 0, ELEMENTS, bf16Out, 0),
    ),
  ];
}
