/**
 * The ring writer's refusal: a packet that does not fit the free slots of its TX or RX ring is
 * refused whole (nothing written, no doorbell) — never written over descriptors not yet consumed.
 * MODEL: the seeds do not say how libnrt reports a full ring; sdmakit throws this typed error.
 */
import { type ErrorCode, SdmakitError } from "../../bits/errors.js";
import type { RingSide } from "../descriptors/descriptor.js";

export class RingFullError extends SdmakitError {
  override readonly code: ErrorCode = "RING_FULL";
  override name = "RingFullError";
  constructor(
    readonly ring: RingSide,
    readonly needed: number,
    readonly available: number,
  ) {
    super(`${ring} ring full: the packet needs ${needed} descriptor slots, ${available} are free`);
  }
}
