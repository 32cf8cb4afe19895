/**
 * sdmakit runtime: the host side of libnrt's CCE path — remaps, gates and limits, the descriptor
 * builders (copy, CCE ADD / FMA / MIN / MAX, combo / EXT, GCE) and the vring writer that puts their
 * bytes on a queue's TX and RX rings and rings the doorbell. MODEL choices: docs/FIDELITY.md.
 * @module
 */
export { parseBuildRequest, runBuildRequest } from "./builders/build-request.js";
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
} from "./builders/cce-packet.js";
export type { PacketTemplate } from "./builders/cce-template.js";
export {
  addDmaPacket,
  buildCopyPacket,
  type CopyRequest,
  copyTemplateOf,
  MAX_COPY_BYTES,
  postDmaPacket,
} from "./builders/copy-packet.js";
export { addGradientPacket, type GceRequest } from "./builders/gradient-packet.js";
export { validateCceInfo } from "./builders/validate-cce-info.js";
export { type CceInfo, fmaInfo, fmaScale, minMaxConstant } from "./descriptors/cce-info.js";
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
} from "./descriptors/compute-descriptors.js";
export {
  chain,
  type DescriptorItem,
  type DescriptorSpec,
  descriptor,
  encodeDescriptor,
  type Packet,
  type RingSide,
} from "./descriptors/descriptor.js";
export {
  awsHalGetSdmaMaxCceElements,
  encdGetCceReducePacketSize,
  hasValidDmaCceInoutDtypeNcV1,
} from "./descriptors/gates.js";
export { wordBytes } from "./descriptors/layout-word.js";
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
} from "./descriptors/meta-ctrl.js";
export {
  chunkCount,
  chunkRun,
  REDUCE_PRIORITY_CLASS,
  type RunChunk,
  reducePacketBytes,
} from "./descriptors/reduce-chunks.js";
export { kbinCceOpToSdmaCceOp, kbinDtypeToSdmaDtype } from "./descriptors/remaps.js";
export {
  addHostPacket,
  drainDevice,
  drainDeviceCount,
  type HostPacket,
  postHostPacket,
  postPacketBytes,
  retryOnFullRing,
} from "./host-queues.js";
export { describeLine, describeWritten } from "./rings/describe-written.js";
export { DeferredDoorbell, DOORBELL_ACCESSOR, type Doorbell, RegisterDoorbell } from "./rings/doorbell.js";
export { type QueueId, type QueueRegWrite, queueSetupWrites } from "./rings/queue-registers.js";
export { RingFullError } from "./rings/ring-full.js";
export { Vring, type WrittenDescriptor } from "./rings/vring.js";
export { ringAreaEnd, VringPool } from "./rings/vring-pool.js";
