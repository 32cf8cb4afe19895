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
import {
  buildCcePacket,
  buildCopyPacket,
  chunkCount,
  remapCceRequest,
  type SrSettings,
} from "../../runtime/index.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { legCalls } from "../device/leg-calls.js";
import { isSb2sb, packetElems } from "../plan/packets.js";
import type { Leg, ReduceOp } from "../plan/plan.js";
import { engineCostModel } from "./cost-model.js";

/** What a leg costs its DMA queue. */
export interface LegCost {
  /** TX + RX descriptors of all its packets. */
  readonly descriptors: number;
  /** Engine time, ns. */
  readonly ns: number;
}

/** The leg fields its calls depend on. */
export type CostedLeg = Pick<Leg, "kind" | "rank" | "queue" | "srcs" | "dsts" | "count">;

export class LegCoster {
  private readonly model: ProfileCostModel;
  private readonly sr: SrSettings;
  private readonly eb: number;
  private readonly packets = new Map<string, number>();
  private readonly legs = new Map<string, LegCost>();

  constructor(
    private readonly profile: ArchProfile,
    private readonly dtype: Dtype,
    private readonly op: ReduceOp,
    sr: boolean,
  ) {
    this.model = engineCostModel(profile);
    this.sr = { stochasticRounding: sr, srSeed: 0 };
    this.eb = dtypeBytes(dtype);
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
    const key = `${leg.kind}:${leg.count}:${leg.srcs.length}:${leg.dsts.length}`;
    let c = this.legs.get(key);
    if (c === undefined) {
      const per = isSb2sb(leg) ? undefined : packetElems(this.profile, leg, this.dtype);
      const packets = chunkCount(leg.count, per);
      if (per === undefined || packets <= 2) c = this.price(leg);
      else {
        const full = this.price({ ...leg, count: per });
        const last = this.price({ ...leg, count: leg.count - (packets - 1) * per });
        const n = packets - 1;
        c = { descriptors: n * full.descriptors + last.descriptors, ns: n * full.ns + last.ns };
      }
      this.legs.set(key, c);
    }
    return c;
  }

  /** Every call of a leg, built and priced. */
  private price(leg: CostedLeg): LegCost {
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
