/**
 * The dtype enum shared by the TPB ISA (NEURON_ISA_TPB_DTYPE), the SDMA meta-control dtype
 * nibbles and nrt_dtype: one numbering, seed 002 §5 ("byte-identical to the SDMA dtype").
 */
export const Dtype = {
  INVALID: 0,
  UINT64: 1,
  INT8: 2,
  UINT8: 3,
  INT16: 4,
  UINT16: 5,
  BFLOAT16: 6,
  FP16: 7,
  INT32: 8,
  UINT32: 9,
  FP32: 10,
  FP32R: 11,
  INT64: 12,
  FP8_E3: 13,
  FP8_E4: 14,
  FP8_E5: 15,
} as const;
export type Dtype = (typeof Dtype)[keyof typeof Dtype];

/** Short lowercase names used by the CLI and JSON requests, indexed by dtype code. */
export const DTYPE_NAMES = [
  "invalid",
  "uint64",
  "int8",
  "uint8",
  "int16",
  "uint16",
  "bf16",
  "fp16",
  "int32",
  "uint32",
  "fp32",
  "fp32r",
  "int64",
  "fp8_e3",
  "fp8_e4",
  "fp8_e5",
] as const;
export type DtypeName = Exclude<(typeof DTYPE_NAMES)[number], "invalid">;

/** Accepted spellings beside {@link DTYPE_NAMES}. */
const DTYPE_ALIASES: Readonly<Record<string, Dtype>> = {
  bfloat16: Dtype.BFLOAT16,
  float16: Dtype.FP16,
  float32: Dtype.FP32,
  e3m4: Dtype.FP8_E3,
  e4m3: Dtype.FP8_E4,
  e5m2: Dtype.FP8_E5,
};

/**
 * sdma_data_type_size @0x9be140 (16 × u64), indexed by SDMA dtype. fp32r is 0, not 4
 * (seed 000 §1.2 CORRECTION) — encd_get_cce_reduce_packet_size asserts on it.
 */
export const SDMA_DATA_TYPE_SIZE: readonly number[] = [0, 8, 1, 1, 2, 2, 2, 2, 4, 4, 4, 0, 8, 1, 1, 1];

/**
 * data_type_sizes (.3640 @0x9e30e0, .4241 @0x9e7ea0, .4724 @0x9e86e0; int32[16], all three
 * identical), seed 003 §5. Unlike sdma_data_type_size, fp32r is 4 here.
 */
export const DATA_TYPE_SIZES: readonly number[] = [0, 8, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 8, 1, 1, 1];

/** The element size in bytes used by data paths (the data_type_sizes table, fp32r = 4). */
export function dtypeBytes(dt: Dtype): number {
  return DATA_TYPE_SIZES[dt] ?? 0;
}

/** True for the floating-point dtypes (bf16, fp16, fp32, fp32r, the three fp8). */
export function isFloatDtype(dt: Dtype): boolean {
  return dt === 6 || dt === 7 || dt === 10 || dt === 11 || dt >= 13;
}

/** The dtype code for a name or alias, or undefined. Case-insensitive. */
export function dtypeFromName(name: string): Dtype | undefined {
  const lower = name.toLowerCase();
  const idx = DTYPE_NAMES.indexOf(lower as (typeof DTYPE_NAMES)[number]);
  if (idx > 0) return idx as Dtype;
  return DTYPE_ALIASES[lower];
}

/** The short name of a dtype code (`bf16`, `fp8_e4`, ...). */
export function dtypeName(dt: number): string {
  return DTYPE_NAMES[dt] ?? `dtype(${dt})`;
}
