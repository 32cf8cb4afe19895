/**
 * sdmakit engine: the simulated device. Build a {@link Device} for an arch, write descriptor bytes
 * into ring memory, program the queue registers and ring the doorbell (src/runtime does this), then
 * `run()`: the engine fetches and executes the bytes and reports events, faults and stalls.
 * @module
 */
export { type CostModel, ProfileCostModel, type ProfileCostOptions } from "./cost-model.js";
/** The decoder on its own: fetched descriptor bytes → the engine's view and its packet plan or fault. */
export { type Descriptor, toDescriptor } from "./descriptor.js";
export {
  DEFAULT_PACKET_BUDGET,
  Device,
  type DeviceOptions,
  type RunReport,
  type StepResult,
} from "./device.js";
export { DmaQueue, Ring } from "./dma-queue.js";
export { resolveEmbeddedSem, type SemWrite } from "./embedded-sem-write.js";
export type { EngineEvent, Work, WorkKind } from "./events.js";
export {
  DescriptorFault,
  type DescriptorRef,
  describeRef,
  type QueueStall,
  WatchdogFault,
} from "./faults.js";
export { gceCompress, gceDecompress, gceHeader, readGceHeader } from "./gce-codec.js";
export {
  DeviceMemory,
  type DeviceMemoryOptions,
  hexAddr,
  MemoryBudgetError,
  MemoryFault,
  type MemorySpan,
  PAGE_BYTES,
  pageOffset,
  type Region,
  type RegionKind,
  type RegionSpec,
} from "./memory.js";
export {
  describeAddress,
  deviceMemoryMap,
  engineCount,
  engineCsrBase,
  eventBlocks,
  HBM_BASE,
  hbmAddress,
  type MapEntry,
  PSUM_OFFSET,
  psumAddress,
  queueRegAddress,
  type SemaphoreWindow,
  sbufAddress,
  semaphoreAddress,
} from "./memory-map.js";
export { type CcePlan, type PacketPlan, planPacket } from "./packet-plan.js";
export {
  ARENA_SCRATCH_BYTES,
  FIRST_ARENA_BYTES,
  MAX_ARENA_BYTES,
  POOL_MAX_BYTES,
  pooledArenaBytes,
  releaseFreeArenas,
} from "./page-arenas.js";
export { PlanCache } from "./plan-cache.js";
export { SemaphoreBlock, type SemaphoreListener } from "./semaphores.js";
