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
  estimateTrace,
  prepareSize,
  traceEventFloor,
  traceHostBytes,
  traceShapeOf,
} from "../../src/collectives/index.js";

const WHOLE = { rankStride: 1, perLeg: false };

describe("trace admission", () => {
  // That the floor never exceeds the events traceEvents yields (and counts a slice a packet) is
  // held in trace-stream.test.ts, on the events it materialises anyway for each collective and algorithm.
  it("counts a timing-only run of one algorithm without scheduling it: the schedule's legs and packets", () => {
    // Folded (several nodes, where node-fold.ts folds) and not; `auto` and a functional run are
    // prepared instead, and handed back for the run.
    for (const [collective, algorithm, ranks, nodes] of [
      ["allr", "ring", 16, 2],
      ["allr", "mesh", 16, 2],
      ["allr", "kangaring", 32, 2],
      ["allr", "rdh", 16, 2],
      ["allg", "ring", 24, 3],
      ["redsct", "mesh", 8, 1],
      ["sendrecv", "ring", 8, 2],
      ["alltoall", "mesh", 8, 2],
    ] as const) {
      const run = collectiveRun({ collective, algorithm, ranks, nodes, timingOnly: true });
      const what = `${collective} ${algorithm} ${ranks}/${nodes}`;
      const prepared = prepareSize(run, 3 << 20);
      const { shape, prepared: handed } = traceShapeOf(run, 3 << 20);
      expect(handed, what).toBeUndefined();
      expect(shape.timing.legKinds, what).toEqual(prepared.timing.legKinds);
      expect(shape.timing.packets, what).toBe(prepared.timing.packets);
      expect(estimateTrace(shape, WHOLE), what).toEqual(estimateTrace(prepared, WHOLE));
    }
    for (const run of [
      collectiveRun({ collective: "allr", algorithm: "auto", ranks: 8, timingOnly: true }),
      collectiveRun({ collective: "allr", ranks: 8 }),
    ]) {
      const { shape, prepared } = traceShapeOf(run, 1 << 20);
      expect(prepared).toBeDefined();
      expect(shape).toBe(prepared);
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
