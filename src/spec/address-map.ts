/**
 * The device address map over an arch profile: where each DMA engine's registers, each queue
 * register and each SBUF byte sit. One copy, read by the host (runtime, isa, collectives) and the
 * device (engine) alike; the per-arch strides and counts come from the profile, never from a
 * constant here.
 */
import { FieldError } from "../bits/errors.js";
import { SBUF_WINDOWS } from "./tables.js";
import { m2sQueueOffset, type QueueReg, queueRegOffset, SDMA_CSR_BASE, s2mQueueOffset } from "./udma-regs.js";

/** The arch facts the address map reads (every hal ArchProfile has them). */
export interface AddressProfile {
  readonly name: string;
  readonly neuronCores: number;
  readonly dmaEnginesPerCore: number;
  readonly queuesPerEngine: number;
  /** The register space of one SDMA engine (0x100000, public). */
  readonly sdmaEngineStride: bigint;
  readonly sbufPartitions: number;
  readonly sbufPartitionBytes: number;
  /** The address distance between two SBUF partitions (256 KiB, GROUND_TRUTH). */
  readonly sbufPartitionStride: number;
}

function checkIndex(fn: string, field: string, value: number, count: number): void {
  if (!Number.isInteger(value) || value < 0 || value >= count)
    throw new FieldError(fn, field, value, `0..${count - 1}`);
}

/** Total DMA engines of a device: NeuronCores × engines per core. */
export function engineCount(p: AddressProfile): number {
  return p.neuronCores * p.dmaEnginesPerCore;
}

/** The register-space base of DMA engine `engine`. @throws FieldError outside the profile. */
export function engineCsrBase(p: AddressProfile, engine: number): bigint {
  checkIndex("engineCsrBase", "engine", engine, engineCount(p));
  return SDMA_CSR_BASE + BigInt(engine) * p.sdmaEngineStride;
}

/**
 * The address of a queue register: `tx` is the M2S queue block, `rx` the S2M one (udma-regs.ts).
 * @throws FieldError for an engine or queue outside the profile.
 * @throws RangeError for a register the block does not have (udma-regs.ts queueRegOffset).
 * @example queueRegisterAddress(CAYMAN, 0, "rx", 1, "drtp_inc");
 */
export function queueRegisterAddress(
  p: AddressProfile,
  engine: number,
  ring: "tx" | "rx",
  queue: number,
  reg: QueueReg,
): bigint {
  checkIndex("queueRegisterAddress", "queue", queue, p.queuesPerEngine);
  const block = ring === "tx" ? m2sQueueOffset(queue) : s2mQueueOffset(queue);
  return engineCsrBase(p, engine) + BigInt(block + queueRegOffset(ring, reg));
}

/**
 * The address of byte `offset` of SBUF partition `partition` of NeuronCore `core`: the core's
 * 32 MiB window (SBUF_WINDOWS) + partition · stride + offset.
 * @throws FieldError for a core, partition or offset outside the profile (offset < partition bytes).
 * @example sbufAddress(CAYMAN, 1, 2, 16); // 0x30_0008_0010n
 */
export function sbufAddress(p: AddressProfile, core: number, partition: number, offset: number): bigint {
  checkIndex("sbufAddress", "core", core, Math.min(p.neuronCores, SBUF_WINDOWS.length));
  checkIndex("sbufAddress", "partition", partition, p.sbufPartitions);
  checkIndex("sbufAddress", "offset", offset, p.sbufPartitionBytes);
  return (SBUF_WINDOWS[core] as bigint) + BigInt(partition * p.sbufPartitionStride + offset);
}
