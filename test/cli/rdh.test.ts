import { describe, expect, it } from "vitest";
import { sdmakitHere } from "../helpers/cli.js";

describe("sdmakit allr --algo rdh", () => {
  it("runs checked with 0 wrong on a power-of-two rank count, LNC 1 and 2, one node and two", async () => {
    for (const extra of [[], ["--lnc", "1"], ["-N", "2"], ["--arch", "trn1"]]) {
      const r = await sdmakitHere(
        "allr",
        "-r",
        "8",
        "--algo",
        "rdh",
        "-b",
        "1k",
        "-e",
        "64k",
        "-f",
        "8",
        "--no-progress",
        ...extra,
      );
      expect(r.status, `${extra.join(" ")}\n${r.stderr}`).toBe(0);
      const rows = r.stdout.split("\n").filter((l) => /^\s*\d+\s+\d+\s/.test(l));
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row).toMatch(/\s+rdh\s+0$/);
    }
  });
  it("refuses a rank count that is not a power of two, naming it", async () => {
    const r = await sdmakitHere("allr", "-r", "6", "--algo", "rdh", "-b", "1k", "-e", "1k", "--no-progress");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/6/);
  });
});
