/**
 * sdmakit engine: the simulated device. Build a {@link Device} for an arch, write descriptor bytes
 * into ring memory, program the queue registers and ring the doorbell (src/runtime does this), then
 * `run()`: the engine fetches and executes the bytes and reports events, faults and stalls.
 * @module
 */
export { type CostModel, ProfileCostModel, type ProfileCostOptions } from "./cost-model.js";
/** The decoder on its own: fetched descriptor bytes → the engine's view and its packet plan or fault. */
export { type Descriptor, toDescriptor } from "./decode/descriptor.js";
export { resolveEmbeddedSem, type SemWrite } from "./decode/embedded-sem-write.js";
export {
  DescriptorFault,
  type DescriptorRef,
  describeRef,
  type QueueStall,
  WatchdogFault,
} from "./decode/faults.js";
export { type CcePlan, type PacketPlan, planPacket } from "./decode/packet-plan.js";
export { PlanCache } from "./decode/plan-cache.js";
export {
  type CountReport,
  DEFAULT_PACKET_BUDGET,
  Device,
  type DeviceOptions,
  type RunReport,
  type StepResult,
} from "./device.js";
export { DmaQueue, Ring } from "./dma-queue.js";
export type { EngineEvent, Work, WorkKind } from "./execute/events.js";
export { gceCompress, gceDecompress, gceHeader, readGceHeader } from "./execute/gce-codec.js";
export {
  DeviceMemory,
  type DeviceMemoryOptions,
  hexAddr,
  MemoryBudgetError,
  MemoryFault,
  type MemorySpan,
  PAGE_BYTES,
  PageKeep,
  pageNumber,
  pageOffset,
  type Region,
  type RegionKind,
  type RegionSpec,
  type SharedPages,
} from "./memory/memory.js";
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
  type SemaphoreWindow,
  sbufAddress,
  semaphoreAddress,
} from "./memory/memory-map.js";
export {
  ARENA_SCRATCH_BYTES,
  adoptArenas,
  FIRST_ARENA_BYTES,
  HOST_BLOCK_BYTES,
  hostBlockOf,
  MAX_ARENA_BYTES,
  POOL_MAX_BYTES,
  pooledArenaBytes,
  releaseFreeArenas,
  SHARED_SCRATCH_SLOTS,
} from "./memory/page-arenas.js";
export { SemaphoreBlock, type SemaphoreListener } from "./semaphores.js";
