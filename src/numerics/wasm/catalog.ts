/**
 * The kernel catalogue: which dtypes have kernels, what each kernel family combines, and the export
 * name of every kernel. The generator (tools/wasm/kernels-wat.ts) writes the module from it and the
 * binder (kernels.ts) looks the exports up by it, so the two meet here rather than through names
 * built as strings on both sides. The dtype rows come from spec/dtype.ts.
 */
import { DTYPES, Dtype } from "../../spec/dtype.js";

/** A dtype as the kernels see it: its width and how its codes become FP32 (or FP32 becomes codes). */
export interface KernelDtype {
  /** The name in kernel exports (`add_fp8_e4`, `enc_fp16_sr`). */
  readonly name: string;
  readonly width: 1 | 2 | 4 | 8;
  readonly kind: "f32" | "bf16" | "narrow" | "int";
  /** narrow floats: exponent and mantissa bits (float-formats.ts). */
  readonly expBits?: number;
  readonly manBits?: number;
  /** ints: signed (a 32- or 64-bit one converts unsigned when not). */
  readonly signed?: boolean;
}

/** A dtype row of spec/dtype.ts as the kernels see it. */
function kernelDtype(row: (typeof DTYPES)[number]): KernelDtype {
  const width = row.dataSize as KernelDtype["width"];
  if (row.kind === "int" || row.kind === "uint") {
    return { name: row.name, width, kind: "int", signed: row.kind === "int" };
  }
  if (row.code === Dtype.FP32) return { name: row.name, width, kind: "f32" };
  if (row.code === Dtype.BFLOAT16) return { name: row.name, width, kind: "bf16" };
  const { expBits, manBits } = row.float as NonNullable<typeof row.float>;
  return { name: row.name, width, kind: "narrow", expBits, manBits };
}

/** Every dtype with kernels of its own, in Dtype order (fp32r has none: it runs as fp32). */
export const KERNEL_DTYPES: readonly KernelDtype[] = DTYPES.filter(
  (r) => r.kind !== "invalid" && r.code !== Dtype.FP32R,
).map(kernelDtype);

/** The FP32 row: the accumulator's dtype, and the source of the clamp and encode kernels. */
export const F32_KERNELS = KERNEL_DTYPES.find((k) => k.kind === "f32") as KernelDtype;

/** Every dtype code the kernels take, with the row whose kernels run it. */
export const KERNEL_DTYPE_OF: readonly (readonly [Dtype, KernelDtype])[] = DTYPES.filter(
  (r) => r.kind !== "invalid",
).map((r) => [r.code, r.code === Dtype.FP32R ? F32_KERNELS : kernelDtype(r)]);

/** What a kernel combines a decoded element with: the ALU ops, "load" (none), "scale" (FMA on +0). */
export const ALU_COMBINES = ["load", "scale", "add", "min", "max", "fma"] as const;
export type WasmCombine = (typeof ALU_COMBINES)[number];
/** The ops of the two-source kernels (`<op>2_<dt>`): out = the code of op(first, src). */
export const TWO_SOURCE_OPS = ["add", "min", "max", "fma"] as const;
export type TwoSourceOp = (typeof TWO_SOURCE_OPS)[number];
/**
 * The ops of the three- and four-source kernels (`<op>3_<dt>`, `<op>4_<dt>`, RNE): out = the code
 * of op(op(s0, s1), s2) and op(op(op(s0, s1), s2), s3), FP32 in between (a kangaring all-reduce's
 * reduce in one pass: four sources at its first step, three after). ADD only: the sum is the
 * all-reduce run most, and each op adds kernels a dtype to the module.
 */
export const MANY_SOURCE_OPS = ["add"] as const;
export type ManySourceOp = (typeof MANY_SOURCE_OPS)[number];
/** The source counts of those kernels. */
export const MANY_SOURCE_COUNTS = [3, 4] as const;
export type ManySourceCount = (typeof MANY_SOURCE_COUNTS)[number];
/** The ops of the clamp kernels (`<op>c_fp32`): acc = op(acc, a broadcast constant). */
export const CLAMP_OPS = ["min", "max"] as const;
export type ClampOp = (typeof CLAMP_OPS)[number];
/** How a two-source kernel rounds: RNE, SR stepping the stream, or SR reading drawn words. */
export type TwoSourceRounding = "rne" | "sr" | "srw";

/** The export names of the kernels. */
export const kernelName = {
  /** codes → FP32 bits (no FP32 kernel: it is a copy). */
  dec: (k: KernelDtype) => `dec_${k.name}`,
  /** acc ← combine(acc, decoded src). */
  combine: (c: WasmCombine, k: KernelDtype) => `${c}_${k.name}`,
  /** out ← the code of op(a, src), both of `k`; SR kernels exist for the narrow floats and bf16. */
  two: (op: TwoSourceOp, k: KernelDtype, r: TwoSourceRounding) =>
    `${op}2_${k.name}${r === "rne" ? "" : `_${r}`}`,
  /** out ← the RNE code of op over `n` sources of `k`, in order. */
  many: (op: ManySourceOp, k: KernelDtype, n: ManySourceCount) => `${op}${n}_${k.name}`,
  /** FP32 bits → codes (no FP32 kernel), RNE or SR (no SR kernel for the integers). */
  enc: (k: KernelDtype, sr: boolean) => `enc_${k.name}${sr ? "_sr" : ""}`,
  clamp: (op: ClampOp) => `${op}c_${F32_KERNELS.name}`,
  srWords: "sr_words",
} as const;

/** Whether the two-source kernels of `k` have SR variants (the narrow floats and bf16). */
export function hasTwoSourceSr(k: KernelDtype): boolean {
  return k.kind === "narrow" || k.kind === "bf16";
}
