// Rows stream: each size's row is written before the next size starts, so a long sweep shows its
// first rows early and keeps no size's results (or device) past its row. runPrepared is wrapped to
// log when each size starts, in the same log as the command's output.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";

const log: string[] = [];
vi.mock("../../src/collectives/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/collectives/index.js")>();
  return {
    ...real,
    runPrepared: (...args: Parameters<typeof real.runPrepared>) => {
      log.push(`start ${args[0].size}`);
      if (args[0].size === 512) throw new RangeError("device lost at 512");
      return real.runPrepared(...args);
    },
  };
});

const { allrCommand } = await import("../../src/cli/commands/collective.js");
const io = { out: (t: string) => log.push(`out ${t}`), err: () => {} };

describe("streamed rows", () => {
  it("the second row is printed before the last size starts (table and JSON Lines)", async () => {
    for (const extra of [[], ["--json"]]) {
      log.length = 0;
      expect(await allrCommand.run(["-r", "4", "-b", "64", "-e", "256", ...extra], io)).toBe(0);
      const second = log.findIndex((l) => /^out (\s+128\s|\{"record":"row","size\(B\)":128)/.test(l));
      const lastStart = log.indexOf("start 256");
      expect(second).toBeGreaterThan(0);
      expect(second).toBeLessThan(lastStart);
      expect(log[0]).toMatch(/^out (# allr|\{"record":"config")/);
    }
  });

  it("a failed run prints the rows that finished and leaves an existing trace / report file as it was", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-stream-"));
    const trace = join(dir, "t.json");
    const report = join(dir, "r.json");
    writeFileSync(trace, "good trace");
    writeFileSync(report, "good report");
    log.length = 0;
    const args = ["-r", "4", "-b", "128", "-e", "512", "--trace", trace, "--trace-size", "128"];
    await expect(allrCommand.run([...args, "--report-to-json-file", report], io)).rejects.toThrow(/512/);
    expect(log.filter((l) => /^out\s+(128|256)\s/.test(l))).toHaveLength(2);
    expect(readFileSync(trace, "utf8")).toBe("good trace");
    expect(readFileSync(report, "utf8")).toBe("good report");
  });
});
