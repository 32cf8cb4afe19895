/**
 * sdmakit runtime: the host side of libnrt's CCE path — remaps, gates and limits, the descriptor
 * builders (copy, CCE ADD / FMA / MIN / MAX, combo / EXT, GCE) and the vring writer that puts their
 * bytes on a queue's TX and RX rings and rings the doorbell. MODEL choices: docs/FIDELITY.md.
 * @module
 */
export { parseBuildRequest, runBuildRequest } from "./build-request.js";
export { type CceInfo, fmaInfo, fmaScale, minMaxConstant } from "./cce-info.js";
export {
  addDmaPacketCce,
  awsCaymanSdmaM2mBuildComboOp,
  buildCcePacket,
  type CceRequest,
  cceTemplateOf,
  postDmaPacketCce,
  remapCceRequest,
  type SrSettings,
  vringAddDmaPacketCceInt,
} from "./cce-packet.js";
export type { PacketTemplate } from "./cce-template.js";
export {
  buildFmaDescriptor,
  buildGradientDescriptor,
  buildMinMaxDescriptor,
  buildReplicationDescriptor,
  buildSeedInitDescriptor,
  type ComputeW0,
  type FmaDescArgs,
  GceMode,
  type GradientDescArgs,
  type MinMaxDescArgs,
  type ReplicationDescArgs,
  type SeedInitArgs,
} from "./compute-descriptors.js";
export {
  addDmaPacket,
  buildCopyPacket,
  type CopyRequest,
  copyTemplateOf,
  MAX_COPY_BYTES,
  postDmaPacket,
} from "./copy-packet.js";
export { describeLine, describeWritten } from "./describe-written.js";
export {
  chain,
  type DescriptorItem,
  type DescriptorSpec,
  descriptor,
  encodeDescriptor,
  type Packet,
  type RingSide,
} from "./descriptor.js";
export { DeferredDoorbell, DOORBELL_ACCESSOR, type Doorbell, RegisterDoorbell } from "./doorbell.js";
export {
  awsHalGetSdmaMaxCceElements,
  encdGetCceReducePacketSize,
  hasValidDmaCceInoutDtypeNcV1,
} from "./gates.js";
export { addGradientPacket, type GceRequest } from "./gradient-packet.js";
export {
  addHostPacket,
  drainDevice,
  type HostPacket,
  postHostPacket,
  postPacketBytes,
  retryOnFullRing,
} from "./host-queues.js";
export { wordBytes } from "./layout-word.js";
export {
  type AddMetaArgs,
  buildAddMetaCtrl,
  buildCceExtMetaCtrl,
  buildFmaMetaCtrl,
  buildGradientMetaCtrl,
  buildMinMaxMetaCtrl,
  buildReplicationMetaCtrl,
  type CceExtMetaArgs,
  copyMetaCtrl,
  type FmaMetaArgs,
  type GradientMetaArgs,
  type MinMaxMetaArgs,
} from "./meta-ctrl.js";
export { type QueueId, type QueueRegWrite, queueSetupWrites } from "./queue-registers.js";
export {
  chunkCount,
  chunkRun,
  REDUCE_PRIORITY_CLASS,
  type RunChunk,
  reducePacketBytes,
} from "./reduce-chunks.js";
export { kbinCceOpToSdmaCceOp, kbinDtypeToSdmaDtype } from "./remaps.js";
export { RingFullError } from "./ring-full.js";
export { validateCceInfo } from "./validate-cce-info.js";
export { Vring, type WrittenDescriptor } from "./vring.js";
export { ringAreaEnd, VringPool } from "./vring-pool.js";
