/**
 * The host's posting loop, written once (libnrt's callers of add_dma_packet / add_dma_packet_cce):
 * a packet is posted on its queue's ring; when the ring is full (RingFullError) the device is first
 * drained to make room and the call is retried once; a drain that leaves faults or stalls becomes one
 * DeviceFault naming them all. The collectives' device machines and isa's SB2SB queues post through
 * here: the same dispatch on the call's kind, the same retry, the same fault join.
 */
import { DeviceFault, type Einval } from "../bits/errors.js";
import type { CountReport, Device, RunReport } from "../engine/device.js";
import { addDmaPacketCce, type CceRequest, postDmaPacketCce } from "./builders/cce-packet.js";
import { addDmaPacket, type CopyRequest, postDmaPacket } from "./builders/copy-packet.js";
import { RingFullError } from "./rings/ring-full.js";
import type { Vring, WrittenDescriptor } from "./rings/vring.js";

/** One runtime call: add_dma_packet with a copy request, or add_dma_packet_cce with a CCE request. */
export type HostPacket =
  | { readonly kind: "copy"; readonly copy: CopyRequest }
  | { readonly kind: "cce"; readonly cce: CceRequest };

/**
 * `post(arg)`; when the ring is full, `drain()` and post again (a second RingFullError propagates).
 * `arg` lets a caller posting packet after packet pass the same two functions each time (no
 * closure made per packet).
 */
export function retryOnFullRing<T, A = undefined>(post: (arg: A) => T, drain: () => void, arg?: A): T {
  try {
    return post(arg as A);
  } catch (e) {
    if (!(e instanceof RingFullError)) throw e;
    drain();
    return post(arg as A);
  }
}

/**
 * Post one runtime call and return what it wrote (add_dma_packet's descriptors) or its -EINVAL; a
 * full ring is drained first.
 * @throws as add_dma_packet / add_dma_packet_cce, and as `drain`.
 */
export function addHostPacket(
  vring: Vring,
  packet: HostPacket,
  drain: () => void,
): WrittenDescriptor[] | Einval {
  return retryOnFullRing(
    () => (packet.kind === "copy" ? addDmaPacket(vring, packet.copy) : addDmaPacketCce(vring, packet.cce)),
    drain,
  );
}

/**
 * Post one runtime call's bytes only (no descriptor objects: nothing reads them back); its -EINVAL
 * or undefined. A full ring is drained first.
 * @throws as add_dma_packet / add_dma_packet_cce, and as `drain`.
 */
export function postHostPacket(vring: Vring, packet: HostPacket, drain: () => void): Einval | undefined {
  return retryOnFullRing(() => postPacketBytes(vring, packet), drain);
}

/**
 * One runtime call's bytes, no retry (for a caller that retries a larger step itself through
 * {@link retryOnFullRing}). @throws RingFullError when the ring has no room.
 */
export function postPacketBytes(vring: Vring, packet: HostPacket): Einval | undefined {
  if (packet.kind === "cce") return postDmaPacketCce(vring, packet.cce);
  postDmaPacket(vring, packet.copy);
  return undefined;
}

/**
 * Run the device until nothing can progress.
 * @param who what the fault message starts with (`device`, `sb2sb`).
 * @throws DeviceFault naming every fault and stall.
 */
export function drainDevice(device: Device, who: string): RunReport {
  return refuseProblems(device.run(), who);
}

/**
 * {@link drainDevice} for a host that only counts the packets (Device.runCount: no event listed);
 * returns how many executed.
 * @throws DeviceFault naming every fault and stall.
 */
export function drainDeviceCount(device: Device, who: string): number {
  return refuseProblems(device.runCount(), who).executed;
}

/** The report, when it has no fault and no stall. @throws DeviceFault naming them all. */
function refuseProblems<R extends CountReport | RunReport>(report: R, who: string): R {
  if (report.faults.length === 0 && report.stalls.length === 0) return report;
  const problems = [...report.faults.map((f) => f.message), ...report.stalls.map((s) => s.reason)];
  throw new DeviceFault(`${who}: ${problems.join("; ")}`);
}
