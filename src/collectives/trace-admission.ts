/**
 * A trace's size known before the run: traceEvents yields one slice per packet and four metadata
 * events or more per rank (its process, its launch track and slice, a track per queue), plus the
 * wait arrows; a prepared size knows its packets (the scheduler counts them), so the fewest events
 * its trace can have is known before any leg is materialised. Writing the trace materialises the
 * plan's legs and their recorded times: host memory in proportion to the legs, estimated with the
 * admission's per-leg bytes. A trace past either bound is refused at once, with the estimate.
 */
import { UsageError } from "../bits/errors.js";
import {
  BASE_HOST_BYTES,
  DEFAULT_HOST_BUDGET,
  type HostBudget,
  LEG_HOST_BYTES,
} from "./device/host-memory.js";
import { formatBytes } from "./report/format-bytes.js";
import type { PreparedSize } from "./run-collective.js";

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
