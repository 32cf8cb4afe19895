/**
 * sdmakit runtime: the host side of libnrt's CCE path — remaps, gates and limits, the descriptor
 * builders (copy, CCE ADD / FMA / MIN / MAX, combo / EXT, GCE) and the vring writer that puts their
 * bytes on a queue's TX and RX rings and rings the doorbell. MODEL choices: docs/FIDELITY.md.
 * @module
 */
export * from "./build-request.js";
export * from "./cce-info.js";
export * from "./cce-packet.js";
export * from "./compute-descriptors.js";
export * from "./copy-packet.js";
export * from "./describe-written.js";
export * from "./descriptor.js";
export * from "./doorbell.js";
export * from "./gates.js";
export * from "./gradient-packet.js";
export * from "./layout-word.js";
export * from "./meta-ctrl.js";
export * from "./queue-registers.js";
export * from "./reduce-chunks.js";
export * from "./remaps.js";
export * from "./ring-full.js";
export * from "./validate-cce-info.js";
export * from "./vring.js";
export * from "./vring-pool.js";
