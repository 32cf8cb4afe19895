/**
 * The GCE (gradient compression, seed 000 §5.2) compression header and payload size — the part of
 * the codec the host runtime (which sizes the rings and builds the decompression header) and the
 * engine (which runs the codec) must agree on. Everything here is MODEL: the seed names the header
 * ("invalid %scompression header addr %lx", "Failed to build decompression header") but not its
 * bytes. The numeric codec (how a block's scale is chosen, rounding) is the engine's MODEL.
 *
 * MODEL codec shape: block-scaled fp8 in the spirit of OCP microscaling — the payload is
 * `ceil(elements / 2^block_log2)` FP32 scales (4 bytes each, little-endian) followed by one
 * FP8_E4 code per element. The header says how many elements and which dtype they expand to.
 */
import { compileLayout, constant, enumField, reserved, uint } from "../bits/index.js";
import { DTYPE_ENUM_NAMES } from "./dtype.js";

/** "GCE1" read as a little-endian u32. */
export const GCE_HEADER_MAGIC = 0x31454347;
/** The header is 16 bytes and must sit 16-byte aligned (MODEL). */
export const GCE_HEADER_BYTES = 16;
export const GCE_HEADER_ALIGN = 16;
/** Codec 1: block-scaled FP8_E4 codes with one FP32 scale per block (MODEL). */
export const GCE_CODEC_BLOCK_FP8 = 1;

const DTYPES = DTYPE_ENUM_NAMES;

export const GCE_HEADER = compileLayout({
  name: "gce-header",
  bytes: GCE_HEADER_BYTES,
  doc: "GCE compression header: element count, expanded dtype, block size, payload bytes (MODEL).",
  source: "sdmakit MODEL (seed 000 §5.2 names the header, not its bytes)",
  fields: [
    constant("magic", 0, 32, { value: GCE_HEADER_MAGIC, fidelity: "model", doc: "'GCE1'" }),
    uint("elements", 32, 32, { fidelity: "model", doc: "values the payload expands to" }),
    enumField("dtype", 64, 4, { names: DTYPES, fidelity: "model", doc: "dtype the values expand to" }),
    uint("block_log2", 68, 4, { fidelity: "model", doc: "log2 of the values per shared scale" }),
    constant("codec", 72, 8, {
      value: GCE_CODEC_BLOCK_FP8,
      fidelity: "model",
      doc: "1: block-scaled FP8_E4",
    }),
    reserved("reserved", 80, 16),
    uint("payload_bytes", 96, 32, { fidelity: "model", doc: "bytes of the payload (scales then codes)" }),
  ],
});

/** Bytes of a compressed payload: one FP32 scale per block, then one FP8 code per element. */
export function gcePayloadBytes(elements: number, blockLog2: number): number {
  const blocks = Math.ceil(elements / 2 ** blockLog2);
  return blocks * 4 + elements;
}
