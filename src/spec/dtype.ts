/** What a dtype holds: the ALU and the codecs branch on this, not on code ranges. */
export type DtypeKind = "invalid" | "uint" | "int" | "float";

/** Optional facts of a dtype row. */
interface RowExtras {
  /** Other accepted spellings (case-insensitive). */
  readonly aliases?: readonly string[];
  /** Narrow IEEE-like float formats: exponent and mantissa bits (numerics/float-formats.ts). */
  readonly float?: { readonly expBits: number; readonly manBits: number };
  /** libnrt clamps MIN/MAX against a constant of this dtype (GROUND_TRUTH: fp32, int32, uint32). */
  readonly minMaxConstant?: true;
}

/**
 * The dtype table, one row per dtype, in code order: the enum shared by the TPB ISA
 * (NEURON_ISA_TPB_DTYPE), the SDMA meta-control dtype nibbles and nrt_dtype — one numbering, seed 002
 * §5 ("byte-identical to the SDMA dtype"). Every enum, name map, size table and validity check below
 * derives from these rows, so adding a dtype (or fixing a size) is one row here.
 * Columns: [enum key, code, name, sdma size, data size, kind, extras]. sdma size is
 * sdma_data_type_size @0x9be140 (fp32r 0, not 4: seed 000 §1.2 CORRECTION — encd_get_cce_reduce_packet_size
 * asserts on it); data size is data_type_sizes (.3640 @0x9e30e0, .4241 @0x9e7ea0, .4724 @0x9e86e0;
 * int32[16], all three identical), seed 003 §5.
 */
const ROWS = [
  ["INVALID", 0, "invalid", 0, 0, "invalid", {}],
  ["UINT64", 1, "uint64", 8, 8, "uint", {}],
  ["INT8", 2, "int8", 1, 1, "int", {}],
  ["UINT8", 3, "uint8", 1, 1, "uint", {}],
  ["INT16", 4, "int16", 2, 2, "int", {}],
  ["UINT16", 5, "uint16", 2, 2, "uint", {}],
  ["BFLOAT16", 6, "bf16", 2, 2, "float", { aliases: ["bfloat16"], float: { expBits: 8, manBits: 7 } }],
  ["FP16", 7, "fp16", 2, 2, "float", { aliases: ["float16"], float: { expBits: 5, manBits: 10 } }],
  ["INT32", 8, "int32", 4, 4, "int", { minMaxConstant: true }],
  ["UINT32", 9, "uint32", 4, 4, "uint", { minMaxConstant: true }],
  ["FP32", 10, "fp32", 4, 4, "float", { aliases: ["float32"], minMaxConstant: true }],
  ["FP32R", 11, "fp32r", 0, 4, "float", {}],
  ["INT64", 12, "int64", 8, 8, "int", {}],
  ["FP8_E3", 13, "fp8_e3", 1, 1, "float", { aliases: ["e3m4"], float: { expBits: 3, manBits: 4 } }],
  ["FP8_E4", 14, "fp8_e4", 1, 1, "float", { aliases: ["e4m3"], float: { expBits: 4, manBits: 3 } }],
  ["FP8_E5", 15, "fp8_e5", 1, 1, "float", { aliases: ["e5m2"], float: { expBits: 5, manBits: 2 } }],
] as const satisfies readonly (readonly [string, number, string, number, number, DtypeKind, RowExtras])[];

type Row = (typeof ROWS)[number];

/** The dtype codes by enum key (`Dtype.FP32` = 10), from the table. */
export const Dtype = Object.freeze(Object.fromEntries(ROWS.map((r) => [r[0], r[1]]))) as {
  readonly [R in Row as R[0]]: R[1];
};
export type Dtype = (typeof Dtype)[keyof typeof Dtype];

/** One dtype's facts, as the rest of the code reads them. */
export interface DtypeInfo {
  readonly code: Dtype;
  /** Short lowercase name used by the CLI, JSON requests and the layouts' enum names. */
  readonly name: string;
  readonly aliases: readonly string[];
  /** sdma_data_type_size (fp32r = 0). */
  readonly sdmaSize: number;
  /** data_type_sizes: the element size data paths use (fp32r = 4). */
  readonly dataSize: number;
  readonly kind: DtypeKind;
  readonly float?: { readonly expBits: number; readonly manBits: number };
  readonly minMaxConstant?: true;
}

/** The dtype table, indexed by code. */
export const DTYPES: readonly DtypeInfo[] = ROWS.map(
  ([, code, name, sdmaSize, dataSize, kind, extras]): DtypeInfo => ({
    code,
    name,
    sdmaSize,
    dataSize,
    kind,
    ...(extras as RowExtras),
    aliases: (extras as RowExtras).aliases ?? [],
  }),
);
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
