// The timeline's legend counts DMA queues and packets: the per-rank launch lane and its slice are
// neither (they come from the trace's tid 0, report/trace.ts).
import { describe, expect, it } from "vitest";
import { runSize, traceOf } from "../../src/collectives/index.js";
import { traceModel } from "../../web/src/trace-model.js";
import { collectiveRun } from "../helpers/collective-run.js";

describe("timeline model", () => {
  it("counts the (rank, queue) pairs the legs ran on and their packets, not the launch lanes", () => {
    const run = collectiveRun({ ranks: 4, dataSeed: 1, timingOnly: true });
    const r = runSize(run, 4096);
    const m = traceModel(traceOf(r.plan, r.schedule, run.profile).traceEvents);
    const legs = r.plan.legs;
    expect(m.queues).toBe(new Set(legs.map((l) => `${l.rank}:${l.queue}`)).size);
    expect(m.packets).toBe(m.slices.length - run.ranks);
    expect(m.lanes.length).toBe(m.queues + run.ranks);
  });
});
