// The files a collective run writes: the Perfetto trace (pid 1 up, a launch slice so it ends where
// the table's time does, run settings as metadata, the size --trace-size names) and the
// --report-to-json-file document (nccom-test's schema plus the config and our per-row fields).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allrCommand, main } from "../../src/cli/index.js";
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
  it("--report-to-json-file carries the command line, start and end time, and the status", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-files-"));
    const report = join(dir, "r.json");
    const argv = ["-r", "4", "allr", "-b", "1k", "-e", "1k", "--report-to-json-file", report];
    const r = await runInProcess({ run: main }, argv);
    expect(r.status).toBe(0);
    const doc = JSON.parse(readFileSync(report, "utf8"));
    expect(Object.keys(doc).slice(0, 4)).toEqual(["args", "start_time", "end_time", "status"]);
    expect(doc.args).toEqual(["sdmakit", ...argv]); // as typed: the op word where it was
    expect(doc.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(doc.end_time)).toBeGreaterThanOrEqual(Date.parse(doc.start_time));
    expect(doc.status).toBe("ok");
  });
  it("-J: nccl-tests' JSON report, key for key, and never over an existing file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-files-"));
    const file = join(dir, "out.json");
    const argv = ["all_reduce_perf", "-b", "8", "-e", "32", "-f", "2", "-g", "4", "-J", file];
    const first = await runInProcess({ run: main }, argv);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^# writing JSON output to ${file}$`, "m"));
    const doc = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(doc)).toEqual([
      "version",
      "start_time",
      "args",
      "env",
      "nccl_version",
      "sdmakit_version",
      "config",
      "results",
      "out_of_bounds",
      "average_bus_bandwidth",
      "errors",
      "end_time",
    ]);
    expect(doc.version).toBe(2);
    expect(doc.start_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(doc.args).toEqual(["sdmakit", ...argv]);
    expect(doc.config).toMatchObject({ ngpus: 4, minimum_bytes: 8, maximum_bytes: 32, step_factor: 2 });
    expect(doc.config.devices).toHaveLength(4);
    expect(doc.results).toHaveLength(3);
    expect(doc.results[0]).toMatchObject({
      size: 8,
      count: 4,
      type: "bfloat16",
      redop: "sum",
      root: "    -1",
    });
    expect(Object.keys(doc.results[0].out_of_place)).toEqual(["time", "alg_bw", "bus_bw", "nwrong"]);
    expect(doc.results[0].out_of_place.nwrong).toBe(0);
    expect(doc.out_of_bounds).toEqual({ count: 0, okay: "true" });
    expect(doc.average_bus_bandwidth.okay).toBe("unchecked");
    // nccl-tests' rule: the next run writes FILE.0, then FILE.1, the first file untouched.
    const again = await runInProcess({ run: main }, [...argv.slice(0, -2), "-J", file, "-c", "0"]);
    expect(again.stdout).toMatch(new RegExp(`^# writing JSON output to ${file}\\.0$`, "m"));
    expect(readdirSync(dir).sort()).toEqual(["out.json", "out.json.0"]);
    expect(JSON.parse(readFileSync(`${file}.0`, "utf8")).results[0].out_of_place.nwrong).toBeNull();
    expect(readFileSync(file, "utf8")).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });
});
