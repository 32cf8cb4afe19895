/**
 * A trace written as it is produced: the scheduler's placing pass (timing/schedule.ts, every rank
 * placed) tells each leg as it is placed and the earlier writes it waits on, and each becomes its
 * events at once, handed to the writer in chunks of text. Nothing is kept per leg or per packet —
 * only which tracks are named (a byte per rank and per queue) — so the host memory a trace takes is
 * the scheduler's, whatever the trace's length. The events are those of traceEvents (trace.ts) for
 * the same plan: the same slices at the same times, the same arrows (numbered in order here).
 * A sampled trace (trace-admission.ts planTrace) has one slice per leg and the ranks of a stride.
 */
import { UsageError } from "../bits/errors.js";
import type { LegSpec } from "./plan/plan-builder.js";
import {
  legSlices,
  queueTrack,
  rankTrack,
  type SliceContext,
  type TraceEvent,
  waitArrow,
} from "./report/trace.js";
import type { PreparedSize } from "./run-collective.js";
import type { LegObserver } from "./timing/placer.js";
import { prepareSchedule } from "./timing/schedule.js";

/** How a trace is cut down to fit its bound (trace-admission.ts); the full trace: 1 and false. */
export interface TraceSampling {
  /** Trace ranks 0, s, 2s, …: arrows only between traced ranks. */
  readonly rankStride: number;
  /** One slice per leg (its packets in its args) instead of one per packet. */
  readonly perLeg: boolean;
}

/** Events are joined into text this many at a time: a chunk, not the trace, is what is held. */
const CHUNK_EVENTS = 4096;

/** The placement's observer that turns each placed leg into its trace events. */
class TraceObserver implements LegObserver {
  private readonly rankNamed: Uint8Array;
  private readonly queueNamed: Uint8Array;
  /** Writes the leg being placed waits on: (rank, queue, end ns) triples. */
  private readonly waits: number[] = [];
  private legs = 0;
  private arrows = 0;

  constructor(
    private readonly ctx: SliceContext,
    private readonly channels: number,
    ranks: number,
    private readonly sampling: TraceSampling,
    private readonly emit: (e: TraceEvent) => void,
  ) {
    this.rankNamed = new Uint8Array(ranks);
    this.queueNamed = new Uint8Array(ranks * channels);
  }

  private traced(rank: number): boolean {
    return rank % this.sampling.rankStride === 0;
  }

  waited(rank: number, queue: number, endNs: number): void {
    if (!this.traced(rank)) return;
    const w = this.waits;
    for (let k = 0; k < w.length; k += 3)
      if (w[k] === rank && w[k + 1] === queue && w[k + 2] === endNs) return;
    w.push(rank, queue, endNs);
  }

  placed(leg: LegSpec, startNs: number, endNs: number): void {
    const id = this.legs++;
    const w = this.waits;
    if (!this.traced(leg.rank)) {
      w.length = 0;
      return;
    }
    this.nameTracks(leg.rank, leg.queue);
    for (const e of legSlices(this.ctx, leg, id, startNs, endNs, this.sampling.perLeg)) this.emit(e);
    const to = { rank: leg.rank, queue: leg.queue, ts: (this.ctx.launchNs + startNs) / 1000 };
    for (let k = 0; k < w.length; k += 3) {
      const rank = w[k] as number;
      const queue = w[k + 1] as number;
      if (rank === leg.rank && queue === leg.queue) continue;
      const from = { rank, queue, ts: (this.ctx.launchNs + (w[k + 2] as number)) / 1000 };
      for (const e of waitArrow(this.arrows++, from, to)) this.emit(e);
    }
    w.length = 0;
  }

  /** A rank's tracks and a queue's, the first time a leg lands there. */
  private nameTracks(rank: number, queue: number): void {
    if (this.rankNamed[rank] === 0) {
      this.rankNamed[rank] = 1;
      for (const e of rankTrack(rank, this.ctx.launchNs)) this.emit(e);
    }
    const q = rank * this.channels + queue;
    if (this.queueNamed[q] === 0) {
      this.queueNamed[q] = 1;
      this.emit(queueTrack(rank, queue));
    }
  }
}

/**
 * Place a prepared size's legs once more, every rank, and hand each event to `emit` as its leg is
 * placed. @throws UsageError as the scheduler.
 */
export function streamTraceEvents(
  prepared: PreparedSize,
  sampling: TraceSampling,
  emit: (e: TraceEvent) => void,
): void {
  const { req, run } = prepared;
  const topology = req.topology;
  const ctx = { profile: run.profile, dtype: req.dtype, op: req.op, launchNs: topology.timing.launchNs };
  const observer = new TraceObserver(ctx, topology.channelsPerRank, topology.ranks, sampling, emit);
  prepareSchedule(req, { sr: run.srSeed !== undefined, observer }).place();
}

/** Which ranks and legs a written trace shows, its event bound, and the `otherData` it ends with. */
export interface TraceWrite {
  readonly sampling: TraceSampling;
  readonly maxEvents: number;
  readonly otherData: object;
}

/**
 * Write the Chrome trace JSON of a prepared size through `write`, chunk by chunk as the legs are
 * placed, `otherData` last. More than `maxEvents` events (an estimate proved low) stops it.
 * Returns the events written.
 * @throws UsageError past `maxEvents` (the caller then discards what was written).
 * @example writeTrace(prepared, { sampling: { rankStride: 1, perLeg: false }, maxEvents: 5e6, otherData: {} }, (t) => file.write(t));
 */
export function writeTrace(
  prepared: PreparedSize,
  options: TraceWrite,
  write: (text: string) => void,
): number {
  const { sampling, maxEvents, otherData } = options;
  write('{"traceEvents":[\n');
  let chunk: string[] = [];
  let count = 0;
  // The separator goes before a chunk, so no chunk ends the list with a comma.
  const flush = () => {
    if (chunk.length === 0) return;
    write(`${count > chunk.length ? ",\n" : ""}${chunk.join(",\n")}`);
    chunk = [];
  };
  streamTraceEvents(prepared, sampling, (e) => {
    if (++count > maxEvents)
      throw new UsageError(
        `the trace of ${prepared.run.collective} at ${prepared.size} B has more than ${maxEvents} events; trace a smaller size`,
      );
    chunk.push(JSON.stringify(e));
    if (chunk.length === CHUNK_EVENTS) flush();
  });
  flush();
  const meta = JSON.stringify({ ...otherData, sampling });
  write(`\n],"displayTimeUnit":"ns","otherData":${meta}}\n`);
  return count;
}
