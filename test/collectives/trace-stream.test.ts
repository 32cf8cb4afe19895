// A trace written as it is produced (issue 27): the scheduler's placing pass hands each placed leg
// to the writer, which keeps nothing per leg — the events are traceEvents' for the same plan (the
// arrows numbered in order), the estimate made before the run is never below what is written, and
// a trace above its bound is refused with the estimate or, asked to, sampled to fit. The admission's
// floor (a slice a packet) is held to the same materialised events.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import {
  collectiveRun,
  estimateTrace,
  planTrace,
  prepareSize,
  runPrepared,
  streamTraceEvents,
  type TraceEvent,
  traceEventFloor,
  traceEvents,
  writeTrace,
} from "../../src/collectives/index.js";

const WHOLE = { rankStride: 1, perLeg: false };
const CASES = [
  ["allr", "ring", 8],
  ["allr", "mesh", 8],
  ["allr", "kangaring", 8],
  ["allr", "rdh", 8],
  ["allg", "ring", 8],
  ["redsct", "mesh", 16],
  ["sendrecv", "ring", 8],
  ["alltoall", "mesh", 4],
] as const;

/** An event as compared: an arrow's end without its id (the stream numbers arrows in order). */
const key = (e: TraceEvent) => JSON.stringify(e.ph === "s" || e.ph === "f" ? { ...e, id: 0 } : e);

function streamed(prepared: ReturnType<typeof prepareSize>, sampling = WHOLE): TraceEvent[] {
  const events: TraceEvent[] = [];
  streamTraceEvents(prepared, sampling, (e) => events.push(e));
  return events;
}

describe("streamed trace", () => {
  it.each(CASES)(
    "%s %s at %i ranks: traceEvents' events, estimated from above",
    (collective, algorithm, ranks) => {
      const run = collectiveRun({ collective, algorithm, ranks, timingOnly: true });
      const prepared = prepareSize(run, 3 << 20);
      const r = runPrepared(prepared);
      const materialised = [...traceEvents(r.plan, r.schedule, run.profile)];
      const events = streamed(prepared);
      // Slices and tracks in the same order; a leg's arrows may come in another order (RDH's spans).
      const isArrow = (e: TraceEvent) => e.ph === "s" || e.ph === "f";
      const others = (list: TraceEvent[]) => list.filter((e) => !isArrow(e)).map(key);
      const arrows = (list: TraceEvent[]) => list.filter(isArrow).map(key).sort();
      expect(others(events)).toEqual(others(materialised));
      expect(arrows(events)).toEqual(arrows(materialised));
      // Each arrow's two ends share an id of their own.
      const ids = events.filter((e) => e.ph === "s").map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(events.filter((e) => e.ph === "f").map((e) => e.id)).toEqual(ids);
      const estimate = estimateTrace(prepared, WHOLE);
      expect(estimate.events).toBeGreaterThanOrEqual(events.length);
      // The admission's floor (trace-admission.ts): a slice a packet, never above the events.
      const slices = materialised.filter((e) => e.ph === "X" && e.cat !== "launch");
      expect(slices.length).toBe(prepared.timing.packets);
      expect(traceEventFloor(prepared)).toBeLessThanOrEqual(materialised.length);
      const text: string[] = [];
      writeTrace(prepared, { sampling: WHOLE, maxEvents: Number.POSITIVE_INFINITY, otherData: {} }, (t) =>
        text.push(t),
      );
      expect(estimate.bytes).toBeGreaterThanOrEqual(text.join("").length);
    },
  );

  it("a trace of a whole number of chunks is valid JSON (no comma before the closing bracket)", () => {
    const prepared = prepareSize(
      collectiveRun({ collective: "sendrecv", ranks: 8, timingOnly: true }),
      3 << 20,
    );
    const n = streamed(prepared).length;
    const text: string[] = [];
    expect(
      writeTrace(prepared, { sampling: WHOLE, maxEvents: n, otherData: { note: 1 } }, (t) => text.push(t)),
    ).toBe(n);
    const trace = JSON.parse(text.join(""));
    expect(trace.traceEvents).toHaveLength(n);
    expect(trace.otherData).toEqual({ note: 1, sampling: WHOLE });
    expect(() =>
      writeTrace(prepared, { sampling: WHOLE, maxEvents: n - 1, otherData: {} }, () => {}),
    ).toThrow(/more than \d+ events/);
  });

  it("a sampled trace: one slice per leg, the ranks of a stride, arrows only between them", () => {
    const prepared = prepareSize(
      collectiveRun({ collective: "allr", algorithm: "rdh", ranks: 8, timingOnly: true }),
      3 << 20,
    );
    const legs = Object.values(prepared.timing.legKinds).reduce((a, b) => a + b, 0);
    const perLeg = streamed(prepared, { rankStride: 1, perLeg: true });
    const slices = perLeg.filter((e) => e.ph === "X" && e.cat !== "launch");
    expect(slices).toHaveLength(legs);
    expect(slices.reduce((n, e) => n + (e.args?.packets as number), 0)).toBe(prepared.timing.packets);
    const strided = streamed(prepared, { rankStride: 4, perLeg: true });
    expect(new Set(strided.map((e) => e.pid))).toEqual(new Set([1, 5]));
    expect(estimateTrace(prepared, { rankStride: 4, perLeg: true }).events).toBeGreaterThanOrEqual(
      strided.length,
    );
  });

  it("planTrace: whole when it fits; above the bound refused with the estimate, or sampled to fit", () => {
    const prepared = prepareSize(
      collectiveRun({ collective: "allr", algorithm: "ring", ranks: 8, timingOnly: true }),
      3 << 20,
    );
    const whole = estimateTrace(prepared, WHOLE);
    expect(planTrace(prepared, { maxEvents: whole.events })).toEqual(whole);
    expect(() => planTrace(prepared, { maxEvents: whole.events - 1 })).toThrow(
      new RegExp(
        `≈ ${whole.events} events \\(${prepared.timing.packets} packets\\).*the bound is ${whole.events - 1} events`,
      ),
    );
    const bound = Math.ceil(whole.events / 5);
    const sampled = planTrace(prepared, { maxEvents: bound, sample: true });
    expect(sampled.sampling.perLeg).toBe(true);
    expect(sampled.events).toBeLessThanOrEqual(bound);
    expect(streamed(prepared, sampled.sampling).length).toBeLessThanOrEqual(bound);
    expect(() => planTrace(prepared, { maxEvents: 10, sample: true })).toThrow(
      /even one rank's sampled trace/,
    );
  });
});

describe("--trace-sample", () => {
  it("a trace above the bound is written sampled, said in the header and the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-trace-"));
    const file = join(dir, "t.json");
    const out: string[] = [];
    const args = [..."allr --timing-only -r 8 --algo ring -b 4gb -e 4gb".split(" "), "--trace", file];
    const status = await main([...args, "--trace-sample"], { out: (t) => out.push(t), err: () => {} });
    expect(status).toBe(0);
    expect(out.join("")).toMatch(/# --trace sampled to fit: a slice per leg, every rank \(≈ \d+ events\)/);
    const trace = JSON.parse(readFileSync(file, "utf8"));
    expect(trace.otherData.sampling).toEqual({ rankStride: 1, perLeg: true });
    expect(trace.traceEvents.filter((e: TraceEvent) => e.ph === "X").length).toBeLessThan(10_000);
  });

  it("needs --trace", async () => {
    const err: string[] = [];
    const status = await main(["allr", "-b", "8", "-e", "8", "--trace-sample"], {
      out: () => {},
      err: (t) => err.push(t),
    });
    expect(status).toBe(2);
    expect(err.join("")).toMatch(/--trace-sample samples the trace of --trace FILE/);
  });
});
