/**
 * Chrome trace-event JSON (opens in Perfetto / chrome://tracing): one process per rank, one thread
 * (track) per DMA queue, one slice per packet — the descriptors one add_dma_packet(_cce) call wrote
 * — and a flow arrow from each leg a leg waits on (a semaphore wait across queues) to the leg.
 * Packet slices split their leg's scheduled time evenly (MODEL: the schedule places legs; packets
 * of one leg run back to back on their queue). Rank r is pid r + 1 and queue q is tid q + 1 (Perfetto
 * treats pid 0 as the idle task); tid 0 of each rank holds the launch slice, so the trace ends where
 * the table's time does. Events are yielded one by one so a writer can stream them.
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import { legAluOp } from "../plan/leg-math.js";
import { legPacketCount } from "../plan/packets.js";
import type { Plan } from "../plan/plan.js";
import type { Schedule } from "../timing/schedule.js";

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: number;
  cat?: string;
  bp?: string;
  args?: Record<string, unknown>;
}

type Leg = Plan["legs"][number];

/** What a leg's slices need besides the leg: the arch, the plan's dtype and op, the launch. */
export interface SliceContext {
  readonly profile: ArchProfile;
  readonly dtype: Plan["dtype"];
  readonly op: Plan["op"];
  readonly launchNs: number;
}

/** The leg fields a trace shows. */
export type TracedLeg = Pick<Leg, "kind" | "rank" | "queue" | "step" | "count" | "srcs" | "dsts">;

/** Trace time (µs after the trace's start) of `ns` after the launch. */
const usOf = (ctx: SliceContext, ns: number) => (ctx.launchNs + ns) / 1000;

/**
 * The trace events of a scheduled plan, one at a time.
 * @example for (const e of traceEvents(plan, schedule, profile)) write(JSON.stringify(e));
 */
export function* traceEvents(plan: Plan, schedule: Schedule, profile: ArchProfile): Generator<TraceEvent> {
  const ctx = { profile, dtype: plan.dtype, op: plan.op, launchNs: schedule.launchNs };
  const named = new Set<string>();
  for (const leg of plan.legs) {
    if (!named.has(`${leg.rank}`)) {
      named.add(`${leg.rank}`);
      yield* rankTrack(leg.rank, schedule.launchNs);
    }
    if (!named.has(`${leg.rank}:${leg.queue}`)) {
      named.add(`${leg.rank}:${leg.queue}`);
      yield queueTrack(leg.rank, leg.queue);
    }
    yield* legSlices(ctx, leg, leg.id, schedule.start[leg.id]!, schedule.end[leg.id]!, false);
    yield* waitArrows(plan, schedule, leg, ctx);
  }
}

/** A rank's process and its launch track (tid 0): the launch slice of the cost model. */
export function* rankTrack(rank: number, launchNs: number): Generator<TraceEvent> {
  const pid = rank + 1;
  yield { name: "process_name", ph: "M", pid, tid: 0, ts: 0, args: { name: `rank ${rank}` } };
  yield { name: "thread_name", ph: "M", pid, tid: 0, ts: 0, args: { name: "launch" } };
  yield {
    name: "launch",
    cat: "launch",
    ph: "X",
    pid,
    tid: 0,
    ts: 0,
    dur: launchNs / 1000,
    args: { note: "launch of the cost model (the timing parameters' launchNs)" },
  };
}

/** The track of a rank's DMA queue. */
export function queueTrack(rank: number, queue: number): TraceEvent {
  return {
    name: "thread_name",
    ph: "M",
    pid: rank + 1,
    tid: queue + 1,
    ts: 0,
    args: { name: `DMA queue ${queue}` },
  };
}

/**
 * A leg's slices over its scheduled [startNs, endNs): one per packet, splitting the time evenly, or
 * with `whole` one for the leg (a sampled trace), its packet count in its args.
 */
export function* legSlices(
  ctx: SliceContext,
  leg: TracedLeg,
  id: number,
  startNs: number,
  endNs: number,
  whole: boolean,
): Generator<TraceEvent> {
  const packets = legPacketCount(ctx.profile, leg, ctx.dtype);
  const slices = whole ? 1 : packets;
  const each = (endNs - startNs) / slices;
  const alu = legAluOp(leg, ctx.op);
  const name = alu === undefined ? leg.kind : `${leg.kind} ${alu}`;
  const shape = { sources: leg.srcs.length, dests: leg.dsts.length };
  for (let k = 0; k < slices; k++) {
    yield {
      name,
      cat: leg.kind,
      ph: "X",
      pid: leg.rank + 1,
      tid: leg.queue + 1,
      ts: usOf(ctx, startNs + k * each),
      dur: each / 1000,
      args: whole
        ? { leg: id, step: leg.step, packets, ...shape }
        : { leg: id, step: leg.step, packet: k, ...shape },
    };
  }
}

/** One end of a wait arrow: where it is and when (µs). */
interface ArrowEnd {
  readonly rank: number;
  readonly queue: number;
  readonly ts: number;
}

/**
 * A flow arrow `id` from the end of a leg waited on to the start of the leg that waits: a flow
 * starts at the end of the leg waited on ("s") and binds to the start of this one ("f").
 */
export function waitArrow(id: number, from: ArrowEnd, to: ArrowEnd): [TraceEvent, TraceEvent] {
  const end = (ph: "s" | "f", at: ArrowEnd, ts: number): TraceEvent => ({
    name: "semaphore",
    cat: "wait",
    ph,
    ...(ph === "f" && { bp: "e" }),
    id,
    pid: at.rank + 1,
    tid: at.queue + 1,
    ts,
  });
  return [end("s", from, from.ts - 0.001), end("f", to, to.ts + 0.001)];
}

/** A flow arrow from each leg this one waits on in another queue (a semaphore wait) to this leg. */
function* waitArrows(plan: Plan, schedule: Schedule, leg: Leg, ctx: SliceContext): Generator<TraceEvent> {
  for (const a of leg.after) {
    const from = plan.legs[a]!;
    if (from.rank === leg.rank && from.queue === leg.queue) continue;
    const to = { rank: leg.rank, queue: leg.queue, ts: usOf(ctx, schedule.start[leg.id]!) };
    yield* waitArrow(
      a * plan.legs.length + leg.id,
      { rank: from.rank, queue: from.queue, ts: usOf(ctx, schedule.end[a]!) },
      to,
    );
  }
}

/**
 * The trace of a scheduled plan as one object (small plans; stream larger ones with traceEvents).
 * @example writeFileSync("t.json", JSON.stringify(traceOf(plan, schedule, profile)));
 */
export function traceOf(plan: Plan, schedule: Schedule, profile: ArchProfile): { traceEvents: TraceEvent[] } {
  return { traceEvents: [...traceEvents(plan, schedule, profile)] };
}
