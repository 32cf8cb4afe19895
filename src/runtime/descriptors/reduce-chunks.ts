/**
 * How a reduce run is cut into add_dma_packet_cce calls — the one chunking rule every caller of the
 * CCE path shares (collective legs, SB2SB reduce-copy legs).
 *
 * A reduce packet moves at most min(encd_get_cce_reduce_packet_size(class, elements),
 * aws_hal_get_sdma_max_cce_elements · dsz) bytes (seed 000 §7.1), a multiple of 32. MODEL (tails):
 * the 32-byte rounding would drop a remainder, and the size function gives 0 for fewer than 32
 * bytes, so the last packet of a run carries whatever is left (any whole number of elements; the
 * CCE reduces it like any other), and a leg under one granule sends each run whole.
 */
import { intArg, uintArg } from "../../bits/arg-check.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { awsHalGetSdmaMaxCceElements, encdGetCceReducePacketSize } from "./gates.js";

/** MODEL: reduce legs run in priority class 0 with the runtime's default (uncapped) nrt_gconf. */
export const REDUCE_PRIORITY_CLASS = 0;

/** A piece of a run: `count` units from `start` (units are whatever the run was measured in). */
export interface RunChunk {
  readonly start: number;
  readonly count: number;
}

/**
 * The most bytes one reduce packet of a leg of `elements` moves (seed 000 §7.1), or undefined when
 * the leg is under one 32-byte granule (the size function gives 0: each run goes whole).
 * @throws SdmaAssertError as encd_get_cce_reduce_packet_size (a dtype of SDMA size 0, e.g. fp32r)
 * or aws_hal_get_sdma_max_cce_elements (an arch without a cap).
 * @example reducePacketBytes(CAYMAN, 4096, Dtype.FP32) // 8192 (2048 elements)
 */
export function reducePacketBytes(profile: ArchProfile, elements: number, dtype: Dtype): number | undefined {
  const size = encdGetCceReducePacketSize(
    { priorityClass: REDUCE_PRIORITY_CLASS, elemCount: elements },
    dtype,
  );
  const cap = awsHalGetSdmaMaxCceElements(profile.arch) * dtypeBytes(dtype);
  return size === 0 ? undefined : Math.min(size, cap);
}

/**
 * Cut a run of `length` units into chunks of `max` units, the last carrying the remainder;
 * `max` undefined (a leg under one granule): the run is one chunk.
 * @throws FieldError for a length that is not an integer ≥ 0 or a max not an integer ≥ 1.
 * @example chunkRun(100, 48) // [{0,48}, {48,48}, {96,4}]
 */
export function chunkRun(length: number, max: number | undefined): RunChunk[] {
  checkChunking("chunkRun", length, max);
  const per = max ?? length;
  const out: RunChunk[] = [];
  for (let start = 0; start < length; start += per) out.push({ start, count: Math.min(per, length - start) });
  return out;
}

/** How many chunks {@link chunkRun} gives, without listing them. @throws FieldError as chunkRun. */
export function chunkCount(length: number, max: number | undefined): number {
  checkChunking("chunkCount", length, max);
  return length === 0 ? 0 : Math.ceil(length / (max ?? length));
}

/** A run's length and chunk size. @throws FieldError for either not a count. */
function checkChunking(context: string, length: number, max: number | undefined): void {
  uintArg(context, "length", length, Number.MAX_SAFE_INTEGER);
  if (max !== undefined) intArg(context, "max", max, { min: 1, max: Number.MAX_SAFE_INTEGER });
}
