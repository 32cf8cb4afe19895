// The files a collective run writes: the Perfetto trace (pid 1 up, a launch slice so it ends where
// the table's time does, run settings as metadata, the size --trace-size names) and the
// --report-to-json-file document (nccom-test's schema plus the config and our per-row fields).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allrCommand } from "../../src/cli/index.js";
import { runInProcess } from "../helpers/cli.js";

interface Ev {
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  name: string;
}

describe("collective report files", () => {
  it("trace: pid ≥ 1, a launch slice per rank, ends at the table's time, settings as metadata", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-files-"));
    const trace = join(dir, "t.json");
    const report = join(dir, "r.json");
    const args = [
      "-r",
      "4",
      "-b",
      "1k",
      "-e",
      "4k",
      "--algo",
      "ring",
      "--trace",
      trace,
      "--trace-size",
      "2k",
    ];
    const r = await runInProcess(allrCommand, [...args, "--report-to-json-file", report]);
    expect(r.status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["r.json", "t.json"]);
    const t = JSON.parse(readFileSync(trace, "utf8")) as {
      traceEvents: Ev[];
      otherData: Record<string, unknown>;
    };
    expect(Math.min(...t.traceEvents.map((e) => e.pid))).toBe(1);
    const launches = t.traceEvents.filter((e) => e.name === "launch" && e.ph === "X");
    expect(launches.map((e) => e.pid).sort()).toEqual([1, 2, 3, 4]);
    const end = Math.max(...t.traceEvents.filter((e) => e.ph === "X").map((e) => e.ts + (e.dur ?? 0)));
    const doc = JSON.parse(readFileSync(report, "utf8"));
    const row = doc.results.find((x: Record<string, number>) => x["size(B)"] === 2048);
    expect(end).toBeCloseTo(row["time:avg(us)"], 6);
    expect(t.otherData).toMatchObject({
      operation: "allr",
      nworkers: 4,
      algorithm: "ring",
      tracedSize: 2048,
    });
    expect(doc.config).toMatchObject({ tool: "sdmakit", operation: "allr", nworkers: 4, datatype: "bf16" });
    expect(doc.results).toHaveLength(3);
    for (const k of [
      "size(B)",
      "count(elems)",
      "type",
      "algbw(GB/s)",
      "busbw(GB/s)",
      "time:avg(us)",
      "algorithm",
    ])
      expect(row).toHaveProperty(k);
    expect(row["#wrong"]).toBe(0);
  });
  it("unchecked rows: #wrong is null in JSON and N/A in the table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-files-"));
    const report = join(dir, "r.json");
    const r = await runInProcess(allrCommand, [
      "-b",
      "1k",
      "-e",
      "1k",
      "--timing-only",
      "--report-to-json-file",
      report,
    ]);
    expect(r.stdout).toMatch(/\s+1024\s+512\s+bf16\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\w+\s+N\/A\n/);
    const doc = JSON.parse(readFileSync(report, "utf8"));
    expect(doc.results[0]).toMatchObject({ "#wrong": null, maxAbsErr: null, check: "none" });
  });
});
