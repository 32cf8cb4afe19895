/**
 * MODEL — the GCE (gradient compression, seed 000 §5.2) codec. The seed shows that GCE compresses
 * and decompresses in flight with a header, not how; we take block-scaled FP8 in the spirit of OCP
 * microscaling (MX): per block of 2^block_log2 values one shared power-of-two scale
 * 2^(floor(log2(amax)) − 7) — 7 being the exponent of FP8_E4's largest finite value 240 — stored as
 * FP32 (src/spec/gce-header.ts fixes the bytes), each value divided by it (exact: a power of two) and
 * rounded to FP8_E4 with the packet's rounding; values that land in [248, 256) after scaling, and
 * infinities, saturate to ±240 (OCP's choice); NaN stays NaN. A block with no finite non-zero
 * value has scale 1. Decompression multiplies each code by its block's scale (exact).
 */

import { bytesArg, intArg, MAX_U32, uintArg } from "../../bits/arg-check.js";
import { FieldError } from "../../bits/errors.js";
import { decodeToF32, encodeFromF32, type OverflowPolicy, type Rounding } from "../../numerics/index.js";
import { Dtype } from "../../spec/dtype.js";
import { GCE_HEADER, GCE_HEADER_BYTES, GCE_HEADER_MAGIC, gcePayloadBytes } from "../../spec/gce-header.js";

/** FP8_E4's largest finite value is 1.875 · 2^7: scale so a block's amax lands in [128, 256). */
const E4M3_EMAX = 7;
/** Smallest exponent whose power of two is a normal FP32. */
const MIN_SCALE_EXP = -126;
/** The header's block_log2 is 4 bits wide (spec/gce-header.ts). */
const MAX_BLOCK_LOG2 = 15;

/**
 * A codec call's arguments: `count` values of an FP32 array of `values` elements, a block size the
 * header can say, a payload of the bytes they take. @throws FieldError otherwise.
 */
function checkCodecArgs(
  context: string,
  values: unknown,
  count: unknown,
  blockLog2: unknown,
  payload: unknown,
): void {
  if (!(values instanceof Float32Array)) throw new FieldError(context, "values", values, "a Float32Array");
  const n = uintArg(context, "count", count, Math.min(values.length, MAX_U32));
  const log2 = uintArg(context, "blockLog2", blockLog2, MAX_BLOCK_LOG2);
  const need = gcePayloadBytes(n, log2);
  intArg(context, "payload.length", bytesArg(context, "payload", payload).length, {
    min: need,
    max: Number.MAX_SAFE_INTEGER,
  });
}

/** The shared scale of values[from, to): a power of two (MODEL above). */
function blockScale(values: Float32Array, from: number, to: number): number {
  let amax = 0;
  for (let i = from; i < to; i++) {
    const a = Math.abs(values[i] as number);
    if (a > amax && a !== Number.POSITIVE_INFINITY) amax = a;
  }
  if (amax === 0) return 1;
  const exp = Math.max(Math.floor(Math.log2(amax)) - E4M3_EMAX, MIN_SCALE_EXP);
  // Math.log2 of a value just below a power of two can round up: correct by one step.
  const scaled = amax / 2 ** exp;
  return 2 ** (scaled >= 256 ? exp + 1 : scaled < 128 && exp > MIN_SCALE_EXP ? exp - 1 : exp);
}

/** One block of scaled values on its way to FP8_E4 (grown to the largest block seen). */
let scaled = new Float32Array(0);

/**
 * Compress `values` into `payload` (gcePayloadBytes bytes: FP32 scales, then FP8_E4 codes).
 * @throws FieldError for a payload too short, a block size the header cannot say.
 */
export function gceCompress(
  values: Float32Array,
  blockLog2: number,
  rounding: Rounding,
  payload: Uint8Array,
): void {
  checkCodecArgs("gceCompress", values, (values as { length?: number } | null)?.length, blockLog2, payload);
  const count = values.length;
  const block = 2 ** blockLog2;
  const blocks = Math.ceil(count / block);
  if (scaled.length < Math.min(block, count)) scaled = new Float32Array(Math.min(block, count));
  const scratch = scaled;
  const scales = new DataView(payload.buffer, payload.byteOffset, blocks * 4);
  for (let b = 0; b < blocks; b++) {
    const from = b * block;
    const to = Math.min(from + block, count);
    const scale = blockScale(values, from, to);
    scales.setFloat32(b * 4, scale, true);
    for (let i = from; i < to; i++) scratch[i - from] = (values[i] as number) / scale;
    encodeFromF32(Dtype.FP8_E4, scratch, 0, to - from, payload, blocks * 4 + from, rounding, "satfinite");
  }
}

/** Expand a payload of `count` values into `out` (FP32). @throws FieldError as {@link gceCompress}. */
export function gceDecompress(
  payload: Uint8Array,
  count: number,
  blockLog2: number,
  out: Float32Array,
): void {
  checkCodecArgs("gceDecompress", out, count, blockLog2, payload);
  const block = 2 ** blockLog2;
  const blocks = Math.ceil(count / block);
  decodeToF32(Dtype.FP8_E4, payload, blocks * 4, count, out, 0);
  const scales = new DataView(payload.buffer, payload.byteOffset, blocks * 4);
  for (let b = 0; b < blocks; b++) {
    const scale = scales.getFloat32(b * 4, true);
    const to = Math.min((b + 1) * block, count);
    for (let i = b * block; i < to; i++) out[i] = (out[i] as number) * scale;
  }
}

/** The expanded FP32 values of {@link gceExpand} (grown to the largest payload seen). */
let expanded = new Float32Array(0);

/**
 * Expand a payload into `out` as the header's dtype: the FP32 values, then encoded with the
 * packet's rounding and overflow policy. The executor's own (its arguments are a checked packet's).
 */
export function gceExpand(
  payload: Uint8Array,
  header: { readonly elements: number; readonly blockLog2: number; readonly dtype: Dtype },
  out: Uint8Array,
  conversion: { readonly rounding: Rounding; readonly overflow: OverflowPolicy },
): void {
  const { elements, blockLog2, dtype } = header;
  if (expanded.length < elements) expanded = new Float32Array(elements);
  gceDecompress(payload, elements, blockLog2, expanded);
  encodeFromF32(dtype, expanded, 0, elements, out, 0, conversion.rounding, conversion.overflow);
}

/** The header bytes of a compressed tensor of `count` values that expands to `dt`. */
export function gceHeader(count: number, dt: Dtype, blockLog2: number): Uint8Array {
  return GCE_HEADER.encode({
    elements: count,
    dtype: dt,
    block_log2: blockLog2,
    payload_bytes: gcePayloadBytes(count, blockLog2),
  });
}

/** Read a header; a string says what is wrong with it. @throws FieldError for bytes not a Uint8Array. */
export function readGceHeader(
  bytes: Uint8Array,
): { elements: number; dtype: number; blockLog2: number; payloadBytes: number } | string {
  bytesArg("readGceHeader", "bytes", bytes);
  if (bytes.length < GCE_HEADER_BYTES) return `header is ${bytes.length} bytes, needs ${GCE_HEADER_BYTES}`;
  const magic = GCE_HEADER.read("magic", bytes) as number;
  if (magic !== GCE_HEADER_MAGIC)
    return `header magic 0x${magic.toString(16)} is not 'GCE1' (0x${GCE_HEADER_MAGIC.toString(16)})`;
  const problems = GCE_HEADER.issues(bytes).map((i) => i.message);
  if (problems.length > 0) return `header: ${problems.join("; ")}`;
  return {
    elements: GCE_HEADER.read("elements", bytes) as number,
    dtype: GCE_HEADER.read("dtype", bytes) as number,
    blockLog2: GCE_HEADER.read("block_log2", bytes) as number,
    payloadBytes: GCE_HEADER.read("payload_bytes", bytes) as number,
  };
}
