// The timeline's model, built once in the run worker from the library's trace events: its legend
// counts DMA queues and packets (the per-rank launch lane and its slice are neither, report/trace.ts),
// its columns are sorted by lane then start, and its searches find what a linear scan finds.
import { describe, expect, it } from "vitest";
import { runSize, traceEvents, traceOf } from "../../src/collectives/index.js";
import { firstEndingAfter, firstStartingAt, sliceArgs, traceModel } from "../../web/src/trace-model.js";
import { collectiveRun } from "../helpers/collective-run.js";

describe("timeline model", () => {
  const run = collectiveRun({ ranks: 4, dataSeed: 1, timingOnly: true });
  const r = runSize(run, 4096);
  const m = traceModel(traceEvents(r.plan, r.schedule, run.profile));

  it("counts the (rank, queue) pairs the legs ran on and their packets, not the launch lanes", () => {
    const legs = r.plan.legs;
    expect(m.queues).toBe(new Set(legs.map((l) => `${l.rank}:${l.queue}`)).size);
    expect(m.packets).toBe(m.start.length - run.ranks);
    expect(m.lanes.length).toBe(m.queues + run.ranks);
    const events = traceOf(r.plan, r.schedule, run.profile).traceEvents;
    expect(m.start.length).toBe(events.filter((e) => e.ph === "X").length);
    expect(m.arrowToLane.length).toBe(events.filter((e) => e.ph === "f").length);
  });

  it("keeps each lane's slices by start, with its arguments, and searches them as a scan would", () => {
    for (let l = 0; l < m.lanes.length; l++) {
      const lo = m.laneFirst[l] as number;
      const hi = m.laneFirst[l + 1] as number;
      for (let i = lo + 1; i < hi; i++) expect(m.start[i]).toBeGreaterThanOrEqual(m.start[i - 1] as number);
      for (const t of [m.t0, (m.t0 + m.t1) / 2, m.t1]) {
        let scan = lo;
        while (scan < hi && (m.endMax[scan] as number) < t) scan++;
        expect(firstEndingAfter(m, l, t)).toBe(scan);
        let s = lo;
        while (s < hi && (m.start[s] as number) < t) s++;
        expect(firstStartingAt(m, lo, hi, t)).toBe(s);
      }
    }
    const packet = m.kind.findIndex((k) => m.kinds[k] !== "launch");
    expect(sliceArgs(m, packet).map(([k]) => k)).toEqual(["leg", "step", "packet", "sources", "dests"]);
    const launch = m.kind.findIndex((k) => m.kinds[k] === "launch");
    expect(sliceArgs(m, launch)[0]?.[0]).toBe("note");
  });
});
