/**
 * How an SB2SB leg becomes runtime packet requests — one add_dma_packet / add_dma_packet_cce call
 * each (seed 002 §4.3: __encd_dma_copy → add_dma_packet, the reduce leg → add_dma_packet_cce).
 *
 * A leg's segments are the runs contiguous on both sides of its TENSOR3D patterns (`moveSegments`):
 * a strided or reversed pattern has several, and each becomes its own packet(s), so every
 * descriptor moves one contiguous run (a packet's buf_ptr / buf1_ptr is one address).
 *
 * Chunking: a copy packet moves up to MAX_COPY_BYTES (64 descriptors of 64 KiB) — an SBUF
 * partition is smaller, so one packet per segment. A reduce segment is cut by the runtime's one
 * reduce chunking rule (src/runtime/descriptors/reduce-chunks.ts, seed 000 §7.1), sized for the leg's elements.
 */
import { FieldError } from "../bits/errors.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import { chunkRun, reducePacketBytes } from "../runtime/descriptors/reduce-chunks.js";
import { type HostPacket, MAX_COPY_BYTES } from "../runtime/index.js";
import { type Dtype, dtypeBytes } from "../spec/dtype.js";
import { SdmaCceType } from "../spec/enums.js";
import { CSWTCH_21 } from "../spec/tables.js";
import type { Sb2sbLeg, Sb2sbSegment } from "./sb2sb-lowering.js";

export {
  REDUCE_PRIORITY_CLASS as SB2SB_PRIORITY_CLASS,
  reducePacketBytes,
} from "../runtime/descriptors/reduce-chunks.js";

/** One runtime call: add_dma_packet with a copy request, or add_dma_packet_cce with a CCE request. */
export type Sb2sbPacket = HostPacket;

/** The reduce ops an SB2SB reduce-copy leg can carry: the two-source CCE ops without extra info. */
const REDUCE_OPS: readonly SdmaCceType[] = [SdmaCceType.ADD, SdmaCceType.MAX, SdmaCceType.MIN];

/**
 * The kbin op add_dma_packet_cce takes for an SDMA_CCETYPE: the inverse of CSWTCH.21, which
 * kbin_cce_op_to_sdma_cce_op applies (seed 000 §1.1).
 * @throws FieldError for FMA (needs per-source scales an SB2SB leg does not have), EXT, GCE, or none.
 * @example kbinOpOfReduce(SdmaCceType.MAX) // KbinDmaDescOp.MAX (4)
 */
export function kbinOpOfReduce(op: SdmaCceType): number {
  if (!REDUCE_OPS.includes(op))
    throw new FieldError("sb2sb-leg", "op", op, "ADD 0, MAX 2 or MIN 3 (the two-source reduce ops)");
  return CSWTCH_21.indexOf(op) + 1;
}

/** Split a segment into pieces of at most `max` bytes (the last takes the rest; undefined: whole). */
function split(seg: Sb2sbSegment, max: number | undefined): Sb2sbSegment[] {
  return chunkRun(seg.bytes, max).map((c) => ({
    src: seg.src + BigInt(c.start),
    dst: seg.dst + BigInt(c.start),
    bytes: c.count,
  }));
}

/**
 * The runtime calls of one leg, in order: a copy leg gives one add_dma_packet per segment; a
 * reduce-copy leg one add_dma_packet_cce per packet-size chunk of each segment, reducing
 * [src, dst] into dst (sources = the incoming chunk and the local one, seed 000 §8).
 * @throws FieldError for a reduce op other than ADD / MAX / MIN; SdmaAssertError as reducePacketBytes.
 * @example sb2sbLegPackets(CAYMAN, leg).map((p) => p.kind) // ["copy", "copy", …] one per segment
 */
export function sb2sbLegPackets(profile: ArchProfile, leg: Sb2sbLeg): Sb2sbPacket[] {
  if (leg.kind === "copy") {
    return leg.segments
      .flatMap((s) => split(s, MAX_COPY_BYTES))
      .map((s) => ({ kind: "copy", copy: { src: s.src, dst: s.dst, size: s.bytes } }));
  }
  const op = kbinOpOfReduce(leg.op as SdmaCceType);
  const dt = leg.dtype as Dtype;
  const max = reducePacketBytes(profile, leg.bytes / dtypeBytes(dt), dt);
  return leg.segments
    .flatMap((s) => split(s, max))
    .map((s) => ({
      kind: "cce",
      cce: { op, sources: [s.src, s.dst], dests: [s.dst], size: s.bytes, inDtype: dt, cceInfo: null },
    }));
}
