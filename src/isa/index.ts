/**
 * sdmakit isa: the TPB instruction layer — the S3D3 collective word (0xBF) as its layout's shape,
 * its validator, the POOL decode that lowers it to SB2SB legs, and running it on the engine.
 * @module
 */
export { type Addr4, addr4FromU32, addr4ToU32, issuesWithAddr4Arms } from "./addr4.js";
export { UPDATE_MODE_NAMES, WAIT_MODE_NAMES } from "./header-events-model.js";
export { isPoolEngineOpcode, isPseudoOp, isPseudoOpByTopBits, PSEUDO_OPCODES } from "./opcodes.js";
export { executeS3d3, planS3d3, type S3d3Done, type S3d3Execution } from "./pool-executor.js";
export { s3d3LoweringLimits } from "./s3d3-lowering-limits.js";
export { S3D3_REASON_CODES, S3D3_RULES, type S3d3ReasonCode } from "./s3d3-reasons.js";
export {
  decodeS3d3,
  encodeS3d3,
  type PatternName,
  patternFields,
  S3D3_BYTES,
  type S3d3Word,
  type Tensor3d,
  tensorOf,
} from "./s3d3-word.js";
export { eventsPlan } from "./sb2sb-events.js";
export {
  encdDmaCopySb2sb,
  encdDmaReduceCopySb2sb,
  lowerS3d3Word,
  SB2SB_MULTI_NODE_MESSAGE,
  type Sb2sbLeg,
  type Sb2sbRequest,
} from "./sb2sb-lowering.js";
export { resolveNeighbor, type Sb2sbPlace } from "./sb2sb-neighbors.js";
export { type Sb2sbPacket, sb2sbLegPackets } from "./sb2sb-packets.js";
export { postSb2sbLegs, Sb2sbQueues, sb2sbChannelQueue } from "./sb2sb-queues.js";
export { isValidSb2sbCollective, t3dElementCount } from "./sb2sb-validator.js";
export { moveSegments, tensor3dElementOffsets } from "./tensor3d-walk.js";
