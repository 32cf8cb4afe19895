/**
 * Lowering an SB2SB move to per-channel legs, the way libnrt's encd module does it (seed 002 §4):
 * encd_dma_copy_sb2sb / encd_dma_reduce_copy_sb2sb check the peer, then __encd_dma_common_sb2sb
 * loops over the active channels and emits one packet per channel — a copy leg (add_dma_packet) or a
 * reduce-copy leg (add_dma_packet_cce). The legs are plain data; posting them on rings is the runtime's.
 */
import { type Einval, einval, FieldError, SdmaAbortError, UsageError } from "../bits/errors.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import { sbufAddress } from "../spec/address-map.js";
import { type Dtype, dtypeBytes } from "../spec/dtype.js";
import { EncdNeigh, LncSizeFmt, type SdmaCceType } from "../spec/enums.js";
import { SBUF_PARTITION_SHIFT } from "../spec/tables.js";
import { addr4FromU32 } from "./addr4.js";
import { type S3d3Word, type Tensor3d, tensorOf } from "./s3d3-word.js";
import { type EventsPlan, eventsPlan } from "./sb2sb-events.js";
import { type EncdNeighRef, resolveNeighbor, type Sb2sbPlace } from "./sb2sb-neighbors.js";
import { isValidSb2sbCollective } from "./sb2sb-validator.js";
import { moveSegments, tensor3dElementOffsets } from "./tensor3d-walk.js";

/** The host string of the multi-node refusal (seed 002 §8, OBSERVED). */
export const SB2SB_MULTI_NODE_MESSAGE = "We do not support a SB2SB for multi-node workloads";

/** Where the move runs: the generation, how many nodes the workload spans, and this core's place. */
export interface Sb2sbTopology {
  readonly arch: ArchProfile;
  readonly nodes: number;
  readonly place: Sb2sbPlace;
}

/** One contiguous piece of a leg, in device addresses. */
export interface Sb2sbSegment {
  readonly src: bigint;
  readonly dst: bigint;
  readonly bytes: number;
}

/**
 * One per-channel packet request. A copy writes src to dst; a reduce-copy writes op(src, dst) to dst
 * (the CCE sources are [src, dst], the destination dst — MODEL, seed 000 §8's recv-reduce shape).
 */
export interface Sb2sbLeg {
  readonly kind: "copy" | "reduce-copy";
  readonly channel: number;
  readonly srcCore: number;
  readonly dstCore: number;
  /** The SBUF partition this channel moves (the same on both sides). */
  readonly partition: number;
  readonly dtype: number;
  /** SDMA_CCETYPE of a reduce-copy leg. */
  readonly op?: SdmaCceType;
  readonly bytes: number;
  readonly segments: readonly Sb2sbSegment[];
}

/** What encd_dma_{copy,reduce_copy}_sb2sb are given. */
export interface Sb2sbRequest {
  readonly neigh: EncdNeighRef;
  readonly src: Tensor3d;
  readonly dst: Tensor3d;
  readonly dtype: number;
  readonly channels: number;
  readonly topology: Sb2sbTopology;
}

/*
 * MODEL: an SBUF immediate partition offset is (partition << 18) | byte offset in the partition
 * (`SBUF_PARTITION_SHIFT`, the ISA word's packing); where that byte sits in the device is the
 * address map's (spec/address-map.ts sbufAddress, the profile's partition stride); channel k moves
 * partition (start partition + k).
 */

/** libnrt encd_dma_copy_sb2sb @0x23ebb0 (seed 002 §4.2): peer check, then the common builder with reduce_mode 0. */
export function encdDmaCopySb2sb(req: Sb2sbRequest): Sb2sbLeg[] | Einval {
  checkPeer("encd_dma_copy_sb2sb", req.neigh);
  return encdDmaCommonSb2sb(req, undefined);
}

/**
 * libnrt encd_dma_reduce_copy_sb2sb @0x23ec20 (seed 002 §4.2): peer check, the per-channel op array
 * filled with `op`, then the common builder with reduce_mode 1.
 */
export function encdDmaReduceCopySb2sb(req: Sb2sbRequest, op: SdmaCceType): Sb2sbLeg[] | Einval {
  checkPeer("encd_dma_reduce_copy_sb2sb", req.neigh);
  return encdDmaCommonSb2sb(
    req,
    Array.from({ length: req.channels }, () => op),
  );
}

/** The `cmp BYTE PTR [neigh+0x4], 0; jne <abort>` of both wrappers. */
function checkPeer(func: string, neigh: EncdNeighRef): void {
  if (neigh.invalidByte !== 0)
    throw new SdmaAbortError(func, `neigh[+0x4] == 0 (peer ${neigh.neigh} is not valid)`);
}

/**
 * libnrt __encd_dma_common_sb2sb @0x23e1b0 (seed 002 §4.3): one leg per active channel; `ops`
 * (one SDMA_CCETYPE per channel) selects reduce-copy legs, undefined copy legs.
 * @throws FieldError when a pattern leaves its SBUF partition or the counts differ.
 */
function encdDmaCommonSb2sb(req: Sb2sbRequest, ops: readonly SdmaCceType[] | undefined): Sb2sbLeg[] | Einval {
  const { arch, nodes, place } = req.topology;
  // MODEL: where the multi-node refusal sits and how it fails (logged, an error return) are not traced.
  if (nodes > 1) return einval(SB2SB_MULTI_NODE_MESSAGE);
  const elemBytes = dtypeBytes(req.dtype as Dtype);
  if (elemBytes === 0) throw new FieldError("sb2sb", "dtype", req.dtype, "a dtype with a size");
  const src = partitionStart(req.src, "src");
  const dst = partitionStart(req.dst, "dst");
  const srcElems = tensor3dElementOffsets(req.src);
  const dstElems = tensor3dElementOffsets(req.dst);
  if (srcElems.length !== dstElems.length) {
    throw new FieldError(
      "sb2sb",
      "dst.num_elem",
      dstElems.length,
      `${srcElems.length} elements, as many as the source moves`,
    );
  }
  checkExtent(arch, "src", src.byte, srcElems, elemBytes);
  checkExtent(arch, "dst", dst.byte, dstElems, elemBytes);
  for (const [side, start] of [
    ["src", src.partition],
    ["dst", dst.partition],
  ] as const) {
    if (start >= arch.sbufPartitions)
      throw new FieldError("sb2sb", `${side}.start_addr`, start, {
        allowed: `0..${arch.sbufPartitions - 1}`,
        detail: `start partition ${start} is past the last SBUF partition ${arch.sbufPartitions - 1}`,
      });
  }
  const lastPartition = Math.max(src.partition, dst.partition) + req.channels - 1;
  if (lastPartition >= arch.sbufPartitions) {
    throw new FieldError(
      "sb2sb",
      "channels",
      req.channels,
      `at most ${arch.sbufPartitions - Math.max(src.partition, dst.partition)} from these start partitions`,
    );
  }
  const pieces = moveSegments(srcElems, dstElems, elemBytes);
  const legs: Sb2sbLeg[] = [];
  for (let ch = 0; ch < req.channels; ch++) {
    const srcBase = sbufAddress(arch, place.self, src.partition + ch, src.byte);
    const dstBase = sbufAddress(arch, req.neigh.core, dst.partition + ch, dst.byte);
    const op = ops?.[ch];
    legs.push({
      kind: op === undefined ? "copy" : "reduce-copy",
      channel: ch,
      srcCore: place.self,
      dstCore: req.neigh.core,
      partition: src.partition + ch,
      dtype: req.dtype,
      ...(op !== undefined && { op }),
      bytes: srcElems.length * elemBytes,
      segments: pieces.map((p) => ({
        src: srcBase + BigInt(p.srcOffset),
        dst: dstBase + BigInt(p.dstOffset),
        bytes: p.bytes,
      })),
    });
  }
  return legs;
}

function partitionStart(t: Tensor3d, side: string): { partition: number; byte: number } {
  const a = addr4FromU32(t["start_addr.addr_immediate"]);
  if (a.kind !== "imm")
    throw new UsageError(
      `${side} start address is register-sourced (${a.kind}); sdmakit lowers immediate addresses only`,
    );
  const mask = (1 << SBUF_PARTITION_SHIFT) - 1;
  return { partition: a.partitionOffset >>> SBUF_PARTITION_SHIFT, byte: a.partitionOffset & mask };
}

function checkExtent(
  arch: ArchProfile,
  side: string,
  start: number,
  elems: readonly number[],
  elemBytes: number,
): void {
  const lo = start + Math.min(...elems) * elemBytes;
  const hi = start + (Math.max(...elems) + 1) * elemBytes;
  if (lo < 0 || hi > arch.sbufPartitionBytes) {
    throw new FieldError(
      "sb2sb",
      `${side}.pattern`,
      `bytes ${lo}..${hi - 1}`,
      `0..${arch.sbufPartitionBytes - 1} (one ${arch.name} SBUF partition)`,
    );
  }
}

/** A 0xBF word lowered: its semaphore wait / update and its legs. */
export interface S3d3Lowering {
  readonly events: EventsPlan;
  readonly legs: readonly Sb2sbLeg[];
}

/**
 * What the POOL engine's decode_sb2sb_collective does with a valid 0xBF word (seed 002 §4.6): the
 * legs the host encoder builds for the same move. The peer comes from lnc_size_fmt: LNC1 =
 * LOCAL (self-test), LNC2 = PEER_LOCAL (the pair partner). The word has no op (§8): it lowers to
 * copy legs (encd_dma_copy_sb2sb), unless the runtime drives the leg in reduce-copy mode with
 * `reduceOp` (encd_dma_reduce_copy_sb2sb — "the runtime chooses the COPY vs CCE-reduce descriptor").
 * @throws UsageError listing the reason codes when the word is invalid on this arch.
 */
export function lowerS3d3Word(
  word: S3d3Word,
  topology: Sb2sbTopology,
  reduceOp?: SdmaCceType,
): S3d3Lowering | Einval {
  const verdict = isValidSb2sbCollective(word, { arch: topology.arch });
  if (!verdict.valid)
    throw new UsageError(`the S3D3 word is invalid: ${verdict.reasons.map((r) => r.code).join(", ")}`);
  const lnc2 = word.lnc_size_fmt === LncSizeFmt.LNC2;
  const neigh = resolveNeighbor(lnc2 ? EncdNeigh.PEER_LOCAL : EncdNeigh.LOCAL, {
    ...topology.place,
    lnc: lnc2 ? 2 : 1,
  });
  const req: Sb2sbRequest = {
    neigh,
    src: tensorOf(word, "src_mem_pattern"),
    dst: tensorOf(word, "dst_mem_pattern"),
    dtype: word.in_dtype,
    channels: word.num_active_channels,
    topology,
  };
  const legs = reduceOp === undefined ? encdDmaCopySb2sb(req) : encdDmaReduceCopySb2sb(req, reduceOp);
  if (!Array.isArray(legs)) return legs;
  return { events: eventsPlan(word), legs };
}
