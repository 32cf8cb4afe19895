/**
 * Where a queue's registers sit: engine e's SDMA block at SDMA_CSR_BASE + e·SDMA_ENGINE_STRIDE, the
 * M2S (TX) queue block at 0x1000 + q·0x1000 inside it, the S2M (RX) block per spec/udma-regs.ts.
 */
import { FieldError } from "../bits/errors.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import {
  m2sQueueOffset,
  QUEUE_REG,
  type QueueReg,
  SDMA_CSR_BASE,
  SDMA_ENGINE_STRIDE,
  s2mQueueOffset,
} from "../spec/udma-regs.js";
import type { RingSide } from "./descriptor.js";

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
  const engines = profile.neuronCores * profile.dmaEnginesPerCore;
  if (!Number.isInteger(q.engine) || q.engine < 0 || q.engine >= engines) {
    throw new FieldError("vring", "engine", q.engine, `0..${engines - 1} (${profile.name})`);
  }
  if (!Number.isInteger(q.queue) || q.queue < 0 || q.queue >= profile.queuesPerEngine) {
    throw new FieldError("vring", "queue", q.queue, `0..${profile.queuesPerEngine - 1}`);
  }
}

/** The address of one register of a queue's TX (M2S) or RX (S2M) block. */
export function queueRegisterAddress(q: QueueId, side: RingSide, reg: QueueReg): bigint {
  const block = side === "tx" ? m2sQueueOffset(q.queue) : s2mQueueOffset(q.queue);
  return SDMA_CSR_BASE + BigInt(q.engine) * SDMA_ENGINE_STRIDE + BigInt(block + QUEUE_REG[reg]);
}
