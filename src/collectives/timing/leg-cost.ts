/**
 * The engine time of a leg, counted from the packets the runtime's own builders make for it: the
 * leg's calls (leg-calls.ts, what the device machine posts) are built with buildCopyPacket /
 * buildCcePacket — the descriptors the engine will fetch, seed-init, combo and SB2SB staging
 * included — and each packet is priced by the engine's cost model. No formula beside the builders.
 * Both are cached: a packet's descriptor count per packet shape, a leg's cost per leg shape.
 */
import { HBM_BASE, type ProfileCostModel } from "../../engine/index.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { Sb2sbPacket } from "../../isa/index.js";
import { buildCcePacket, buildCopyPacket, remapCceRequest, type SrSettings } from "../../runtime/index.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { legCalls } from "../plan/leg-calls.js";
import { isSb2sb, legPacketCount, packetElems } from "../plan/packets.js";
import type { Leg, LegKind, ReduceOp } from "../plan/plan.js";
import type { TimingParams } from "../topology/timing-params.js";
import { engineCostModel } from "./cost-model.js";

/** Each leg kind's digit in a cost key. */
const KIND_KEY: Readonly<Record<LegKind, number>> = {
  copy: 0,
  "reduce-copy": 1,
  duplicate: 2,
  "sb2sb-copy": 3,
  "sb2sb-reduce": 4,
};
const KIND_KEYS = 5;

/**
 * A leg shape as one exact number (no string built a call): its count, kind and source and
 * destination counts; −1, not cached, past 127 sources or destinations (no planner makes such a leg).
 */
function costKey(leg: CostedLeg): number {
  if (leg.srcs.length > 127 || leg.dsts.length > 127) return -1;
  return ((leg.count * KIND_KEYS + KIND_KEY[leg.kind]) * 128 + leg.srcs.length) * 128 + leg.dsts.length;
}

/** What a leg costs its DMA queue. */
export interface LegCost {
  /** TX + RX descriptors of all its packets. */
  readonly descriptors: number;
  /** Engine time, ns. */
  readonly ns: number;
  /** Packets (runtime calls the device machine posts for it: packets.ts). */
  readonly packets: number;
}

/** The leg fields its calls depend on. */
export type CostedLeg = Pick<Leg, "kind" | "rank" | "queue" | "srcs" | "dsts" | "count">;

/** What a coster's legs move: the dtype, the reduce op, and whether rounding is stochastic. */
export interface CostedWork {
  readonly dtype: Dtype;
  readonly op: ReduceOp;
  readonly sr: boolean;
}

export class LegCoster {
  private readonly model: ProfileCostModel;
  private readonly sr: SrSettings;
  private readonly eb: number;
  /** Per packet (runtime call), beyond the engine model's descriptors and bytes (timing-params.ts). */
  private readonly packetNs: number;
  private readonly packets = new Map<string, number>();
  private readonly legs = new Map<number, LegCost>();

  private readonly dtype: Dtype;
  private readonly op: ReduceOp;

  /** @example new LegCoster(archProfile("trn2"), { dtype: Dtype.BFLOAT16, op: "sum", sr: false }) */
  constructor(
    private readonly profile: ArchProfile,
    work: CostedWork,
    timing?: Pick<TimingParams, "engineBytesPerNs" | "descriptorNs" | "packetNs">,
  ) {
    this.dtype = work.dtype;
    this.op = work.op;
    this.model = engineCostModel(profile, timing);
    this.packetNs = timing?.packetNs ?? 0;
    this.sr = { stochasticRounding: work.sr, srSeed: 0 };
    this.eb = dtypeBytes(work.dtype);
  }

  /** Descriptors of one runtime call's packet, built once per shape. @throws Error if refused. */
  descriptors(call: Sb2sbPacket): number {
    const key =
      call.kind === "copy"
        ? `c${call.copy.size}`
        : `x${call.cce.op}:${call.cce.sources.length}:${call.cce.dests.length}:${call.cce.size}`;
    let n = this.packets.get(key);
    if (n === undefined) {
      const packet =
        call.kind === "copy"
          ? buildCopyPacket(call.copy)
          : buildCcePacket(this.profile, this.sr, remapCceRequest(call.cce));
      if ("status" in packet)
        throw new Error(`timing: the runtime refuses a planned packet: ${packet.message}`);
      n = packet.tx.length + packet.rx.length;
      this.packets.set(key, n);
    }
    return n;
  }

  /**
   * The cost of a leg, computed once per (kind, count, sources, destinations). A plain leg's packets
   * are all full but the last (chunkRun), so it is priced as (packets − 1) full packets and the last
   * one, whatever its length; an SB2SB leg's staged calls are priced one by one.
   */
  cost(leg: CostedLeg): LegCost {
    const key = costKey(leg);
    let c = this.legs.get(key);
    if (c === undefined) {
      c = this.priceLeg(leg);
      if (key >= 0) this.legs.set(key, c);
    }
    return c;
  }

  private priceLeg(leg: CostedLeg): LegCost {
    const per = isSb2sb(leg) ? undefined : packetElems(this.profile, leg, this.dtype);
    const packets = legPacketCount(this.profile, leg, this.dtype);
    if (per === undefined || packets <= 2) return { ...this.price(leg), packets };
    const full = this.price({ ...leg, count: per });
    const last = this.price({ ...leg, count: leg.count - (packets - 1) * per });
    const n = packets - 1;
    return { descriptors: n * full.descriptors + last.descriptors, ns: n * full.ns + last.ns, packets };
  }

  /** Every call of a leg, built and priced. */
  private price(leg: CostedLeg): Omit<LegCost, "packets"> {
    const eb = this.eb;
    const addr = (_: unknown, plus: number) => HBM_BASE + BigInt(plus * eb);
    let descriptors = 0;
    let ns = 0;
    for (const call of legCalls(this.profile, { ...leg, id: -1 }, this.dtype, this.op, addr)) {
      const n = this.descriptors(call);
      const size = call.kind === "copy" ? call.copy.size : call.cce.size;
      const sources = call.kind === "copy" ? 1 : call.cce.sources.length;
      const destinations = call.kind === "copy" ? 1 : call.cce.dests.length;
      descriptors += n;
      ns += this.packetNs;
      ns += this.model.durationNs({
        engine: 0,
        queue: leg.queue,
        kind: call.kind,
        descriptors: n,
        bytesRead: size * sources,
        bytesWritten: size * destinations,
        sources,
        destinations,
        barrier: false,
        txSlot: 0,
        rxSlot: 0,
      });
    }
    return { descriptors, ns };
  }
}
