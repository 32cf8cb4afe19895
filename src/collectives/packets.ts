/**
 * How a leg becomes packets — one add_dma_packet / add_dma_packet_cce call each.
 *
 * A reduce packet moves min(encd_get_cce_reduce_packet_size, max CCE elements) bytes: the per
 * priority-class cap of the reduce packet size, the profile's max CCE elements
 * (aws_hal_get_sdma_max_cce_elements, seed 000 §7.1), rounded down to the 32-byte granule. MODEL
 * (tails): the granule rounding would drop a remainder — encd_get_cce_reduce_packet_size returns 0
 * for fewer than 32 bytes — so the last packet of a leg carries whatever is left (any whole number
 * of elements); the CCE reduces it like any other. Copies move up to 64 KiB per packet, the most
 * one descriptor moves.
 */

import type { ArchProfile } from "../hal/arch-profile.js";
import { encdGetCceReducePacketSize } from "../runtime/index.js";
import type { Dtype } from "../spec/dtype.js";
import { SDMA_DATA_TYPE_SIZE } from "../spec/dtype.js";
import { MAX_DESCRIPTOR_BYTES } from "../spec/packet-model.js";
import type { ElemRange } from "./partition.js";
import type { Leg } from "./plan.js";

/** MODEL: collectives run in priority class 0 (with the runtime's default, uncapped, nrt_gconf). */
export const COLLECTIVE_PRIORITY_CLASS = 0;

/** Elements per full packet of a leg of this kind. */
export function packetElems(profile: ArchProfile, leg: Leg, dt: Dtype): number {
  const dsz = SDMA_DATA_TYPE_SIZE[dt] ?? 0;
  if (leg.kind === "copy") return Math.max(1, Math.floor(MAX_DESCRIPTOR_BYTES / Math.max(1, dsz)));
  const size = encdGetCceReducePacketSize(
    { priorityClass: COLLECTIVE_PRIORITY_CLASS, elemCount: leg.count },
    dt,
  );
  const bytes = Math.min(size, profile.maxCceElements * dsz);
  // Under one granule the size function gives 0: the whole leg is one (tail) packet.
  return bytes === 0 ? leg.count : Math.floor(bytes / dsz);
}

/** The packets of a leg, as element offsets relative to the leg's first element. */
export function legPackets(profile: ArchProfile, leg: Leg, dt: Dtype): ElemRange[] {
  const per = packetElems(profile, leg, dt);
  const out: ElemRange[] = [];
  for (let start = 0; start < leg.count; start += per)
    out.push({ start, count: Math.min(per, leg.count - start) });
  return out;
}

/** How many packets a leg has, without listing them. */
export function legPacketCount(profile: ArchProfile, leg: Leg, dt: Dtype): number {
  return Math.ceil(leg.count / packetElems(profile, leg, dt));
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
