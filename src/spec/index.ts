export * from "./dtype.js";
export * from "./enums.js";
export * from "./gce-header.js";
export * from "./layouts/index.js";
export * from "./packet-model.js";
export * from "./ring-packet.js";
export * from "./tables.js";
export * from "./udma-regs.js";
