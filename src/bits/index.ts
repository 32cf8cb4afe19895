export * from "./bitfield.js";
export * from "./declare.js";
export * from "./errors.js";
export * from "./hex.js";
export * from "./layout.js";
export * from "./lookup.js";
export * from "./shape.js";
