/**
 * What sdmakit's lowering cannot do with a 0xBF word that libnrt's is_valid_sb2sb_collective passes:
 * register-sourced addresses, a destination that moves another count of elements than the source,
 * a pattern that leaves its SBUF partition or starts past the last one, event modes it does not
 * model. These are sdmakit's limits, not libnrt's rules, so they are a separate class of reason
 * (code `sdmakit-lowering`): `validate s3d3` lists them beside a valid verdict and `run s3d3`
 * refuses such a word with them (exit 1), so the two commands agree on every word.
 *
 * The limits are found by running the lowering itself (one declaration of each check: the
 * lowering's), not by a copy of its conditions.
 */
import { FieldError, UsageError } from "../bits/errors.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import { type ExecuteS3d3Options, planS3d3 } from "./pool-executor.js";
import type { S3d3Word } from "./s3d3-word.js";
import { eventsPlan } from "./sb2sb-events.js";

/** The code every lowering limit carries (never a libnrt rule's code: S3D3_RULES). */
export const S3D3_LOWERING_LIMIT = "sdmakit-lowering";

/** One thing sdmakit's lowering cannot do with a word libnrt calls valid. */
export interface S3d3LoweringLimit {
  readonly code: typeof S3D3_LOWERING_LIMIT;
  /** The field the lowering names (`dst.num_elem`, `src.pattern`, …), or `events` / `word`. */
  readonly field: string;
  readonly message: string;
}

/**
 * The lowering limits of a word libnrt's rules pass (call it only on a valid word), lowered as
 * `options` say (the core; `reduceOp` for a reduce-copy leg); empty when it lowers.
 * @throws FieldError for a core outside the device (a bad argument, not a limit).
 * @example s3d3LoweringLimits(word, archProfile("trn2"), { core: 0 }).map((l) => l.field) // ["dst.num_elem"]
 */
export function s3d3LoweringLimits(
  word: S3d3Word,
  arch: ArchProfile,
  options: ExecuteS3d3Options,
): S3d3LoweringLimit[] {
  const limits: S3d3LoweringLimit[] = [];
  const note = (field: string, e: unknown) => {
    // planS3d3's own argument check is a bad argument, not a limit of the word.
    const badCore = e instanceof FieldError && e.context === "execute-s3d3";
    if (badCore || !(e instanceof FieldError || e instanceof UsageError)) throw e;
    if (limits.some((l) => l.message === e.message)) return;
    limits.push({
      code: S3D3_LOWERING_LIMIT,
      field: e instanceof FieldError ? e.field : field,
      message: e.message,
    });
  };
  // The events first: the lowering checks them last, after the legs, so a leg limit would hide them.
  try {
    eventsPlan(word);
  } catch (e) {
    note("events", e);
  }
  try {
    planS3d3(arch, word, { ...options, nodes: 1 });
  } catch (e) {
    note("word", e);
  }
  return limits;
}
