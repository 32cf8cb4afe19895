// Collective simulator throughput, the main job: `sdmakit allr -r 8 -d bf16 -b 64mb -e 64mb` (auto
// algorithm), every packet built by the runtime and executed by the engine, as bench/harness.ts
// times it (CPU time ÷ a warm copy of the 512 MiB it reduces), with and without the check (exact
// data, every element); the device arenas are reused across runs, as a size sweep reuses them.
// The checked run's peak RSS is measured in a process of its own against the simulated device bytes.
// Timing-only at scale: the one (streaming) scheduler on a 64-rank, 4-node 1 GiB Ring all-reduce as
// a ratio to materialising the same plan (buildPlan), in the same run; and `--timing-only` auto
// all-reduces of 1 GiB over 1024 and 4096 ranks (16 a node) in absolute CPU seconds and peak RSS,
// each run in a process of its own (the targets for these are absolute).
import { execFileSync } from "node:child_process";
import {
  buildPlan,
  buildTopology,
  type CollectiveRun,
  runSize,
  scheduleCollective,
} from "../src/collectives/index.js";
import type { PlanRequest } from "../src/collectives/plan/plan-request.js";
import { archProfile } from "../src/hal/arch-profile.js";
import { Dtype } from "../src/spec/dtype.js";
import { type BenchRow, cpuMs, RUNS, ratioRow, spread } from "./harness.js";

const SIZE = 64 << 20;
const RANKS = 8;

/** The 8-rank 64 MiB all-reduce, `check` off or exact, RUNS times against a warm copy of its 512 MiB. */
function allReduceRow(spec: CollectiveRun, target: string): BenchRow {
  let packets = 0;
  let wrong = 0;
  const row = ratioRow(
    `allr 64 MiB × 8 ranks bf16 auto${spec.check === "none" ? "" : ", --check"}`,
    target,
    SIZE * RANKS,
    () => {
      const run = runSize(spec, SIZE);
      packets = run.packets ?? 0;
      wrong = run.row.wrong;
    },
    "",
    RUNS,
    1,
  );
  const checked = spec.check === "none" ? "unchecked" : `${wrong} wrong`;
  return { ...row, note: `${packets} packets, ${checked}; ${row.note}` };
}

/** Peak RSS (bytes) of a process that runs the checked main job once (its own process: a clean peak). */
function checkedPeakRss(): number {
  const code = `
    import { runSize } from "./src/collectives/index.ts";
    import { archProfile } from "./src/hal/arch-profile.ts";
    const r = runSize({ profile: archProfile("trn2"), ranks: ${RANKS}, nodes: 1, collective: "allr",
      algorithm: "auto", dtype: ${Dtype.BFLOAT16}, op: "sum", check: "exact", timingOnly: false, dataSeed: 0 }, ${SIZE});
    if (r.row.wrong !== 0) throw new Error("wrong " + r.row.wrong);
    process.stdout.write(String(process.resourceUsage().maxRSS * 1024));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: new URL("..", import.meta.url),
    encoding: "utf8",
  });
  return Number(out.trim());
}

/** CPU seconds and peak RSS (bytes) of a timing-only auto all-reduce of 1 GiB in a process of its own. */
function timingOnlyRun(ranks: number, nodes: number): { seconds: number; rss: number } {
  const code = `
    import { runSize } from "./src/collectives/index.ts";
    import { archProfile } from "./src/hal/arch-profile.ts";
    const c0 = process.cpuUsage();
    runSize({ profile: archProfile("trn2"), ranks: ${ranks}, nodes: ${nodes}, collective: "allr",
      algorithm: "auto", dtype: ${Dtype.BFLOAT16}, op: "sum", check: "none", timingOnly: true, dataSeed: 0 }, 2 ** 30);
    const c = process.cpuUsage(c0);
    process.stdout.write(JSON.stringify({ seconds: (c.user + c.system) / 1e6, rss: process.resourceUsage().maxRSS * 1024 }));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: new URL("..", import.meta.url),
    encoding: "utf8",
  });
  return JSON.parse(out) as { seconds: number; rss: number };
}

/** Two rows, seconds and peak MB, of RUNS timing-only runs at `ranks` (16 ranks a node). */
export function timingOnlyRows(ranks: number, targetS: string, targetMb: string): BenchRow[] {
  const runs = Array.from({ length: RUNS }, () => timingOnlyRun(ranks, ranks / 16));
  const name = `timing-only allr 1 GiB × ${ranks} ranks / ${ranks / 16} nodes auto`;
  const note = `${RUNS} runs, each its own process; CPU time`;
  return [
    { name: `${name}, CPU s`, target: targetS, unit: "s", ...spread(runs.map((r) => r.seconds)), note },
    {
      name: `${name}, peak RSS`,
      target: targetMb,
      unit: "MB",
      ...spread(runs.map((r) => r.rss / 1e6)),
      note: "the process's, node and tsx included",
    },
  ];
}

export default async function bench(): Promise<BenchRow[]> {
  const spec: CollectiveRun = {
    profile: archProfile("trn2"),
    ranks: RANKS,
    nodes: 1,
    collective: "allr",
    algorithm: "auto",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    check: "none",
    timingOnly: false,
    dataSeed: 0,
  };
  const req: PlanRequest = {
    topology: buildTopology(spec.profile, 64, 4),
    collective: "allr",
    algorithm: "ring",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    count: 1 << 29,
  };
  let legs = 0;
  const materialisedMs = cpuMs(() => {
    legs = buildPlan(req).legs.length;
  });
  const streamedMs = cpuMs(() => scheduleCollective(req, { sr: false }));
  const peak = checkedPeakRss();
  const deviceBytes = 3 * SIZE * RANKS; // input, output and scratch of every rank (allr)
  return [
    {
      name: "timing-only allr 1 GiB × 64 ranks / 4 nodes ring, scheduled ÷ materialised plan",
      target: "",
      unit: "× materialised",
      ...spread([streamedMs / materialisedMs]),
      note: `${legs} legs; one run`,
    },
    ...timingOnlyRows(1024, "≤ 2", "≤ 300"),
    ...timingOnlyRows(4096, "≤ 10", "≤ 500"),
    allReduceRow(spec, "≤ 20"),
    allReduceRow({ ...spec, check: "exact" }, "≤ 30"),
    {
      name: "allr 64 MiB × 8 ranks bf16 --check, peak RSS ÷ simulated device bytes",
      target: "≤ 3",
      unit: "× device bytes",
      ...spread([peak / deviceBytes]),
      note: `peak ${(peak / 2 ** 20).toFixed(0)} MiB, device buffers ${deviceBytes >> 20} MiB; own process`,
    },
  ];
}
