// The rank cap (topology.ts MAX_RANKS): 16384 ranks for timing-only, 256 Trn2 nodes and more; past
// it a typed error naming the field, the value and the range. Functional runs stop at a device's
// ranks (checkDeviceRanks) long before. The time of such a run is bench/collectives.bench.ts's.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import { buildTopology, MAX_RANKS, prepareSize, runCollective } from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { sdmakit } from "../helpers/cli.js";
import { collectiveRun } from "../helpers/collective-run.js";

describe("the rank cap", () => {
  it("16384 ranks are accepted, on 256 and on 1024 nodes; 16385 and 0 are refused naming the range", () => {
    expect(MAX_RANKS).toBe(16384);
    expect(buildTopology(archProfile("trn2"), 16384, 256).places).toHaveLength(16384);
    expect(buildTopology(archProfile("trn2"), 16384, 1024).nodes).toBe(1024);
    for (const ranks of [16385, 0, 1.5])
      expect(() => buildTopology(archProfile("trn2"), ranks, 1)).toThrow(
        new UsageError(`ranks ${ranks}: expected an integer 1..16384`),
      );
    expect(() => runCollective({ collective: "allr", ranks: 16385, size: 64, timingOnly: true })).toThrow(
      /\(ranks\): 16385 is out of range: an integer 1\.\.16384/,
    );
  });

  it("a timing-only 16384-rank plan is prepared; a functional one is refused for the device's ranks", () => {
    const run = collectiveRun({ ranks: 16384, nodes: 256, algorithm: "kangaring", check: "none" });
    // 8 KiB: 256 granules, one a node, so the plan folds onto a node (node-fold.ts) and this is fast.
    const timing = prepareSize({ ...run, timingOnly: true }, 8192);
    expect(timing.topology.ranks).toBe(16384);
    expect(timing.timing.totalNs).toBeGreaterThan(0);
    expect(() => prepareSize(run, 8192)).toThrow(
      /16384 ranks: a trn2 device runs at most \d+ at LNC 2 with data; use --timing-only/,
    );
  });

  it("the CLI takes -r 16384 -N 256 --timing-only and refuses -r 16385 with exit 2", () => {
    const bad = sdmakit("allr", "-r", "16385", "--timing-only", "-b", "64", "-e", "64");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/-r "16385": expected an integer 1\.\.16384/);
    const ok = sdmakit(
      "allr",
      "-r",
      "16384",
      "-N",
      "256",
      "--timing-only",
      "--algo",
      "kangaring",
      "-b",
      "8kb",
      "-e",
      "8kb",
    );
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^\s+8192\s+4096\s+bf16\s+[\d.]+ .* kangaring\s+N\/A$/m);
  });
});
