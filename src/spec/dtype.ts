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

/** What a dtype holds: the ALU and the codecs branch on this, not on code ranges. */
export type DtypeKind = "invalid" | "uint" | "int" | "float";

/**
 * One row per dtype: every name map, size table and validity check below derives from these rows,
 * so adding a dtype (or fixing a size) is a change to this table only.
 */
export interface DtypeInfo {
  readonly code: Dtype;
  /** Short lowercase name used by the CLI, JSON requests and the layouts' enum names. */
  readonly name: string;
  /** Other accepted spellings (case-insensitive). */
  readonly aliases: readonly string[];
  /**
   * sdma_data_type_size @0x9be140 (16 × u64). fp32r is 0, not 4 (seed 000 §1.2 CORRECTION) —
   * encd_get_cce_reduce_packet_size asserts on it.
   */
  readonly sdmaSize: number;
  /**
   * data_type_sizes (.3640 @0x9e30e0, .4241 @0x9e7ea0, .4724 @0x9e86e0; int32[16], all three
   * identical), seed 003 §5: the element size data paths use (fp32r = 4).
   */
  readonly dataSize: number;
  readonly kind: DtypeKind;
  /** Narrow IEEE-like float formats: exponent and mantissa bits (numerics/float-formats.ts). */
  readonly float?: { readonly expBits: number; readonly manBits: number };
  /** libnrt clamps MIN/MAX against a constant of this dtype (GROUND_TRUTH: fp32, int32, uint32). */
  readonly minMaxConstant?: true;
}

type RowOpts = Partial<Pick<DtypeInfo, "aliases" | "float" | "minMaxConstant">>;
const row = (
  code: Dtype,
  name: string,
  sdmaSize: number,
  dataSize: number,
  kind: DtypeKind,
  opts: RowOpts = {},
): DtypeInfo => ({ code, name, aliases: [], sdmaSize, dataSize, kind, ...opts });

/** The dtype table, indexed by code. */
export const DTYPES: readonly DtypeInfo[] = [
  row(Dtype.INVALID, "invalid", 0, 0, "invalid"),
  row(Dtype.UINT64, "uint64", 8, 8, "uint"),
  row(Dtype.INT8, "int8", 1, 1, "int"),
  row(Dtype.UINT8, "uint8", 1, 1, "uint"),
  row(Dtype.INT16, "int16", 2, 2, "int"),
  row(Dtype.UINT16, "uint16", 2, 2, "uint"),
  row(Dtype.BFLOAT16, "bf16", 2, 2, "float", { aliases: ["bfloat16"], float: { expBits: 8, manBits: 7 } }),
  row(Dtype.FP16, "fp16", 2, 2, "float", { aliases: ["float16"], float: { expBits: 5, manBits: 10 } }),
  row(Dtype.INT32, "int32", 4, 4, "int", { minMaxConstant: true }),
  row(Dtype.UINT32, "uint32", 4, 4, "uint", { minMaxConstant: true }),
  row(Dtype.FP32, "fp32", 4, 4, "float", { aliases: ["float32"], minMaxConstant: true }),
  row(Dtype.FP32R, "fp32r", 0, 4, "float"),
  row(Dtype.INT64, "int64", 8, 8, "int"),
  row(Dtype.FP8_E3, "fp8_e3", 1, 1, "float", { aliases: ["e3m4"], float: { expBits: 3, manBits: 4 } }),
  row(Dtype.FP8_E4, "fp8_e4", 1, 1, "float", { aliases: ["e4m3"], float: { expBits: 4, manBits: 3 } }),
  row(Dtype.FP8_E5, "fp8_e5", 1, 1, "float", { aliases: ["e5m2"], float: { expBits: 5, manBits: 2 } }),
];
for (const [i, r] of DTYPES.entries()) {
  if (r.code !== i) throw new Error(`spec/dtype: DTYPES row ${i} holds code ${r.code}`);
}

/** Short lowercase names, indexed by dtype code. */
export const DTYPE_NAMES: readonly string[] = DTYPES.map((r) => r.name);
/** code → name, the `names` of every layout's dtype enum field. */
export const DTYPE_ENUM_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  DTYPES.map((r) => [r.code, r.name]),
);
/** sdma_data_type_size @0x9be140, indexed by SDMA dtype (see {@link DtypeInfo.sdmaSize}). */
export const SDMA_DATA_TYPE_SIZE: readonly number[] = DTYPES.map((r) => r.sdmaSize);
/** data_type_sizes, indexed by dtype (see {@link DtypeInfo.dataSize}). */
export const DATA_TYPE_SIZES: readonly number[] = DTYPES.map((r) => r.dataSize);
/** The dtypes a MIN/MAX constant may have. */
export const MIN_MAX_CONSTANT_DTYPES: readonly Dtype[] = DTYPES.filter((r) => r.minMaxConstant).map(
  (r) => r.code,
);
/** Names and aliases → code; a Map, so `constructor` or `__proto__` is no dtype. */
const BY_NAME: ReadonlyMap<string, Dtype> = new Map(
  DTYPES.filter((r) => r.kind !== "invalid").flatMap((r) => [r.name, ...r.aliases].map((n) => [n, r.code])),
);
/** Every accepted spelling beyond the short names, for usage texts. */
export const DTYPE_ALIASES: readonly string[] = DTYPES.flatMap((r) => r.aliases);

/** True for a dtype code a data path accepts (1..15: not INVALID, not out of range). */
export function isDtype(dt: unknown): dt is Dtype {
  return (
    typeof dt === "number" &&
    Number.isInteger(dt) &&
    DTYPES[dt] !== undefined &&
    DTYPES[dt].kind !== "invalid"
  );
}

/** The row of a dtype code, or undefined. */
export function dtypeInfo(dt: number): DtypeInfo | undefined {
  return Number.isInteger(dt) ? DTYPES[dt] : undefined;
}

/** The element size in bytes used by data paths (the data_type_sizes table, fp32r = 4). */
export function dtypeBytes(dt: Dtype): number {
  return DTYPES[dt]?.dataSize ?? 0;
}

/** True for the floating-point dtypes (bf16, fp16, fp32, fp32r, the three fp8). */
export function isFloatDtype(dt: Dtype): boolean {
  return DTYPES[dt]?.kind === "float";
}

/** The dtype code for a name or alias, or undefined. Case-insensitive; never an Object.prototype key. */
export function dtypeFromName(name: string): Dtype | undefined {
  return BY_NAME.get(name.toLowerCase());
}

/** The short name of a dtype code (`bf16`, `fp8_e4`, ...). */
export function dtypeName(dt: number): string {
  return dtypeInfo(dt)?.name ?? `dtype(${dt})`;
}
