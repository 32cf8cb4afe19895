/**
 * The edge values of each dtype, as codes: ±0, the subnormal and normal boundaries, the largest
 * finite, ±inf, quiet and signalling NaNs with payloads for the floats; 0, ±1, the extremes and the
 * first integers FP32 cannot hold for the integers; and FP32 values on the rounding and overflow
 * boundaries of every narrow format.
 */
import { narrowFloatFormat } from "../numerics/float-formats.js";
import { DTYPES, Dtype, dtypeBytes } from "../spec/dtype.js";
import { code } from "./codes.js";

/** FP32 bits on the boundaries of the narrow formats and the integer ranges. */
const FP32_EDGES = [
  0x00000000, 0x80000000, 0x00000001, 0x007fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff,
  0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc00001,
  // bf16: a tie to even (1 + 2^-8), a tie to odd, and just above the overflow threshold
  0x3f808000, 0x3f818000, 0x7f7f8000,
  // fp16: max 65504, the overflow threshold 65520, the smallest subnormal 2^-24 and half of it
  0x477fe000, 0x477ff000, 0x33800000, 0x33000000,
  // e4m3 max 240 and inf threshold 248; e5m2 57344 and 61440; e3m4 15.5 and 15.75
  0x43700000, 0x43780000, 0x47600000, 0x47700000, 0x41780000, 0x417c0000,
  // ties to even between integers and the integer ranges' ends
  0x3f000000, 0x3fc00000, 0x40200000, 0xbfc00000, 0x4f000000, 0xcf000000, 0x4f800000, 0x5f000000, 0x5f800000,
];

function floatEdges(dt: Dtype): number[] {
  const f = narrowFloatFormat(dt);
  if (f === undefined) return FP32_EDGES;
  const one = f.bias << f.manBits;
  const edges = [
    0,
    1,
    (1 << f.manBits) - 1,
    1 << f.manBits,
    one,
    one + 1,
    f.maxCode,
    f.infCode,
    f.nanCode,
    f.infCode | 1,
  ];
  return [...edges, ...edges.map((c) => c | f.signBit)];
}

function intEdges(dt: Dtype, signed: boolean): bigint[] {
  const bits = BigInt(dtypeBytes(dt) * 8);
  const max = signed ? 2n ** (bits - 1n) - 1n : 2n ** bits - 1n;
  const min = signed ? -(2n ** (bits - 1n)) : 0n;
  const wide = [2n ** 24n + 1n, 2n ** 31n, 2n ** 53n + 1n, 2n ** 60n + 2n ** 36n + 1n].filter(
    (v) => v <= max,
  );
  return [
    0n,
    1n,
    max,
    max - 1n,
    min,
    ...(signed ? [-1n, min + 1n] : []),
    ...wide,
    ...wide.map((v) => -v).filter((v) => v >= min),
  ];
}

/** The edge codes of a dtype (INVALID has none). */
export function edgeCodes(dt: Dtype): string[] {
  const row = DTYPES[dt];
  if (row === undefined || row.kind === "invalid") return [];
  if (row.kind === "float") return floatEdges(dt).map((v) => code(dt, v));
  return intEdges(dt, row.kind === "int").map((v) => code(dt, v));
}

/** The dtypes a cast or a CCE op reads and writes: codes 1..15. */
export const ELEMENT_DTYPES: readonly Dtype[] = DTYPES.filter((r) => r.kind !== "invalid").map(
  (r) => r.code as Dtype,
);

export { Dtype };
