/**
 * Engine faults: every one names the descriptor that caused it (engine, queue, ring, slot), the
 * address when there is one, and the reason — never a silent drop, never an uncaught crash.
 */
import { DeviceFault, type ErrorCode } from "../../bits/errors.js";
import { hexAddr } from "../memory/memory.js";

/** Where a descriptor sits: DMA engine, queue, ring (tx = M2S, rx = S2M) and slot index. */
export interface DescriptorRef {
  readonly engine: number;
  readonly queue: number;
  readonly ring: "tx" | "rx";
  readonly slot: number;
}

/** Print a descriptor reference the way faults and the CLI do: `engine 0 queue 1 tx slot 4`. */
export function describeRef(ref: DescriptorRef): string {
  return `engine ${ref.engine} queue ${ref.queue} ${ref.ring} slot ${ref.slot}`;
}

/** A descriptor the engine cannot execute: bad field, bad memory access, broken chain. */
export class DescriptorFault extends DeviceFault {
  override readonly code: ErrorCode = "DESCRIPTOR_FAULT";
  override name = "DescriptorFault";
  constructor(
    readonly at: DescriptorRef,
    readonly reason: string,
    readonly addr?: bigint,
    readonly where?: string,
  ) {
    super(
      `${describeRef(at)}: ${reason}${addr === undefined ? "" : ` [${hexAddr(addr)}${where ? `: ${where}` : ""}]`}`,
    );
  }
}

/** A queue that has descriptors posted but cannot consume them (stale phase, incomplete packet). */
export interface QueueStall {
  readonly engine: number;
  readonly queue: number;
  readonly at: DescriptorRef;
  readonly reason: string;
}

/**
 * The run watchdog (Device.run): posted work still runnable after the run's packet budget, e.g. two
 * queues whose packets re-arm each other through the queue registers. Named at the head of the first
 * such queue; `queues` lists them all. The queues are left as they are: another run() goes on.
 */
export class WatchdogFault extends DescriptorFault {
  override readonly code: ErrorCode = "WATCHDOG";
  override name = "WatchdogFault";
  constructor(
    at: DescriptorRef,
    readonly packets: number,
    readonly queues: readonly { readonly engine: number; readonly queue: number }[],
  ) {
    super(
      at,
      `no completion after ${packets} packets on queues ${queues.map((q) => `${q.engine}.${q.queue}`).join(", ")} (engine.queue): stopped by the run's packet budget (DeviceOptions.packetBudget)`,
    );
  }
}
