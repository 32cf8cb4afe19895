/**
 * The rules `runCollective`, `sweep` and `collectiveRun` check their options by (bits/option-check):
 * every key any of them takes, each by a frozen list or a range, so a value from plain JavaScript
 * that the types would refuse is a FieldError naming the option, not a silent default, a wrong
 * report or an internal TypeError. Deeper shapes (groups, streams) are checked by their own modules.
 */
import { checkOptions, type OptionRules } from "../bits/option-check.js";
import { PROFILES } from "../hal/arch-profile.js";
import { COLLECTIVE_DTYPES } from "./check/dtypes.js";
import { ALGORITHMS, COLLECTIVES, REDUCE_OPS } from "./plan/plan.js";
import { MAX_RANKS } from "./topology/topology.js";

const MAX_BYTES = Number.MAX_SAFE_INTEGER;
/** The most threads a run takes: beyond the cores of any host it would only add workers. */
export const MAX_THREADS = 256;
const ARCH_NAMES = PROFILES.map((p) => p.name);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const COLLECTIVE_RULES: OptionRules = Object.freeze({
  collective: { oneOf: Object.freeze([...COLLECTIVES]) },
  ranks: { integer: [1, MAX_RANKS] },
  nodes: { integer: [1, MAX_RANKS] },
  arch: {
    check: (v) =>
      typeof v === "string" || (isObject(v) && ARCH_NAMES.includes(v.name as (typeof ARCH_NAMES)[number])),
    allowed: `an arch name, codename or hal_target string, or a profile (${ARCH_NAMES.join(" | ")})`,
  },
  algorithm: { oneOf: Object.freeze(["auto", ...ALGORITHMS]) },
  dtype: {
    check: (v) => typeof v === "string" || COLLECTIVE_DTYPES.includes(v as never),
    allowed: "a dtype name (bf16) or a collective dtype's code",
  },
  op: { oneOf: Object.freeze([...REDUCE_OPS]) },
  check: { oneOf: Object.freeze(["exact", "reference", "none"]) },
  timingOnly: { boolean: true },
  threads: { integer: [1, MAX_THREADS] },
  seed: { integer: [0, 0xffffffff] },
  sr: { boolean: true },
  sb2sb: { boolean: true },
  lnc: { oneOf: Object.freeze([1, 2]) },
  hostBudget: {
    check: (v) => isObject(v) && typeof v.bytes === "number" && v.bytes >= 0 && typeof v.source === "string",
    allowed: "{ bytes: a number ≥ 0 (Infinity: no limit), source: a string }",
  },
  replicaGroups: { check: Array.isArray, allowed: "an array of groups, each an array of ranks" },
  dataParallelDimension: { integer: [1, MAX_RANKS] },
  minBytes: { integer: [1, MAX_BYTES] },
  maxBytes: { integer: [1, MAX_BYTES] },
  factor: { number: [1, Number.MAX_VALUE], above: 1 },
  step: { integer: [1, MAX_BYTES] },
  streams: { check: Array.isArray, allowed: "an array of streams, each an object with a collective" },
  size: { integer: [1, MAX_BYTES] },
  pairs: { check: Array.isArray, allowed: "an array of [source, target] rank pairs" },
  timingProfile: { check: isObject, allowed: "a timing profile object (sdmakit calibrate's file, parsed)" },
  metadata: {
    check: Array.isArray,
    allowed: "an array of {send_counts, send_displs, recv_counts?, recv_displs?}",
  },
});

/**
 * Check a collective's options (runCollective / sweep / collectiveRun).
 * @throws FieldError naming `context(option)`, the value and what is allowed.
 */
export function checkCollectiveOptions(context: string, options: unknown): void {
  checkOptions(context, options, COLLECTIVE_RULES, ["collective"]);
}
