/**
 * SB2SB legs inside a collective (seed 002 §4, §8): the exchanges between the two cores of an LNC2
 * pair, built as the S3D3 leg the runtime drives in copy or reduce-copy mode.
 *
 * MODEL (when): only on request (`sb2sb`), on a generation with SB2SB (`profile.hasSb2sb`), in a
 * one-node run ("We do not support a SB2SB for multi-node workloads"), at LNC 1 (ranks are then the
 * pair's two physical cores; at LNC 2 the pair is one rank and its exchange is not a leg), for
 * - a copy whose source and destination ranks are LNC2 partners → `sb2sb-copy`, issued by the
 *   source's core (an SB2SB pushes to the peer);
 * - a two-source reduce whose sources are the destination rank's and its partner's, op sum / max /
 *   min (avg needs per-source FMA scales the leg cannot carry) → `sb2sb-reduce`, issued by the
 *   partner, sources in the engine's order [incoming, local].
 * MODEL (staging): collective buffers are HBM tensors (as nccom-test's are); SB2SB moves SBUF to
 * peer SBUF only. So a pair exchange is staged on the issuing queue, in order: HBM → SBUF copies of
 * what the leg reads, the per-channel packets `src/isa` builds for the SB2SB word
 * (encd_dma_{copy,reduce_copy}_sb2sb → sb2sbLegPackets), SBUF → HBM copies of the result. That is
 * two engine passes more than the plain leg: the cost model prices them, and SB2SB is not the
 * default — it exists so the SB2SB path can run, and be checked, inside a real collective.
 * A word moves up to {@link SB2SB_WORD_CHANNELS} channels × {@link SB2SB_CHANNEL_ELEMS} elements
 * (size_check_src: ≤ 256 source elements); each issuing queue stages in its own SBUF slot.
 */
import { DeviceFault } from "../../bits/errors.js";
import type { ProfileCostModel } from "../../engine/index.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import {
  encdDmaCopySb2sb,
  encdDmaReduceCopySb2sb,
  resolveNeighbor,
  type Sb2sbPacket,
  type Sb2sbRequest,
  sb2sbLegPackets,
  type Tensor3d,
} from "../../isa/index.js";
import { chunkRun, type RunChunk, reducePacketBytes } from "../../runtime/descriptors/reduce-chunks.js";
import { sbufAddress } from "../../spec/address-map.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { EncdNeigh, SdmaCceType } from "../../spec/enums.js";
import { SBUF_PARTITION_SHIFT } from "../../spec/tables.js";
import { lnc2Partner } from "../topology/topology.js";
import type { BufRef, Leg, ReduceOp } from "./plan.js";
import type { LegSpec } from "./plan-builder.js";
import type { PlanRequest } from "./plan-request.js";

/** Elements one channel of a word moves (size_check_src: t3d_element_count ≤ 256, seed 002 §3.4). */
export const SB2SB_CHANNEL_ELEMS = 256;
/** MODEL: active channels per word (SBUF partitions of a staging slot). */
export const SB2SB_WORD_CHANNELS = 8;
/** Bytes per partition of a staging slot: 256 elements of the widest (8-byte) dtype. */
const SLOT_BYTES = SB2SB_CHANNEL_ELEMS * 8;

/** True when a request may build SB2SB legs at all. */
export function sb2sbAllowed(req: PlanRequest): boolean {
  return (
    req.sb2sb === true && req.topology.profile.hasSb2sb && req.topology.nodes === 1 && req.topology.lnc === 1
  );
}

/** The SB2SB form of a leg spec where the pair allows, else the spec unchanged. */
export function sb2sbRewrite(req: PlanRequest, spec: LegSpec): LegSpec {
  const t = req.topology;
  const [a, b] = spec.srcs;
  const dst = spec.dsts[0];
  if (dst === undefined || spec.dsts.length !== 1 || a === undefined) return spec;
  if (spec.kind === "copy" && lnc2Partner(t, a.ref.rank) === dst.rank)
    return { ...spec, kind: "sb2sb-copy", rank: a.ref.rank };
  if (spec.kind !== "reduce-copy" || b === undefined || spec.srcs.length !== 2 || req.op === "avg")
    return spec;
  const partner = lnc2Partner(t, dst.rank);
  if (partner === undefined) return spec;
  const local = [a, b].find((s) => s.ref.rank === dst.rank);
  const incoming = [a, b].find((s) => s.ref.rank === partner);
  if (local === undefined || incoming === undefined) return spec;
  return { ...spec, kind: "sb2sb-reduce", rank: partner, srcs: [incoming, local] };
}

/** The words of a leg: element chunks of `channels` × `elems` (the tail: one channel of the rest). */
function words(count: number): { start: number; channels: number; elems: number }[] {
  const out: { start: number; channels: number; elems: number }[] = [];
  for (let start = 0; start < count; ) {
    const rest = count - start;
    const channels =
      rest >= SB2SB_CHANNEL_ELEMS ? Math.min(SB2SB_WORD_CHANNELS, Math.floor(rest / SB2SB_CHANNEL_ELEMS)) : 1;
    const elems = Math.min(rest, SB2SB_CHANNEL_ELEMS);
    out.push({ start, channels, elems });
    start += channels * elems;
  }
  return out;
}

/**
 * The packets of an SB2SB leg as element ranges (relative to the leg), in posting order: one per
 * channel for a copy; for a reduce, each channel cut by the runtime's reduce chunking for its
 * elements — what sb2sbLegPackets gives, so the reference restarts SR where the engine does.
 */
export function sb2sbElementPackets(
  profile: ArchProfile,
  leg: Pick<Leg, "kind" | "count">,
  dt: Dtype,
): RunChunk[] {
  const out: RunChunk[] = [];
  for (const w of words(leg.count)) {
    for (let ch = 0; ch < w.channels; ch++) {
      const base = w.start + ch * w.elems;
      if (leg.kind === "sb2sb-copy") out.push({ start: base, count: w.elems });
      else {
        const bytes = reducePacketBytes(profile, w.elems, dt);
        for (const c of chunkRun(w.elems, bytes === undefined ? undefined : bytes / dtypeBytes(dt)))
          out.push({ start: base + c.start, count: c.count });
      }
    }
  }
  return out;
}

const SDMA_OP = { sum: SdmaCceType.ADD, max: SdmaCceType.MAX, min: SdmaCceType.MIN } as const;

/** Where a leg's queue stages (partition, byte) on one side: its own slot, 8 partitions wide. */
function slot(
  profile: ArchProfile,
  leg: Pick<Leg, "rank" | "queue">,
  side: 0 | 1,
): { partition: number; byte: number } {
  const deviceQueue = Math.floor(leg.rank / profile.neuronCores);
  const s = (deviceQueue * profile.dmaEnginesPerCore + leg.queue) * 2 + side;
  const perColumn = profile.sbufPartitions / SB2SB_WORD_CHANNELS;
  return { partition: (s % perColumn) * SB2SB_WORD_CHANNELS, byte: Math.floor(s / perColumn) * SLOT_BYTES };
}

function pattern(at: { partition: number; byte: number }, elems: number): Tensor3d {
  return {
    "start_addr.addr_immediate": (at.partition << SBUF_PARTITION_SHIFT) | at.byte,
    "step_elem.0": 1,
    "step_elem.1": 0,
    "step_elem.2": 0,
    "num_elem.0": elems,
    "num_elem.1": 1,
    "num_elem.2": 1,
  };
}

/**
 * The runtime calls of an SB2SB leg, in order, all on the leg's queue: stage in, the SB2SB word's
 * per-channel packets (src/isa lowering), stage out.
 * @throws DeviceFault when the lowering refuses the word.
 */
export function sb2sbLegCalls(
  profile: ArchProfile,
  leg: Pick<Leg, "id" | "kind" | "rank" | "queue" | "srcs" | "dsts" | "count">,
  dt: Dtype,
  op: ReduceOp,
  addr: (ref: BufRef, plusElems: number) => bigint,
): Sb2sbPacket[] {
  const eb = dtypeBytes(dt);
  const self = leg.rank % profile.neuronCores;
  const place = { self, ringSize: profile.neuronCores, lnc: 2 as const };
  const neigh = resolveNeighbor(EncdNeigh.PEER_LOCAL, place);
  const mine = slot(profile, leg, 0);
  const peer = slot(profile, leg, 1);
  const sb = (core: number, at: { partition: number; byte: number }, ch: number) =>
    sbufAddress(profile, core, at.partition + ch, at.byte);
  const out: Sb2sbPacket[] = [];
  const copy = (src: bigint, dst: bigint, size: number) =>
    out.push({ kind: "copy", copy: { src, dst, size } });
  const [incoming, local] = leg.srcs;
  const dst = leg.dsts[0] as BufRef;
  for (const w of words(leg.count)) {
    const size = w.elems * eb;
    for (let ch = 0; ch < w.channels; ch++) {
      const at = w.start + ch * w.elems;
      copy(addr((incoming as { ref: BufRef }).ref, at), sb(self, mine, ch), size);
      if (leg.kind === "sb2sb-reduce")
        copy(addr((local as { ref: BufRef }).ref, at), sb(neigh.core, peer, ch), size);
    }
    const req: Sb2sbRequest = {
      neigh,
      src: pattern(mine, w.elems),
      dst: pattern(peer, w.elems),
      dtype: dt,
      channels: w.channels,
      topology: { arch: profile, nodes: 1, place },
    };
    const legs =
      leg.kind === "sb2sb-copy"
        ? encdDmaCopySb2sb(req)
        : encdDmaReduceCopySb2sb(req, SDMA_OP[op === "avg" ? "sum" : op]);
    if (!Array.isArray(legs)) throw new DeviceFault(`leg ${leg.id}: SB2SB refused: ${legs.message}`);
    for (const l of legs) out.push(...sb2sbLegPackets(profile, l));
    for (let ch = 0; ch < w.channels; ch++)
      copy(sb(neigh.core, peer, ch), addr(dst, w.start + ch * w.elems), size);
  }
  return out;
}

/**
 * The engine time of an SB2SB leg: stage-in copies, the SB2SB packets, stage-out copies, each
 * through the engine's cost model (one descriptor pair per channel copy; a CCE packet's sources,
 * destination and, with SR, its seed-init).
 */
export function sb2sbEngineNs(
  model: ProfileCostModel,
  profile: ArchProfile,
  leg: Pick<Leg, "kind" | "count" | "queue">,
  dt: Dtype,
  sr: boolean,
): number {
  const bytes = leg.count * dtypeBytes(dt);
  const channels = words(leg.count).reduce((k, w) => k + w.channels, 0);
  const staged = leg.kind === "sb2sb-reduce" ? 2 : 1;
  const work = (kind: "copy" | "cce", descriptors: number, read: number, written: number, sources: number) =>
    model.durationNs({
      engine: 0,
      queue: leg.queue,
      kind,
      descriptors,
      bytesRead: read,
      bytesWritten: written,
      sources,
      destinations: 1,
      barrier: false,
      txSlot: 0,
      rxSlot: 0,
    });
  const packets = sb2sbElementPackets(profile, leg, dt).length;
  const exchange =
    leg.kind === "sb2sb-copy"
      ? work("copy", 2 * packets, bytes, bytes, 1)
      : work("cce", packets * (3 + (sr ? 1 : 0)), 2 * bytes, bytes, 2);
  return (
    work("copy", 2 * channels * staged, staged * bytes, staged * bytes, 1) +
    exchange +
    work("copy", 2 * channels, bytes, bytes, 1)
  );
}
