/**
 * The UDMA queue register block (aws-neuron-driver udma/udma_regs, GROUND_TRUTH): per queue cfg,
 * status, descriptor-ring base lo/hi, ring length, head, tail increment (the doorbell), tail,
 * completion pointers. GROUND_TRUTH gives the names and the M2S queue placement (0x1000 + q·0x1000);
 * the offsets inside a queue block and the S2M placement are MODEL (docs/FIDELITY.md).
 */

/** Byte offsets of the registers inside one queue block (MODEL order: the driver's listing order). */
export const QUEUE_REG = {
  cfg: 0x00,
  status: 0x04,
  drbp_lo: 0x08,
  drbp_hi: 0x0c,
  drl: 0x10,
  drhp: 0x14,
  drtp_inc: 0x18,
  drtp: 0x1c,
  dcp: 0x20,
  crbp_lo: 0x24,
  crbp_hi: 0x28,
  crhp: 0x2c,
} as const;
export type QueueReg = keyof typeof QUEUE_REG;

/** Bytes of one queue's register block. */
export const QUEUE_BLOCK_BYTES = 0x1000;
/** Where the M2S (TX) queue blocks start inside an engine's register space (public). */
export const M2S_QUEUES_OFFSET = 0x1000;
/** Where the S2M (RX) queue blocks start (MODEL: after the 16 M2S blocks and a gap). */
export const S2M_QUEUES_OFFSET = 0x21000;

/** M2S (TX) queue q's block inside an engine's register space: 0x1000 + q·0x1000 (public). */
export function m2sQueueOffset(queue: number): number {
  return M2S_QUEUES_OFFSET + queue * QUEUE_BLOCK_BYTES;
}

/** S2M (RX) queue q's block: 0x21000 + q·0x1000. */
export function s2mQueueOffset(queue: number): number {
  return S2M_QUEUES_OFFSET + queue * QUEUE_BLOCK_BYTES;
}

/**
 * Where the simulated SDMA register space of a device starts (MODEL: an address outside HBM and the
 * SBUF windows; the real BAR layout is not in the seeds).
 */
export const SDMA_CSR_BASE = 0x10_0000_0000n;

/** NeuronCore event block (GROUND_TRUTH): base + 0x2700000, 256 semaphores. */
export const EVENT_BLOCK_OFFSET = 0x2700000n;
export const SEMAPHORE_WINDOWS = {
  read: 0x1000n,
  set: 0x1400n,
  increment: 0x1800n,
  decrement: 0x1c00n,
} as const;
export const SEMAPHORE_COUNT = 256;
