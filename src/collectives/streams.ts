/**
 * Multistream and replica groups for the library's front door (sweep.ts): nccom-test
 * `--streams-json` runs several collectives at once, each over its replica groups, and prints a
 * table per stream. A step of the sweep runs every stream once, concurrently (run-concurrent.ts).
 *
 * MODEL (sizes): stream k sweeps its own sizes; the sweep has as many steps as the longest stream
 * has sizes, and a shorter stream repeats its last size — the guide's example prints 11 rows of a
 * 1 KiB all-gather beside an 11-size all-reduce sweep.
 */
import { didYouMean } from "../bits/did-you-mean.js";
import { UsageError } from "../bits/errors.js";
import { COLLECTIVES, type CollectiveName } from "./plan/plan.js";
import { type GroupOptions, groupsOf } from "./replica-groups.js";
import type { CollectiveRun } from "./run-collective.js";
import {
  admitConcurrentSize,
  type ChosenRequests,
  runConcurrentSize,
  type StreamResult,
  type StreamRun,
} from "./run-concurrent.js";
import type { SweepOptions } from "./sweep.js";

/**
 * One stream of a multistream run: a collective over groups, with its own algorithm, dtype, op and
 * sizes (per group, as a collective of the group's ranks counts them); what it leaves out is the run's.
 */
export interface StreamOptions
  extends GroupOptions,
    Pick<SweepOptions, "algorithm" | "dtype" | "op" | "minBytes" | "maxBytes" | "factor" | "step"> {
  readonly collective: CollectiveName;
}

/** The most streams one run may have. */
export const MAX_STREAMS = 64;

/** A stream's run and its sizes, made by the front door from the run's options and the stream's. */
export interface PreparedStream {
  readonly stream: StreamRun;
  readonly sizes: readonly number[];
}

/**
 * Check what a caller gave as streams (a JS caller's or a JSON file's values): the shape, and each
 * stream's collective. Field errors name `streams[k].field`.
 * @throws UsageError naming the stream and field.
 */
export function checkStreams(streams: unknown): readonly StreamOptions[] {
  if (!Array.isArray(streams) || streams.length === 0 || streams.length > MAX_STREAMS)
    throw new UsageError(`streams: expected 1..${MAX_STREAMS} streams, each an object with a collective`);
  streams.forEach((s: unknown, k) => {
    if (typeof s !== "object" || s === null || Array.isArray(s))
      throw new UsageError(`streams[${k}]: expected an object with a collective`);
    const c = (s as { collective?: unknown }).collective;
    if (typeof c !== "string" || !(COLLECTIVES as readonly string[]).includes(c)) {
      throw new UsageError(
        `streams[${k}].collective ${JSON.stringify(c)}: expected one of ${COLLECTIVES.join(", ")}${didYouMean(String(c), COLLECTIVES)}`,
      );
    }
  });
  return streams as StreamOptions[];
}

/** Run `f`, naming `field` in front of a UsageError's message. */
export function inField<T>(field: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UsageError) throw new UsageError(`${field}: ${e.message}`);
    throw e;
  }
}

/**
 * A stream's groups over the run's ranks: its replica groups, else all ranks as one group.
 * @throws UsageError as groupsOf; --sb2sb with groups (SB2SB pairs are a chip's LNC pairs).
 */
export function streamGroups(run: CollectiveRun, options: GroupOptions): number[][] {
  const groups = groupsOf(run.ranks, options);
  if (groups === undefined) return [Array.from({ length: run.ranks }, (_, r) => r)];
  if (run.sb2sb === true) throw new UsageError("sb2sb with replica groups or streams: not modelled");
  return groups;
}

/**
 * Run the streams' steps, yielding each step's results (one per stream, stream order) as it finishes.
 * @throws UsageError / DeviceFault as {@link runConcurrentSize}.
 */
export function* concurrentSteps(prepared: readonly PreparedStream[]): Generator<StreamResult[]> {
  const steps = Math.max(...prepared.map((p) => p.sizes.length));
  const sizesAt = (i: number) => prepared.map((p) => p.sizes[Math.min(i, p.sizes.length - 1)] as number);
  const streams = prepared.map((p) => p.stream);
  const chosen: ChosenRequests = new Map();
  admitConcurrentSize(streams, sizesAt(steps - 1), chosen);
  for (let i = 0; i < steps; i++) yield runConcurrentSize(streams, sizesAt(i), chosen);
}
