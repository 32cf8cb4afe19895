/**
 * sdmakit's public API: the front door (encode / decode / runCollective / sweep), then one namespace
 * per layer (lowest first). Each layer is also importable on its own as `sdmakit/<layer>`.
 * @example
 * import { decode, encode, runCollective } from "sdmakit";
 * decode("fma-desc", encode("fma-desc", { a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 })).scale; // 0.5
 * runCollective({ collective: "allr", ranks: 8 }).row.busbw;
 */

export {
  COLLECTIVE_DEFAULTS,
  type CollectiveOptions,
  type CollectiveResult,
  decode,
  encode,
  runCollective,
  type SweepOptions,
  sweep,
} from "./api.js";
export * as bits from "./bits/index.js";
export * as collectives from "./collectives/index.js";
export * as engine from "./engine/index.js";
export * as hal from "./hal/index.js";
export * as isa from "./isa/index.js";
export * as numerics from "./numerics/index.js";
export * as runtime from "./runtime/index.js";
export * as spec from "./spec/index.js";
