/**
 * The runtime calls of a leg, in order — one add_dma_packet / add_dma_packet_cce request per packet
 * (SB2SB legs: staged, sb2sb-legs.ts). Declared once: the device machine posts them, and the timing
 * model builds the same requests' packets to count their descriptors (leg-cost.ts).
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { Sb2sbPacket } from "../../isa/index.js";
import type { AluOp } from "../../numerics/index.js";
import { type CceInfo, fmaInfo } from "../../runtime/index.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { KbinDmaDescOp } from "../../spec/enums.js";
import { legAluOp, sourceScale } from "./leg-math.js";
import { isSb2sb, legPackets } from "./packets.js";
import type { ElemRange } from "./partition.js";
import type { BufRef, Leg, LegSource, ReduceOp } from "./plan.js";
import { sb2sbLegCalls } from "./sb2sb-legs.js";

const KBIN_OP = {
  add: KbinDmaDescOp.ADD,
  fma: KbinDmaDescOp.FMA,
  min: KbinDmaDescOp.MIN,
  max: KbinDmaDescOp.MAX,
};

/** Sources or destinations a leg may have for its shape to have a {@link shapeKey}. */
const SHAPE_REFS = 64;

/**
 * A number for everything a non-SB2SB leg's request ({@link legCallMaker}) depends on besides its
 * addresses and the plan's dtype: the ALU op (none: a copy), the counts of sources and destinations,
 * the packet's elements. NaN for an FMA leg (its scales are in the request too) or counts past
 * SHAPE_REFS: such a leg's template is not shared.
 */
export function shapeKey(alu: AluOp | undefined, srcs: number, dsts: number, count: number): number {
  if (alu === "fma" || srcs >= SHAPE_REFS || dsts >= SHAPE_REFS) return Number.NaN;
  const op = alu === undefined ? KbinDmaDescOp.COPY : KBIN_OP[alu];
  return ((count * SHAPE_REFS + srcs) * SHAPE_REFS + dsts) * KbinDmaDescOp.NUM + op;
}

/** What a leg's calls depend on besides the plan's dtype and op. */
export type LegShape = Pick<Leg, "id" | "kind" | "rank" | "queue" | "srcs" | "dsts" | "count">;

/**
 * The runtime requests of a leg's packets, in posting order, with addresses from `addr`.
 * @throws DeviceFault when the SB2SB lowering refuses a word.
 */
export function* legCalls(
  profile: ArchProfile,
  leg: LegShape,
  dtype: Dtype,
  op: ReduceOp,
  addr: (ref: BufRef, plusElems: number) => bigint,
): Generator<Sb2sbPacket> {
  if (isSb2sb(leg)) {
    yield* sb2sbLegCalls(profile, leg, dtype, op, addr);
    return;
  }
  const call = legCallMaker(leg, dtype, op, addr);
  for (const pk of legPackets(profile, leg, dtype)) yield call(pk);
}

/**
 * The runtime request of one packet of a leg that is not SB2SB, by its element range: what
 * {@link legCalls} yields for it. A copy leg's request reads its first source and destination, a
 * CCE leg's every source and destination.
 */
export function legCallMaker(
  leg: LegShape,
  dtype: Dtype,
  op: ReduceOp,
  addr: (ref: BufRef, plusElems: number) => bigint,
): (pk: ElemRange) => Sb2sbPacket {
  const eb = dtypeBytes(dtype);
  const alu = legAluOp(leg, op);
  const cceInfo: CceInfo | null =
    alu === "fma"
      ? { num_sources: leg.srcs.length, num_dests: leg.dsts.length, ...fmaInfo(leg.srcs.map(sourceScale)) }
      : null;
  return (pk) => {
    const size = pk.count * eb;
    if (alu === undefined) {
      const src = addr((leg.srcs[0] as LegSource).ref, pk.start);
      return { kind: "copy", copy: { src, dst: addr(leg.dsts[0] as BufRef, pk.start), size } };
    }
    const sources = leg.srcs.map((s) => addr(s.ref, pk.start));
    const dests = leg.dsts.map((d) => addr(d, pk.start));
    return { kind: "cce", cce: { op: KBIN_OP[alu], sources, dests, size, inDtype: dtype, cceInfo } };
  };
}
