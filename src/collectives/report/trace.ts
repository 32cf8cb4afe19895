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

/**
 * The trace events of a scheduled plan, one at a time.
 * @example for (const e of traceEvents(plan, schedule, profile)) write(JSON.stringify(e));
 */
export function* traceEvents(plan: Plan, schedule: Schedule, profile: ArchProfile): Generator<TraceEvent> {
  const { launchNs } = schedule;
  const us = (ns: number) => (launchNs + ns) / 1000;
  const named = new Set<string>();
  for (const leg of plan.legs) {
    if (!named.has(`${leg.rank}`)) {
      named.add(`${leg.rank}`);
      yield* rankTrack(leg.rank, launchNs);
    }
    if (!named.has(`${leg.rank}:${leg.queue}`)) {
      named.add(`${leg.rank}:${leg.queue}`);
      const args = { name: `DMA queue ${leg.queue}` };
      yield { name: "thread_name", ph: "M", pid: leg.rank + 1, tid: leg.queue + 1, ts: 0, args };
    }
    yield* packetSlices(plan, schedule, profile, leg, us);
    yield* waitArrows(plan, schedule, leg, us);
  }
}

/** A rank's process and its launch track (tid 0): the launch slice of the cost model. */
function* rankTrack(rank: number, launchNs: number): Generator<TraceEvent> {
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

/** One slice per packet of a leg, splitting its scheduled time evenly. */
function* packetSlices(
  plan: Plan,
  schedule: Schedule,
  profile: ArchProfile,
  leg: Leg,
  us: (ns: number) => number,
): Generator<TraceEvent> {
  const start = schedule.start[leg.id]!;
  const end = schedule.end[leg.id]!;
  const packets = legPacketCount(profile, leg, plan.dtype);
  const each = (end - start) / packets;
  const alu = legAluOp(leg, plan.op);
  const name = alu === undefined ? leg.kind : `${leg.kind} ${alu}`;
  for (let k = 0; k < packets; k++) {
    yield {
      name,
      cat: leg.kind,
      ph: "X",
      pid: leg.rank + 1,
      tid: leg.queue + 1,
      ts: us(start + k * each),
      dur: each / 1000,
      args: { leg: leg.id, step: leg.step, packet: k, sources: leg.srcs.length, dests: leg.dsts.length },
    };
  }
}

/** A flow arrow from each leg this one waits on in another queue (a semaphore wait) to this leg. */
function* waitArrows(
  plan: Plan,
  schedule: Schedule,
  leg: Leg,
  us: (ns: number) => number,
): Generator<TraceEvent> {
  for (const a of leg.after) {
    const from = plan.legs[a]!;
    if (from.rank === leg.rank && from.queue === leg.queue) continue;
    const id = a * plan.legs.length + leg.id;
    // A flow starts at the end of the leg waited on ("s") and binds to the start of this one ("f").
    const end = (ph: "s" | "f", on: Leg, ts: number): TraceEvent => ({
      name: "semaphore",
      cat: "wait",
      ph,
      ...(ph === "f" && { bp: "e" }),
      id,
      pid: on.rank + 1,
      tid: on.queue + 1,
      ts,
    });
    yield end("s", from, us(schedule.end[a]!) - 0.001);
    yield end("f", leg, us(schedule.start[leg.id]!) + 0.001);
  }
}

/**
 * The trace of a scheduled plan as one object (small plans; stream larger ones with traceEvents).
 * @example writeFileSync("t.json", JSON.stringify(traceOf(plan, schedule, profile)));
 */
export function traceOf(plan: Plan, schedule: Schedule, profile: ArchProfile): { traceEvents: TraceEvent[] } {
  return { traceEvents: [...traceEvents(plan, schedule, profile)] };
}
