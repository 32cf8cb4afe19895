import { FieldError } from "../bits/errors.js";
import { DTYPES, Dtype, dtypeBytes, isDtype } from "../spec/dtype.js";
import {
  commitWords,
  readWords,
  type WordArray,
  type WordArrayConstructor,
  wordsToWrite,
} from "./byte-views.js";
import {
  decodeBf16,
  decodeByTable,
  E3M4_DECODE,
  E4M3_DECODE,
  E5M2_DECODE,
  FP16_DECODE,
} from "./float-decode.js";
import { encodeNarrowFloat, overflowCodes } from "./float-encode.js";
import { type NarrowFloatFormat, narrowFloatFormat } from "./float-formats.js";
import { decodeInt64, decodeSmallInt } from "./int-decode.js";
import { encodeInt64, encodeSmallInt } from "./int-encode.js";
import { type OverflowPolicy, RNE, type Rounding } from "./rounding.js";
import { SrStream } from "./sr-stream.js";
import { wasmDecode, wasmEncode } from "./wasm/kernels.js";

/** The typed array of each signed / unsigned integer width in bytes. */
const INT_ARRAYS: Readonly<Record<string, WordArrayConstructor<WordArray>>> = {
  int1: Int8Array,
  uint1: Uint8Array,
  int2: Int16Array,
  uint2: Uint16Array,
  int4: Int32Array,
  uint4: Uint32Array,
};

/** The integer dtypes of up to 32 bits (from the dtype table): the typed array that holds them and their range. */
const SMALL_INTS: Partial<
  Record<Dtype, { Ctor: WordArrayConstructor<WordArray>; min: number; max: number }>
> = Object.fromEntries(
  DTYPES.filter((r) => (r.kind === "int" || r.kind === "uint") && r.dataSize <= 4).map((r) => {
    const bits = 8 * r.dataSize;
    const signed = r.kind === "int";
    const Ctor = INT_ARRAYS[`${r.kind}${r.dataSize}`] as WordArrayConstructor<WordArray>;
    return [r.code, { Ctor, min: signed ? -(2 ** (bits - 1)) : 0, max: 2 ** (bits - (signed ? 1 : 0)) - 1 }];
  }),
);

const FP8_DECODE: Partial<Record<Dtype, Uint32Array>> = {
  [Dtype.FP8_E3]: E3M4_DECODE,
  [Dtype.FP8_E4]: E4M3_DECODE,
  [Dtype.FP8_E5]: E5M2_DECODE,
};

function checkArgs(
  fn: string,
  dt: number,
  count: number,
  bytesArg: string,
  byteOffset: number,
  byteLength: number,
  f32Arg: string,
  f32Offset: number,
  f32Length: number,
): asserts dt is Dtype {
  if (!isDtype(dt)) {
    throw new FieldError(fn, "dt", dt, `${Dtype.UINT64}..${Dtype.FP8_E5}`);
  }
  if (!Number.isInteger(count) || count < 0) throw new FieldError(fn, "count", count, "an integer ≥ 0");
  checkSpan(fn, bytesArg, byteOffset, count * dtypeBytes(dt as Dtype), byteLength);
  checkSpan(fn, f32Arg, f32Offset, count, f32Length);
}

function checkSpan(fn: string, arg: string, offset: number, needed: number, length: number): void {
  if (!Number.isInteger(offset) || offset < 0 || offset + needed > length) {
    throw new FieldError(fn, arg, offset, {
      allowed: `0..${length - needed}`,
      detail: `${offset} + ${needed} elements exceeds length ${length}`,
    });
  }
}

function f32Bits(a: Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

/**
 * Decode `count` little-endian elements of dtype `dt` from `bytes[byteOffset…]` into FP32 at
 * `out[outOffset…]`. Floats widen exactly (NaN payloads and signalling NaNs kept bit for bit);
 * integers of up to 24 bits are exact, wider integers round once, to nearest even.
 */
export function decodeToF32(
  dt: Dtype,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
  out: Float32Array,
  outOffset = 0,
): void {
  checkArgs(
    "decodeToF32",
    dt,
    count,
    "byteOffset",
    byteOffset,
    bytes.length,
    "outOffset",
    outOffset,
    out.length,
  );
  // The wasm SIMD twin of every branch below but FP32 (a copy).
  if (wasmDecode(dt, bytes, byteOffset, count, out, outOffset)) return;
  const smallInt = SMALL_INTS[dt];
  const fp8 = FP8_DECODE[dt];
  if (smallInt !== undefined) {
    decodeSmallInt(readWords(smallInt.Ctor, bytes, byteOffset, count), out, outOffset, count);
  } else if (fp8 !== undefined) {
    decodeByTable(fp8, bytes.subarray(byteOffset, byteOffset + count), f32Bits(out), outOffset, count);
  } else if (dt === Dtype.FP32 || dt === Dtype.FP32R) {
    f32Bits(out).set(readWords(Uint32Array, bytes, byteOffset, count), outOffset);
  } else if (dt === Dtype.BFLOAT16) {
    decodeBf16(readWords(Uint16Array, bytes, byteOffset, count), f32Bits(out), outOffset, count);
  } else if (dt === Dtype.FP16) {
    decodeByTable(
      FP16_DECODE,
      readWords(Uint16Array, bytes, byteOffset, count),
      f32Bits(out),
      outOffset,
      count,
    );
  } else {
    decodeInt64(
      readWords(Uint32Array, bytes, byteOffset, 2 * count),
      dt === Dtype.INT64,
      out,
      outOffset,
      count,
    );
  }
}

/**
 * Encode `count` FP32 values from `src[srcOffset…]` as dtype `dt`, little-endian, into
 * `out[byteOffset…]`. FP32 and FP32R copy bits (a signalling NaN survives). Narrow floats round
 * by `rounding` and overflow by `overflow`; integers follow the MODEL of int-encode.ts
 * (RNE, saturate, NaN → 0) whatever `rounding` says.
 */
export function encodeFromF32(
  dt: Dtype,
  src: Float32Array,
  srcOffset: number,
  count: number,
  out: Uint8Array,
  byteOffset: number,
  rounding: Rounding = RNE,
  overflow: OverflowPolicy = "ieee",
): void {
  checkArgs(
    "encodeFromF32",
    dt,
    count,
    "byteOffset",
    byteOffset,
    out.length,
    "srcOffset",
    srcOffset,
    src.length,
  );
  const fmt = narrowFloatFormat(dt);
  if (wasmEncodeFrom(dt, fmt, src, srcOffset, count, out, byteOffset, rounding, overflow)) return;
  const smallInt = SMALL_INTS[dt];
  let words: ArrayBufferView;
  if (smallInt !== undefined) {
    const ints = wordsToWrite(smallInt.Ctor, out, byteOffset, count);
    encodeSmallInt(src, srcOffset, count, ints, 0, smallInt.min, smallInt.max);
    words = ints;
  } else if (fmt !== undefined) {
    const codes: Uint8Array | Uint16Array =
      fmt.widthBits === 8
        ? out.subarray(byteOffset, byteOffset + count)
        : wordsToWrite(Uint16Array, out, byteOffset, count);
    encodeNarrowFloat(fmt, f32Bits(src), srcOffset, count, codes, 0, rounding, overflow);
    words = codes;
  } else if (dt === Dtype.FP32 || dt === Dtype.FP32R) {
    const bits = wordsToWrite(Uint32Array, out, byteOffset, count);
    bits.set(f32Bits(src).subarray(srcOffset, srcOffset + count));
    words = bits;
  } else {
    const pairs = wordsToWrite(Uint32Array, out, byteOffset, 2 * count);
    encodeInt64(src, srcOffset, count, pairs, dt === Dtype.INT64);
    words = pairs;
  }
  commitWords(words, out, byteOffset);
}

/**
 * The wasm SIMD twin of encodeFromF32 for every dtype but FP32 (a copy): the same
 * codes, and an SR stream left where the JS encoder leaves it. SR runs in the kernel only for an
 * {@link SrStream} (other random sources are drawn in JS); integers ignore `rounding`.
 */
function wasmEncodeFrom(
  dt: Dtype,
  fmt: NarrowFloatFormat | undefined,
  src: Float32Array,
  srcOffset: number,
  count: number,
  out: Uint8Array,
  byteOffset: number,
  rounding: Rounding,
  overflow: OverflowPolicy,
): boolean {
  const sr = fmt !== undefined && rounding.mode === "sr" ? rounding.rng : undefined;
  if (sr !== undefined && !(sr instanceof SrStream)) return false;
  const codes = fmt === undefined ? undefined : overflowCodes(fmt, overflow);
  return wasmEncode(
    dt,
    f32Bits(src),
    srcOffset,
    count,
    out,
    byteOffset,
    sr,
    codes?.finite ?? 0,
    codes?.inf ?? 0,
  );
}
