/**
 * The library's Chrome trace events (`collectives.traceEvents`) as the timeline draws them: one lane
 * per (rank, DMA queue), the packet slices of each lane in columns (typed arrays, sorted by lane then
 * start), and each semaphore wait as an arrow from the end of the leg waited on to the start of the
 * waiting leg. Built once, in the run worker, from the events as they are yielded (the events are
 * never held as a whole), and sent to the page as transferable buffers: the page does no parsing.
 */
import type { TraceEvent } from "./run-protocol.js";

/** The category of the per-rank launch slice (report/trace.ts). */
const LAUNCH = "launch";

export interface TraceModel {
  readonly lanes: readonly string[];
  readonly kinds: readonly string[];
  readonly names: readonly string[];
  /** Slices of lane l are indexes laneFirst[l] .. laneFirst[l + 1] - 1, by start. */
  readonly laneFirst: Uint32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** The largest end of the lane's slices up to this one (for a binary search on visible ends). */
  readonly endMax: Float64Array;
  readonly lane: Uint32Array;
  readonly kind: Uint16Array;
  readonly name: Uint32Array;
  /** Numeric arguments, a column per key (NaN where a slice has none). */
  readonly argKeys: readonly string[];
  readonly args: readonly Float64Array[];
  /** The other arguments (text), by slice index. */
  readonly textArgs: readonly (readonly [number, Readonly<Record<string, unknown>>])[];
  readonly arrowFromLane: Uint32Array;
  readonly arrowFromTime: Float64Array;
  readonly arrowToLane: Uint32Array;
  readonly arrowToTime: Float64Array;
  /** DMA queue lanes and packet slices: the launch lane (tid 0) and its slices are neither. */
  readonly queues: number;
  readonly packets: number;
  /** Time span in µs. */
  readonly t0: number;
  readonly t1: number;
}

/** The buffers of a model, to transfer it to the page without a copy. */
export function modelBuffers(m: TraceModel): ArrayBuffer[] {
  const arrays = [m.laneFirst, m.start, m.end, m.endMax, m.lane, m.kind, m.name, ...m.args];
  arrays.push(m.arrowFromLane, m.arrowFromTime, m.arrowToLane, m.arrowToTime);
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/** Interns strings to small integers. */
class Interner {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  of(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

/** The slices and arrows as read, before sorting (lanes by first appearance). */
interface Raw {
  laneKeys: Interner;
  kinds: Interner;
  names: Interner;
  argKeys: Interner;
  lane: number[];
  start: number[];
  end: number[];
  kind: number[];
  name: number[];
  args: number[][];
  textArgs: Map<number, Record<string, unknown>>;
  arrows: number[][];
  labels: Map<string, string>;
}

function readEvents(events: Iterable<TraceEvent>): Raw {
  const raw: Raw = {
    laneKeys: new Interner(),
    kinds: new Interner(),
    names: new Interner(),
    argKeys: new Interner(),
    lane: [],
    start: [],
    end: [],
    kind: [],
    name: [],
    args: [],
    textArgs: new Map(),
    arrows: [[], [], [], []],
    labels: new Map(),
  };
  const starts = new Map<number, { lane: number; ts: number }>();
  for (const e of events) {
    if (e.ph === "M") {
      // Lane labels are the trace's own metadata names (process_name / thread_name).
      const name = e.args?.name;
      if (typeof name === "string")
        raw.labels.set(e.name === "process_name" ? `${e.pid}` : `${e.pid}:${e.tid}`, name);
      continue;
    }
    const lane = raw.laneKeys.of(`${e.pid}:${e.tid}`);
    if (e.ph === "X") addSlice(raw, e, lane);
    else if (e.ph === "s" && e.id !== undefined) starts.set(e.id, { lane, ts: e.ts });
    else if (e.ph === "f" && e.id !== undefined) {
      const s = starts.get(e.id);
      if (s === undefined) continue;
      starts.delete(e.id);
      const [fl, ft, tl, tt] = raw.arrows as [number[], number[], number[], number[]];
      fl.push(s.lane);
      ft.push(s.ts);
      tl.push(lane);
      tt.push(e.ts);
    }
  }
  return raw;
}

function addSlice(raw: Raw, e: TraceEvent, lane: number): void {
  const i = raw.start.length;
  raw.lane.push(lane);
  raw.start.push(e.ts);
  raw.end.push(e.ts + (e.dur ?? 0));
  raw.kind.push(raw.kinds.of(e.cat ?? e.name));
  raw.name.push(raw.names.of(e.name));
  let text: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(e.args ?? {})) {
    if (typeof v === "number") {
      const c = raw.argKeys.of(k);
      raw.args[c] ??= [];
      (raw.args[c] as number[])[i] = v;
    } else {
      text ??= {};
      text[k] = v;
    }
  }
  if (text !== undefined) raw.textArgs.set(i, text);
}

/** Lanes in (pid, tid) order: old lane index → new. */
function laneOrder(raw: Raw): { order: number[]; remap: Uint32Array } {
  const keys = raw.laneKeys.list;
  const order = keys
    .map((k, i) => ({ i, pt: k.split(":").map(Number) as [number, number] }))
    .sort((a, b) => a.pt[0] - b.pt[0] || a.pt[1] - b.pt[1])
    .map((x) => x.i);
  const remap = new Uint32Array(keys.length);
  order.forEach((old, i) => {
    remap[old] = i;
  });
  return { order, remap };
}

/** Lanes, slices and arrows of a trace, in columns. */
export function traceModel(events: Iterable<TraceEvent>): TraceModel {
  const raw = readEvents(events);
  const { order, remap } = laneOrder(raw);
  const n = raw.start.length;
  const idx = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) =>
      (remap[raw.lane[a] as number] as number) - (remap[raw.lane[b] as number] as number) ||
      (raw.start[a] as number) - (raw.start[b] as number),
  );
  const pick = <T extends Float64Array | Uint32Array | Uint16Array>(out: T, col: readonly number[]) => {
    idx.forEach((old, i) => {
      out[i] = col[old] ?? Number.NaN;
    });
    return out;
  };
  const lane = pick(
    new Uint32Array(n),
    raw.lane.map((l) => remap[l] as number),
  );
  const start = pick(new Float64Array(n), raw.start);
  const end = pick(new Float64Array(n), raw.end);
  const laneFirst = new Uint32Array(order.length + 1);
  const endMax = new Float64Array(n);
  for (let i = 0, l = -1; i < n; i++) {
    const li = lane[i] as number;
    endMax[i] = li === l ? Math.max(endMax[i - 1] as number, end[i] as number) : (end[i] as number);
    for (; l < li; l++) laneFirst[l + 1] = i;
  }
  for (let l = n === 0 ? 0 : (lane[n - 1] as number) + 1; l <= order.length; l++) laneFirst[l] = n;
  const newIndex = new Uint32Array(n);
  idx.forEach((old, i) => {
    newIndex[old] = i;
  });
  const [fl, ft, tl, tt] = raw.arrows as [number[], number[], number[], number[]];
  const lanes = order.map((old) => {
    const key = raw.laneKeys.list[old] as string;
    const pid = key.split(":")[0] as string;
    return `${raw.labels.get(pid) ?? `pid ${pid}`} · ${raw.labels.get(key) ?? key}`;
  });
  const launch = raw.kinds.list.indexOf(LAUNCH);
  const kind = pick(new Uint16Array(n), raw.kind);
  let packets = 0;
  const queueLanes = new Set<number>();
  for (let i = 0; i < n; i++)
    if (kind[i] !== launch) {
      packets++;
      queueLanes.add(lane[i] as number);
    }
  return {
    lanes,
    kinds: raw.kinds.list,
    names: raw.names.list,
    laneFirst,
    start,
    end,
    endMax,
    lane,
    kind,
    name: pick(new Uint32Array(n), raw.name),
    argKeys: raw.argKeys.list,
    args: raw.argKeys.list.map((_, c) => pick(new Float64Array(n), raw.args[c] ?? [])),
    textArgs: [...raw.textArgs].map(([i, a]) => [newIndex[i] as number, a] as const),
    arrowFromLane: Uint32Array.from(fl, (l) => remap[l] as number),
    arrowFromTime: Float64Array.from(ft),
    arrowToLane: Uint32Array.from(tl, (l) => remap[l] as number),
    arrowToTime: Float64Array.from(tt),
    queues: queueLanes.size,
    packets,
    t0: n === 0 ? 0 : Math.min(0, ...minMax(start)),
    t1: n === 0 ? 1e-3 : Math.max(...minMax(endMax), 1e-3),
  };
}

/** The least and greatest of a column (no spread of a large array into Math.min). */
function minMax(a: Float64Array): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of a) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** The first slice of `lane` that ends at or after `t` (binary search on endMax). */
export function firstEndingAfter(m: TraceModel, lane: number, t: number): number {
  let lo = m.laneFirst[lane] as number;
  let hi = m.laneFirst[lane + 1] as number;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((m.endMax[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first slice index in [lo, hi) that starts at or after `t`. */
export function firstStartingAt(m: TraceModel, lo: number, hi: number, t: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((m.start[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A slice's arguments as `key value` pairs (numeric columns, then text). */
export function sliceArgs(m: TraceModel, i: number): [string, unknown][] {
  const out: [string, unknown][] = [];
  m.argKeys.forEach((k, c) => {
    const v = m.args[c]?.[i];
    if (v !== undefined && !Number.isNaN(v)) out.push([k, v]);
  });
  const text = m.textArgs.find(([j]) => j === i)?.[1];
  if (text !== undefined) out.push(...Object.entries(text));
  return out;
}
