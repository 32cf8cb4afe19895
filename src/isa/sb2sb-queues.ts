/**
 * Posting SB2SB legs through the real runtime onto a simulated device's DMA queues: each active
 * channel's packets go on that channel's queue (seed 002 §4.3, §7.2: one packet chain per channel),
 * copy packets through add_dma_packet, reduce packets through add_dma_packet_cce; the rings live in
 * the device's HBM and the engine executes their bytes.
 */
import { type Einval, isEinval } from "../bits/errors.js";
import { type Device, HBM_BASE, type RunReport } from "../engine/index.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import {
  addHostPacket,
  drainDevice,
  type QueueId,
  type Vring,
  VringPool,
  type WrittenDescriptor,
} from "../runtime/index.js";
import type { Sb2sbLeg } from "./sb2sb-lowering.js";
import { type Sb2sbPacket, sb2sbLegPackets } from "./sb2sb-packets.js";

/** MODEL: descriptor slots per ring — 1024 (16 KiB): a 256-element reversed reduce leg fits whole. */
export const SB2SB_RING_SLOTS = 1024;

/**
 * The DMA queue that runs channel `channel` of an SB2SB issued by NeuronCore `core`. MODEL: the
 * seed gives 1..128 channels (POOLING_NUM_CHANNELS) but not their queues; a core owns
 * `dmaEnginesPerCore` engines (16), so channel k runs on the core's engine k mod 16, queue ⌊k / 16⌋
 * — 128 channels = 16 engines × 8 queues, every channel its own queue.
 * @example sb2sbChannelQueue(CAYMAN, 1, 17) // { engine: 17, queue: 1 }
 */
export function sb2sbChannelQueue(profile: ArchProfile, core: number, channel: number): QueueId {
  const per = profile.dmaEnginesPerCore;
  return { engine: core * per + (channel % per), queue: Math.floor(channel / per) };
}

/** One leg as posted: its queue, the runtime calls and the descriptors they wrote. */
export interface PostedLeg {
  readonly leg: Sb2sbLeg;
  readonly queue: QueueId;
  readonly packets: readonly Sb2sbPacket[];
  readonly written: readonly WrittenDescriptor[];
}

/**
 * A device's queues as SB2SB uses them: a {@link VringPool} of 1024-slot rings (32 KiB a queue) in
 * HBM, and the post-and-drain loop.
 */
export class Sb2sbQueues {
  private readonly pool: VringPool;

  /** @param ringBase where the ring area starts (default HBM_BASE); it ends at {@link end}. */
  constructor(
    readonly device: Device,
    readonly ringBase: bigint = HBM_BASE,
  ) {
    this.pool = new VringPool(device, { ringBase, slots: SB2SB_RING_SLOTS });
  }

  /** The first byte after the ring area (free HBM for the caller). */
  get end(): bigint {
    return this.pool.end;
  }

  /** The vring of a queue. @throws FieldError for an engine / queue outside the profile. */
  vring(q: QueueId): Vring {
    return this.pool.get(q);
  }

  /**
   * One runtime call on a queue; a full ring first drains the device, then the call is retried.
   * @throws as add_dma_packet / add_dma_packet_cce; DeviceFault when the drain faults.
   */
  post(q: QueueId, packet: Sb2sbPacket): WrittenDescriptor[] | Einval {
    return addHostPacket(this.vring(q), packet, () => this.drain());
  }

  /**
   * Run the device until nothing can progress.
   * @throws DeviceFault naming every fault and stall.
   */
  drain(): RunReport {
    return drainDevice(this.device, "sb2sb");
  }
}

/**
 * Post legs as __encd_dma_common_sb2sb's per-channel loop does: each leg's packets, in order, on
 * its channel's queue of the issuing core (leg.srcCore). Nothing runs unless a ring fills.
 * @returns the posted legs, or the first -EINVAL the runtime returned.
 * @throws as {@link Sb2sbQueues.post} and {@link sb2sbLegPackets}.
 */
export function postSb2sbLegs(queues: Sb2sbQueues, legs: readonly Sb2sbLeg[]): PostedLeg[] | Einval {
  const profile = queues.device.profile;
  const out: PostedLeg[] = [];
  for (const leg of legs) {
    const queue = sb2sbChannelQueue(profile, leg.srcCore, leg.channel);
    const packets = sb2sbLegPackets(profile, leg);
    const written: WrittenDescriptor[] = [];
    for (const packet of packets) {
      const w = queues.post(queue, packet);
      if (isEinval(w)) return w;
      written.push(...w);
    }
    out.push({ leg, queue, packets, written });
  }
  return out;
}
