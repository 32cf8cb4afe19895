/**
 * Chrome trace-event JSON (opens in Perfetto / chrome://tracing): one process per rank, one thread
 * (track) per DMA queue, one slice per packet — the descriptors one add_dma_packet(_cce) call wrote
 * — and a flow arrow from each leg a leg waits on (a semaphore wait across queues) to the leg.
 * Packet slices split their leg's scheduled time evenly (MODEL: the schedule places legs; packets
 * of one leg run back to back on their queue).
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import { legAluOp } from "../plan/leg-math.js";
import { legPacketCount } from "../plan/packets.js";
import type { Plan } from "../plan/plan.js";
import type { Schedule } from "../timing/schedule.js";

interface TraceEvent {
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

/**
 * The trace of a scheduled plan.
 * @example writeFileSync("t.json", JSON.stringify(traceOf(plan, schedule, profile)));
 */
export function traceOf(plan: Plan, schedule: Schedule, profile: ArchProfile): { traceEvents: TraceEvent[] } {
  const ev: TraceEvent[] = [];
  const us = (ns: number) => ns / 1000;
  const named = new Set<string>();
  for (const leg of plan.legs) {
    if (!named.has(`${leg.rank}`)) {
      named.add(`${leg.rank}`);
      ev.push({
        name: "process_name",
        ph: "M",
        pid: leg.rank,
        tid: 0,
        ts: 0,
        args: { name: `rank ${leg.rank}` },
      });
    }
    if (!named.has(`${leg.rank}:${leg.queue}`)) {
      named.add(`${leg.rank}:${leg.queue}`);
      ev.push({
        name: "thread_name",
        ph: "M",
        pid: leg.rank,
        tid: leg.queue,
        ts: 0,
        args: { name: `DMA queue ${leg.queue}` },
      });
    }
    const start = schedule.start[leg.id]!;
    const end = schedule.end[leg.id]!;
    const packets = legPacketCount(profile, leg, plan.dtype);
    const each = (end - start) / packets;
    const alu = legAluOp(leg, plan.op);
    const name = alu === undefined ? leg.kind : `${leg.kind} ${alu}`;
    for (let k = 0; k < packets; k++) {
      ev.push({
        name,
        cat: leg.kind,
        ph: "X",
        pid: leg.rank,
        tid: leg.queue,
        ts: us(start + k * each),
        dur: us(each),
        args: { leg: leg.id, step: leg.step, packet: k, sources: leg.srcs.length, dests: leg.dsts.length },
      });
    }
    for (const a of leg.after) {
      const from = plan.legs[a]!;
      if (from.rank === leg.rank && from.queue === leg.queue) continue;
      const id = a * plan.legs.length + leg.id;
      ev.push({
        name: "semaphore",
        cat: "wait",
        ph: "s",
        id,
        pid: from.rank,
        tid: from.queue,
        ts: us(schedule.end[a]!) - 0.001,
      });
      ev.push({
        name: "semaphore",
        cat: "wait",
        ph: "f",
        bp: "e",
        id,
        pid: leg.rank,
        tid: leg.queue,
        ts: us(start),
      });
    }
  }
  return { traceEvents: ev };
}
