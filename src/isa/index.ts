/** The TPB instruction layer: the S3D3 collective word (0xBF), its validator and its lowering. */
export * from "./addr4.js";
export * from "./header-events-model.js";
export * from "./opcodes.js";
export * from "./pool-executor.js";
export * from "./s3d3-lowering-limits.js";
export * from "./s3d3-reasons.js";
export * from "./s3d3-word.js";
export * from "./sb2sb-events.js";
export * from "./sb2sb-lowering.js";
export * from "./sb2sb-neighbors.js";
export * from "./sb2sb-packets.js";
export * from "./sb2sb-queues.js";
export * from "./sb2sb-semaphores.js";
export * from "./sb2sb-validator.js";
export * from "./tensor3d-walk.js";
