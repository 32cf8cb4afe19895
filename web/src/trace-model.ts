/**
 * The library's Chrome trace events (`collectives.traceOf`) as the timeline draws them: one lane
 * per (rank, DMA queue), the packet slices in each, and each semaphore wait as an arrow from the
 * end of the leg waited on to the start of the waiting leg.
 */
import type { TraceEvent } from "./run-protocol.js";

/** The category of the per-rank launch slice (report/trace.ts). */
const LAUNCH = "launch";

export interface Slice {
  readonly lane: number;
  readonly start: number;
  readonly end: number;
  readonly name: string;
  readonly kind: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface Arrow {
  readonly fromLane: number;
  readonly fromTime: number;
  readonly toLane: number;
  readonly toTime: number;
}

export interface TraceModel {
  readonly lanes: readonly string[];
  readonly slices: readonly Slice[];
  readonly arrows: readonly Arrow[];
  readonly kinds: readonly string[];
  /** DMA queue lanes and packet slices: the launch lane (tid 0) and its slices are neither. */
  readonly queues: number;
  readonly packets: number;
  /** Time span in µs. */
  readonly t0: number;
  readonly t1: number;
}

/** Lanes, slices and arrows of a trace. */
export function traceModel(events: readonly TraceEvent[]): TraceModel {
  const laneKeys = [...new Set(events.filter((e) => e.ph !== "M").map((e) => `${e.pid}:${e.tid}`))].sort(
    (a, b) => {
      const [pa, ta] = a.split(":").map(Number) as [number, number];
      const [pb, tb] = b.split(":").map(Number) as [number, number];
      return pa - pb || ta - tb;
    },
  );
  const laneOf = new Map(laneKeys.map((k, i) => [k, i]));
  const lane = (e: TraceEvent) => laneOf.get(`${e.pid}:${e.tid}`) as number;
  const slices: Slice[] = [];
  const starts = new Map<number, TraceEvent>();
  const arrows: Arrow[] = [];
  for (const e of events) {
    if (e.ph === "X")
      slices.push({
        lane: lane(e),
        start: e.ts,
        end: e.ts + (e.dur ?? 0),
        name: e.name,
        kind: e.cat ?? e.name,
        args: e.args ?? {},
      });
    else if (e.ph === "s" && e.id !== undefined) starts.set(e.id, e);
    else if (e.ph === "f" && e.id !== undefined) {
      const s = starts.get(e.id);
      if (s !== undefined) arrows.push({ fromLane: lane(s), fromTime: s.ts, toLane: lane(e), toTime: e.ts });
    }
  }
  const t0 = Math.min(...slices.map((s) => s.start), 0);
  const t1 = Math.max(...slices.map((s) => s.end), t0 + 1e-3);
  // Lane labels are the trace's own metadata names (process_name / thread_name), not re-derived ids.
  const names = new Map<string, string>();
  for (const e of events) {
    const name = e.ph === "M" ? e.args?.name : undefined;
    if (typeof name !== "string") continue;
    names.set(e.name === "process_name" ? `${e.pid}` : `${e.pid}:${e.tid}`, name);
  }
  const lanes = laneKeys.map((k) => {
    const pid = k.split(":")[0] as string;
    return `${names.get(pid) ?? `pid ${pid}`} · ${names.get(k) ?? k}`;
  });
  const packets = slices.filter((s) => s.kind !== LAUNCH);
  const queues = new Set(packets.map((s) => s.lane)).size;
  const kinds = [...new Set(slices.map((s) => s.kind))];
  return { lanes, slices, arrows, kinds, queues, packets: packets.length, t0, t1 };
}
