/**
 * sdmakit hal: the per-arch device layer — one profile per generation (`archProfile`, SUNDA /
 * CAYMAN / MARIANA), the register file and CSR accessors, the khal vtable and its registrars, the
 * MARIANA CSR writers, the CAYMAN DGE and transpose builders, the embedded semaphore.
 * @module
 */
export {
  type ArchName,
  type ArchProfile,
  archProfile,
  CAYMAN,
  MARIANA,
  PROFILES,
  SUNDA,
} from "./arch-profile.js";
export {
  awsHalArchEngToXt,
  awsHalCaymanTpbDgeConfigureDma,
  awsHalCaymanTpbDgeGetRegisterOffsets,
  awsHalCaymanTpbXtConfigureFeatureFlag,
  XT_INVALID,
} from "./cayman-dge.js";
export {
  buildCaymanTransposeFlushPacket,
  buildCaymanTransposePacket,
  type CaymanTransposeRequest,
  classifySbuf,
  type DmaPacket,
  transposeControlCols,
  unpackTransposeAddress,
} from "./cayman-transpose.js";
export { CSR_ACCESSORS, type CsrSlot, csrAccessor, csrAddress, csrRead, csrWrite } from "./csr-accessors.js";
export {
  EMBEDDED_SEM_AXI_BASE,
  marianaInitEmbeddedSem,
  s2mSetEmbeddedSemFields,
  unpackEmbeddedSem,
} from "./embedded-sem.js";
export { archOf, HalDevice, halTpbGetArchType } from "./hal-device.js";
export { HAL_SYMBOLS } from "./hal-symbols.js";
export { khalCall } from "./khal-dispatch.js";
export { createHalDevice, KHAL_REGISTRARS, registerKhal, UNSUPPORTED_RETURN } from "./khal-registrars.js";
export { type EmbeddedSemFields, KHAL_SLOTS, khalSlotSpec, slotState } from "./khal-slots.js";
export {
  actSequencerForceRspcombEightDeep,
  B0_FEATURES_ENABLE,
  FP8_E4_DEFAULT,
  FP8_E5_DEFAULT,
  MARIANA_CSR_MODEL,
  marianaEnableB0Features,
  marianaReadSeed,
  marianaSetFp8Defaults,
  marianaSetUdmaQos,
  marianaWriteSeed,
  type SeedSlot,
  sdmaCceUserOffset,
  UDMA_QOS_CLASSES,
  UDMA_QOS_ENABLE,
} from "./mariana-csr.js";
export { q7MemoryBase } from "./q7-ucode.js";
export { RegisterFile } from "./register-file.js";
export { type HalRun, runHalSymbol } from "./run-symbol.js";
export {
  TOP_SP_COUNT,
  TPB_COUNT,
  topSpBase,
  topSpEvtSemIncBase,
  tpbBase,
  tpbEvtSemIncBase,
} from "./tpb-address-map.js";
export {
  buildTransposeDescriptor,
  buildTransposeMetaCtrl,
  type TransposeShape,
  verifyTransposeDimensions,
} from "./transpose-descriptor.js";
