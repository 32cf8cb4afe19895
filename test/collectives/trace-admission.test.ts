// A trace's bound is known before the run: the floor of its events from the prepared size's packet
// count (never above what traceEvents yields), and a trace above the bound — events, or host memory
// for its legs — is refused before any leg is built.
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import {
  admitTrace,
  collectiveRun,
  prepareSize,
  runPrepared,
  traceEventFloor,
  traceEvents,
  traceHostBytes,
} from "../../src/collectives/index.js";

describe("trace admission", () => {
  it("the floor never exceeds the events traceEvents yields (every collective and algorithm)", () => {
    for (const [collective, algorithm] of [
      ["allr", "ring"],
      ["allr", "mesh"],
      ["allr", "kangaring"],
      ["allg", "ring"],
      ["redsct", "mesh"],
      ["sendrecv", "ring"],
    ] as const) {
      const run = collectiveRun({ collective, algorithm, ranks: 8, timingOnly: true });
      const prepared = prepareSize(run, 3 << 20);
      const r = runPrepared(prepared);
      let events = 0;
      let slices = 0;
      for (const e of traceEvents(r.plan, r.schedule, run.profile)) {
        events++;
        if (e.ph === "X" && e.cat !== "launch") slices++;
      }
      expect(slices).toBe(prepared.timing.packets);
      expect(traceEventFloor(prepared)).toBeLessThanOrEqual(events);
    }
  });

  it("refuses above the event bound or the host budget, naming the estimate", () => {
    const run = collectiveRun({ collective: "allr", ranks: 8, timingOnly: true });
    const prepared = prepareSize(run, 1 << 20);
    const floor = traceEventFloor(prepared);
    expect(() => admitTrace(prepared, floor)).not.toThrow();
    expect(() => admitTrace(prepared, floor - 1)).toThrow(
      new RegExp(`has at least ${floor} events .*the bound is ${floor - 1}`),
    );
    const budget = { bytes: traceHostBytes(prepared) - 1, source: "a test" };
    expect(() => admitTrace(prepared, floor, budget)).toThrow(/host memory for its legs.*\(a test\)/);
  });

  it("the 512-rank 1 GiB ring trace (V8 out of memory after 153 s before) is refused before the run, with the estimate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-trace-"));
    const out: string[] = [];
    const err: string[] = [];
    const args = [
      "allr",
      "--timing-only",
      "-r",
      "512",
      "-N",
      "8",
      "-b",
      "1gb",
      "-e",
      "1gb",
      "--algo",
      "ring",
    ];
    const status = await main([...args, "--trace", join(dir, "t.json")], {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    });
    expect(status).toBe(2);
    expect(err.join("")).toMatch(
      /≈ \d+ events \(150700032 packets\) and ≈ [\d.]+ GiB; the bound is 5000000 events and 1.00 GiB: .*--trace-sample/,
    );
    expect(out).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
