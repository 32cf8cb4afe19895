// The installed CLI under a closed pipe and signals, counted without a clock: a preload counts the
// stdout writes (one a row) and can send the process a signal after its N-th write.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/sdmakit.js", import.meta.url));
const PROBE = fileURLToPath(new URL("../helpers/stdout-probe.mjs", import.meta.url));
/** 24 sizes, 8 B … 64 MiB: one write for the header lines, then one write a row. */
const SWEEP = ["allr", "--timing-only", "-b", "8", "-e", "64mb"];

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
  writes: number;
}

/**
 * Run the CLI; `headLines`: read that many lines of stdout, then close the pipe (as `| head`);
 * `onClosed` called once this end of stdout is closed.
 */
function cli(
  args: string[],
  env: Record<string, string>,
  headLines?: number,
  closeStderr = false,
  onClosed?: () => void,
): Promise<Ended> {
  const child = spawn(process.execPath, ["--import", PROBE, BIN, ...args], {
    env: { ...process.env, ...env },
  });
  if (closeStderr) child.stderr.destroy();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d;
    if (headLines !== undefined && stdout.split("\n").length > headLines) child.stdout.destroy();
  });
  if (onClosed) child.stdout.on("close", onClosed);
  child.stderr.on("data", (d: Buffer) => {
    stderr += d;
  });
  return new Promise((done) =>
    child.on("close", (code) => {
      const writes = Number(/probe: (\d+) stdout writes/.exec(stderr)?.[1] ?? -1);
      done({ code, stdout, stderr, writes });
    }),
  );
}

describe("pipes and signals", () => {
  it("`| head -3` of a 64 MiB sweep stops at the row that meets the closed pipe (rows counted)", async () => {
    const closed = join(mkdtempSync(join(tmpdir(), "sdmakit-head-")), "closed");
    // The CLI holds after its second write (the header's two lines, the first row) until the pipe
    // is closed: its next write is the first to meet it, on a loaded machine too.
    const r = await cli(SWEEP, { PROBE_HOLD: `2:${closed}` }, 3, false, () => writeFileSync(closed, ""));
    expect(r.code).toBe(0);
    // The header, the row head read, the row that met the closed pipe: no size after it.
    expect(r.writes).toBe(3);
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal}: the files are left as they were, no temporary remains, the rows done are summed`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "sdmakit-sig-"));
      const report = join(dir, "r.json");
      writeFileSync(report, "old report");
      const args = [
        ...SWEEP,
        "--report-to-json-file",
        report,
        "--trace",
        join(dir, "t.json"),
        "--trace-size",
        "8",
      ];
      const r = await cli(args, { PROBE_SIGNAL: `${signal}:5` });
      expect(r.code).toBe(signal === "SIGINT" ? 130 : 143);
      expect(r.stdout).toMatch(new RegExp(`# interrupted by ${signal} after 4 of 24 sizes; no file written`));
      expect(r.stdout).toMatch(/Avg bus bandwidth/);
      expect(readdirSync(dir)).toEqual(["r.json"]);
      expect(readFileSync(report, "utf8")).toBe("old report");
    });
  }

  it("a stderr that cannot be written keeps the exit code (2 for bad usage), no uncaught exception", async () => {
    const r = await cli(["allr", "-r", "0"], {}, undefined, true);
    expect(r.code).toBe(2);
  });
});
