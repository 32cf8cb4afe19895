/**
 * A queue of the host's view: engine and queue index, checked against the profile. Where its
 * registers sit is the address map's (spec/address-map.ts queueRegisterAddress), shared with the engine.
 */
import { FieldError } from "../bits/errors.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import { engineCount } from "../spec/address-map.js";

/** One DMA queue of one engine. */
export interface QueueId {
  readonly engine: number;
  readonly queue: number;
}

/**
 * Check a queue id against the profile's engine and queue counts.
 * @throws FieldError naming the engine or queue and the allowed range.
 */
export function checkQueueId(profile: ArchProfile, q: QueueId): void {
  const engines = engineCount(profile);
  if (!Number.isInteger(q.engine) || q.engine < 0 || q.engine >= engines) {
    throw new FieldError("vring", "engine", q.engine, `0..${engines - 1} (${profile.name})`);
  }
  if (!Number.isInteger(q.queue) || q.queue < 0 || q.queue >= profile.queuesPerEngine) {
    throw new FieldError("vring", "queue", q.queue, `0..${profile.queuesPerEngine - 1}`);
  }
}
