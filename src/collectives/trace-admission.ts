/**
 * A trace's size known before the run: traceEvents yields one slice per packet and four metadata
 * events or more per rank (its process, its launch track and slice, a track per queue), plus the
 * wait arrows; a prepared size knows its packets and legs (the scheduler counts them), so its
 * events are known before any leg is materialised. Two writers:
 * - materialised (traceEvents over `plan.legs` and a recorded schedule, the web page's): host memory
 *   in proportion to the legs, refused past the host budget ({@link admitTrace});
 * - streamed (trace-stream.ts, the CLI's): memory independent of the trace, its events and
 *   bytes estimated ({@link planTrace}); above a bound it is refused at once with the estimate, or
 *   on request sampled (a slice per leg, a stride of ranks) to fit.
 */
import { UsageError } from "../bits/errors.js";
import {
  BASE_HOST_BYTES,
  DEFAULT_HOST_BUDGET,
  type HostBudget,
  LEG_HOST_BYTES,
} from "./device/host-memory.js";
import { formatBytes } from "./report/format-bytes.js";
import {
  type CollectiveRun,
  candidateRequests,
  countForSize,
  type PreparedSize,
  prepareSize,
  topologyOf,
} from "./run-collective.js";
import { countLegs, type LegCounts } from "./timing/schedule.js";
import type { TraceSampling } from "./trace-stream.js";

/** A bigger trace does not open in Perfetto's browser UI anyway; trace a smaller size. */
export const MAX_TRACE_EVENTS = 5_000_000;

/** Metadata events per rank at the least: process name, launch track name, launch slice, one queue. */
const RANK_EVENTS = 4;

/** The fewest events the trace of a prepared size has (its packets' slices and each rank's tracks). */
export function traceEventFloor(prepared: PreparedSize): number {
  return prepared.timing.packets + RANK_EVENTS * prepared.run.ranks;
}

/** Host bytes the trace's materialised legs and recorded schedule take (MODEL: LEG_HOST_BYTES a leg). */
export function traceHostBytes(prepared: PreparedSize): number {
  const legs = Object.values(prepared.timing.legKinds).reduce((a, b) => a + b, 0);
  return BASE_HOST_BYTES + legs * LEG_HOST_BYTES;
}

/**
 * Refuse, before the run, a trace of `prepared` above `maxEvents` events or above the host memory
 * it may use (the run's budget, else DEFAULT_HOST_BUDGET).
 * @throws UsageError naming the size, the estimate and the bound.
 */
export function admitTrace(
  prepared: PreparedSize,
  maxEvents: number = MAX_TRACE_EVENTS,
  budget: HostBudget = prepared.run.hostBudget ?? DEFAULT_HOST_BUDGET,
): void {
  const what = `the trace of ${prepared.run.collective} at ${prepared.size} B`;
  const events = traceEventFloor(prepared);
  if (events > maxEvents)
    throw new UsageError(
      `${what} has at least ${events} events (${prepared.timing.packets} packets); the bound is ${maxEvents}: trace a smaller size`,
    );
  const bytes = traceHostBytes(prepared);
  if (bytes > budget.bytes)
    throw new UsageError(
      `${what} needs ≈ ${formatBytes(bytes)} of host memory for its legs; the budget is ${formatBytes(budget.bytes)} (${budget.source}): trace a smaller size`,
    );
}

/** A streamed trace's file is refused past this many bytes (it is written, not held: a disk bound). */
export const MAX_TRACE_BYTES = 2 ** 30;

/**
 * MODEL: bytes of one event as written — a slice ≈ 181, an arrow's end ≈ 100, a track's name ≈ 87
 * measured on an 8-rank ring trace — with room for the longer numbers of larger plans.
 */
const SLICE_BYTES = 210;
const ARROW_END_BYTES = 120;
const TRACK_BYTES = 100;
/** MODEL: wait arrows per leg, above the most seen (RDH 1.66 a leg, ring 0.93, mesh 0.97). */
const ARROWS_PER_LEG = 2;
/** Events naming a rank's tracks besides one per queue: process, launch track, launch slice. */
const RANK_TRACK_EVENTS = 3;

/** What a streamed trace's estimate reads of a size: its run, topology, legs and packets. */
export interface TraceShape extends Pick<PreparedSize, "run" | "size" | "topology"> {
  readonly timing: LegCounts;
}

/**
 * The trace shape of `run` at `size` for {@link planTrace}: a timing-only run of one algorithm has
 * its legs and packets counted from the plan (timing/schedule.ts countLegs: a 512-rank 1 GiB ring's
 * in ≈ 0.16 s, not the ≈ 2 s of scheduling it), so a trace above its bound is refused at once; any
 * other run is prepared (`auto` needs the schedule to know its algorithm, a functional run its
 * admission), and `prepared` is that preparation, for the run to use.
 * @throws UsageError as {@link prepareSize}.
 */
export function traceShapeOf(
  run: CollectiveRun,
  size: number,
): { readonly shape: TraceShape; readonly prepared?: PreparedSize } {
  const topology = topologyOf(run);
  const candidates = candidateRequests(run, topology, countForSize(run, run.ranks, size));
  const req = candidates[0];
  if (!run.timingOnly || candidates.length !== 1 || req === undefined) {
    const prepared = prepareSize(run, size);
    return { shape: prepared, prepared };
  }
  return { shape: { run, size, topology, timing: countLegs(req, { sr: run.srSeed !== undefined }) } };
}

/** A trace's estimate from the plan, before the run, and how it is sampled. */
export interface TracePlan {
  readonly events: number;
  readonly bytes: number;
  readonly sampling: TraceSampling;
}

/** The events and bytes of `prepared`'s streamed trace under `sampling` (MODEL sizes above). */
export function estimateTrace(prepared: TraceShape, sampling: TraceSampling): TracePlan {
  const { ranks } = prepared.run;
  const legs = Object.values(prepared.timing.legKinds).reduce((a, b) => a + b, 0);
  const traced = Math.ceil(ranks / sampling.rankStride);
  const share = traced / ranks;
  const slices = (sampling.perLeg ? legs : prepared.timing.packets) * share;
  const arrowEnds = 2 * ARROWS_PER_LEG * legs * share;
  const tracks = traced * (RANK_TRACK_EVENTS + prepared.topology.channelsPerRank);
  return {
    events: Math.ceil(slices + arrowEnds + tracks),
    bytes: Math.ceil(slices * SLICE_BYTES + arrowEnds * ARROW_END_BYTES + tracks * TRACK_BYTES),
    sampling,
  };
}

/**
 * How `prepared`'s trace is written within `maxEvents` events and `maxBytes` bytes, decided before
 * the run: whole when it fits; else with `sample` one slice per leg, of every rank or of the
 * fewest ranks of a stride (0, s, 2s, …) that fit.
 * @throws UsageError with the estimate when the whole trace is above a bound and `sample` is off,
 *   or not even one rank's fits.
 */
export function planTrace(
  prepared: TraceShape,
  options: { readonly sample?: boolean; readonly maxEvents?: number; readonly maxBytes?: number } = {},
): TracePlan {
  const maxEvents = options.maxEvents ?? MAX_TRACE_EVENTS;
  const maxBytes = options.maxBytes ?? MAX_TRACE_BYTES;
  const fits = (p: TracePlan) => p.events <= maxEvents && p.bytes <= maxBytes;
  const whole = estimateTrace(prepared, { rankStride: 1, perLeg: false });
  if (fits(whole)) return whole;
  const bound = `the bound is ${maxEvents} events and ${formatBytes(maxBytes)}`;
  const what = `the trace of ${prepared.run.collective} at ${prepared.size} B`;
  const estimate = `≈ ${whole.events} events (${prepared.timing.packets} packets) and ≈ ${formatBytes(whole.bytes)}`;
  if (options.sample !== true)
    throw new UsageError(
      `${what} has ${estimate}; ${bound}: trace a smaller size, or sample it (--trace-sample: a slice per leg, of a stride of ranks)`,
    );
  for (let rankStride = 1; rankStride <= prepared.run.ranks; rankStride++) {
    const sampled = estimateTrace(prepared, { rankStride, perLeg: true });
    if (fits(sampled)) return sampled;
  }
  throw new UsageError(`${what} has ${estimate}; ${bound}, which even one rank's sampled trace exceeds`);
}
