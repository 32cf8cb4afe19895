import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calibrateCommand } from "../../src/cli/index.js";
import { checkTimingProfile, runCollective, shippedTiming } from "../../src/collectives/index.js";
import { guideReport, guideTables } from "../../tools/calibration.js";
import { runInProcess, sdmakitHere } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "sdmakit-calibrate-"));
const r8 = join(dir, "r8.json");
writeFileSync(
  r8,
  JSON.stringify(guideReport(guideTables().find((t) => t.name === "sdk26-allg-r8-fp32-stats")!)),
);

describe("sdmakit calibrate", () => {
  it("fits, prints before / after per report, writes a profile the collectives take", async () => {
    const out = join(dir, "p.json");
    const r = await runInProcess(calibrateCommand, [r8, "--out", out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/r8\.json: 4 rows, error \d+\.\d % → \d+\.\d %/);
    expect(r.stdout).toMatch(new RegExp(`launchNs: ${shippedTiming("trn2").launchNs.toFixed(1)} → `));
    const profile = JSON.parse(readFileSync(out, "utf8"));
    expect(profile.format).toBe("sdmakit-timing-profile");
    expect(Object.keys(profile.archs)).toEqual(["trn2"]);
    const args = ["allg", "-r", "8", "-b", "1kb", "-e", "1kb", "--timing-only", "--json"];
    const base = await sdmakitHere(...args);
    const with_ = await sdmakitHere(...args, "--timing-profile", out);
    expect(with_.status, with_.stderr).toBe(0);
    const time = (s: string) => JSON.parse(s.split("\n")[1]!)["time:avg(us)"];
    const run = { collective: "allg", ranks: 8, size: 1024, timingOnly: true } as const;
    const moved = runCollective({ ...run, timingProfile: checkTimingProfile(profile) }).row.timeUs;
    expect(time(with_.stdout) - time(base.stdout)).toBeCloseTo(moved - runCollective(run).row.timeUs, 1);
  });
  it("refuses a bad profile file naming the field, and no reports", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({ format: "sdmakit-timing-profile", version: 1, archs: { trn2: { launchNs: "x" } } }),
    );
    const r = await sdmakitHere("allg", "-r", "8", "--timing-only", "--timing-profile", bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/archs\.trn2\.launchNs "x": expected a number/);
    await expect(runInProcess(calibrateCommand, [])).rejects.toThrow(/expected one or more REPORT\.json/);
  });
});
