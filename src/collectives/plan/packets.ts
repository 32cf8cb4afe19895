/**
 * How a leg becomes packets — one add_dma_packet / add_dma_packet_cce call each. Reduce legs follow
 * the runtime's one reduce chunking rule (src/runtime/descriptors/reduce-chunks.ts: min(reduce packet size of
 * class 0, max CCE elements), 32-byte granular, the last packet carries the remainder, a leg under
 * one granule goes whole). Copies move up to 64 KiB per packet, the most one descriptor moves.
 */

import type { ArchProfile } from "../../hal/arch-profile.js";
import { chunkCount, chunkRun, reducePacketBytes } from "../../runtime/descriptors/reduce-chunks.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { MAX_DESCRIPTOR_BYTES } from "../../spec/packet-model.js";
import type { ElemRange } from "./partition.js";
import type { Leg } from "./plan.js";
import { sb2sbElementPackets } from "./sb2sb-legs.js";

/** True for the SB2SB leg kinds (staged through SBUF, packets per channel). */
export function isSb2sb(leg: Pick<Leg, "kind">): boolean {
  return leg.kind === "sb2sb-copy" || leg.kind === "sb2sb-reduce";
}

/** Elements per full packet of a leg of this kind; undefined: the whole leg is one packet. */
export function packetElems(
  profile: ArchProfile,
  leg: Pick<Leg, "kind" | "count">,
  dt: Dtype,
): number | undefined {
  const dsz = dtypeBytes(dt);
  if (leg.kind === "copy") return Math.max(1, Math.floor(MAX_DESCRIPTOR_BYTES / dsz));
  const bytes = reducePacketBytes(profile, leg.count, dt);
  return bytes === undefined ? undefined : bytes / dsz;
}

/** The packets of a leg, as element offsets relative to the leg's first element. */
export function legPackets(profile: ArchProfile, leg: Pick<Leg, "kind" | "count">, dt: Dtype): ElemRange[] {
  if (isSb2sb(leg)) return sb2sbElementPackets(profile, leg, dt);
  return chunkRun(leg.count, packetElems(profile, leg, dt));
}

/** How many packets a leg has, without listing them. */
export function legPacketCount(profile: ArchProfile, leg: Pick<Leg, "kind" | "count">, dt: Dtype): number {
  if (isSb2sb(leg)) return sb2sbElementPackets(profile, leg, dt).length;
  return chunkCount(leg.count, packetElems(profile, leg, dt));
}

/**
 * MODEL: the stochastic-rounding seed of a queue's vring (the seed its seed-init descriptors load
 * before every CCE packet, seed 000 §3.4): the user's seed mixed with rank and queue (murmur3
 * fmix32), so queues draw different streams. Every packet restarts its queue's stream, as a
 * seed-init descriptor does, so the scalar reference replays it without knowing queue order.
 */
export function queueSeed(seed: number, rank: number, queue: number): number {
  let h = (seed ^ Math.imul(rank + 1, 0x9e3779b1) ^ Math.imul(queue + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
