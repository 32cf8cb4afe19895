// Numerics throughput as a ratio to a TypedArray.prototype.set copy of the same input bytes,
// measured in the same run (so the ratio, not the absolute speed, is what carries across
// machines). Imported by bench/run.ts; never part of `npm test`.
import {
  aluAdd,
  aluFma,
  decodeToF32,
  encodeFromF32,
  RNE,
  type Rounding,
  SrStream,
} from "../src/numerics/index.js";
import { Dtype, dtypeBytes } from "../src/spec/dtype.js";

export interface BenchRow {
  readonly name: string;
  /** Throughput relative to the `set` copy of the same input bytes (higher is better). */
  readonly ratio: number;
  readonly note: string;
}

const ELEMENTS = 1 << 20; // 1 Mi elements: megabytes per source, as the engine sees them
const REPEATS = 15;

/** Median wall time of `fn` in ms over REPEATS runs, after two warm-up runs. */
function medianMs(fn: () => void): number {
  fn();
  fn();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[REPEATS >> 1]!;
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

/** The time to copy `byteLength` bytes with `set`: the baseline of every row. */
function copyMs(byteLength: number): number {
  const from = new Uint8Array(byteLength).fill(7);
  const to = new Uint8Array(byteLength);
  return medianMs(() => to.set(from));
}

/** A 2-source reduce: decode, combine in FP32, encode; as the engine runs one CCE packet. */
function reduceRow(
  name: string,
  dt: Dtype,
  combine: (acc: Float32Array, src: Float32Array) => void,
  rounding: Rounding,
): BenchRow {
  const srcs = sources(dt, 2);
  const acc = new Float32Array(ELEMENTS);
  const scratch = new Float32Array(ELEMENTS);
  const out = new Uint8Array(ELEMENTS * dtypeBytes(dt));
  const inputBytes = srcs.reduce((sum, s) => sum + s.length, 0);
  const opMs = medianMs(() => {
    decodeToF32(dt, srcs[0]!, 0, ELEMENTS, acc);
    decodeToF32(dt, srcs[1]!, 0, ELEMENTS, scratch);
    combine(acc, scratch);
    encodeFromF32(dt, acc, 0, ELEMENTS, out, 0, rounding);
  });
  const baseMs = copyMs(inputBytes);
  return {
    name,
    ratio: baseMs / opMs,
    note: `${((opMs / ELEMENTS) * 1e6).toFixed(2)} ns/element; copy of ${inputBytes} B ${baseMs.toFixed(2)} ms`,
  };
}

/** One conversion pass over ELEMENTS elements, against a copy of its input bytes. */
function convertRow(name: string, inputBytes: number, pass: () => void): BenchRow {
  const opMs = medianMs(pass);
  const baseMs = copyMs(inputBytes);
  return { name, ratio: baseMs / opMs, note: `${((opMs / ELEMENTS) * 1e6).toFixed(2)} ns/element` };
}

export default async function run(): Promise<BenchRow[]> {
  const add = (acc: Float32Array, src: Float32Array) => aluAdd(acc, src, ELEMENTS);
  const fma = (acc: Float32Array, src: Float32Array) => aluFma(acc, src, 0.5, ELEMENTS);
  const f32 = new Float32Array(ELEMENTS).map((_, i) => Math.cos(i) * 3);
  const fp8 = new Uint8Array(ELEMENTS).map((_, i) => i * 31);
  const bf16Out = new Uint8Array(2 * ELEMENTS);
  const rng = new SrStream(0);
  return [
    reduceRow("fp32 ADD, 2 sources (target ≥ 0.5)", Dtype.FP32, add, RNE),
    reduceRow("bf16 in / fp32 ADD / bf16 out RNE, 2 sources (target ≥ 0.2)", Dtype.BFLOAT16, add, RNE),
    reduceRow("bf16 in / fp32 ADD / bf16 out SR, 2 sources", Dtype.BFLOAT16, add, { mode: "sr", rng }),
    reduceRow("fp32 FMA (fused), 2 sources", Dtype.FP32, fma, RNE),
    reduceRow("fp8_e4 in / fp32 ADD / fp8_e4 out RNE, 2 sources", Dtype.FP8_E4, add, RNE),
    convertRow("decode fp8_e4 → fp32", ELEMENTS, () => decodeToF32(Dtype.FP8_E4, fp8, 0, ELEMENTS, f32)),
    convertRow("encode fp32 → bf16 RNE", 4 * ELEMENTS, () =>
      encodeFromF32(Dtype.BFLOAT16, f32, 0, ELEMENTS, bf16Out, 0),
    ),
  ];
}
