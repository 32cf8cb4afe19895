// Collective simulator throughput, the main job: `sdmakit allr -r 8 -d bf16 -b 64mb -e 64mb` (auto
// algorithm), every packet built by the runtime and executed by the engine, as bench/harness.ts
// times it (CPU time ÷ a warm copy of the 512 MiB it reduces), with and without the check (exact
// data, every element); the device arenas are reused across runs, as a size sweep reuses them.
// The checked run's peak RSS is measured in a process of its own against the simulated device bytes.
// The same job on one thread against the cores this process may use (`--threads`), in wall time.
// Timing-only at scale: the one (streaming) scheduler on a 64-rank, 4-node 1 GiB Ring all-reduce as
// a ratio to materialising the same plan (buildPlan), in the same run; and `--timing-only`
// all-reduces of 1 GiB over 1024 and 4096 ranks (16 a node), of 64 KiB over 4096 ranks (64 a node)
// and of 64 B and 1 GiB over 16384 ranks (64 a node) in absolute CPU seconds and peak RSS, each run
// in a process of its own (the targets for these are absolute).
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import {
  availableThreads,
  buildPlan,
  buildTopology,
  type CollectiveRun,
  runSize,
  scheduleCollective,
} from "../src/collectives/index.js";
import type { PlanRequest } from "../src/collectives/plan/plan-request.js";
import { archProfile } from "../src/hal/arch-profile.js";
import { Dtype } from "../src/spec/dtype.js";
import { bandwidthGot, coresGot } from "./cores-got.js";
import { type BenchRow, cpuMs, RUNS, ratioRow, spread } from "./harness.js";

const SIZE = 64 << 20;
const RANKS = 8;

/** The 8-rank 64 MiB all-reduce, `check` off or exact, RUNS times against a warm copy of its 512 MiB. */
function allReduceRow(spec: CollectiveRun, target: string): BenchRow {
  let packets = 0;
  let wrong = 0;
  const row = ratioRow(
    `allr 64 MiB × 8 ranks bf16 ${spec.algorithm}${spec.check === "none" ? "" : ", --check"}${spec.threads === 1 ? ", --threads 1" : ""}`,
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

/** Wall milliseconds of one run of the main job on `threads` threads (no copy of the outputs kept). */
function wallMs(spec: CollectiveRun, threads: number): number {
  const t0 = performance.now();
  runSize({ ...spec, threads }, SIZE);
  return performance.now() - t0;
}

/**
 * The main job on one thread ÷ on the cores this process may use, in wall time (threads add CPU
 * time, so the harness's CPU ratio cannot show them), in alternation after a warm-up pair that
 * compares both runs' rows and every output byte. The 1-minute load average and the cores this
 * process got (cores-got.ts) before and after go in the note: on a shared 2-core machine a loaded
 * host leaves no core to spare.
 */
export function threadsRow(spec: CollectiveRun, target: string): BenchRow {
  const threads = availableThreads();
  const [load0] = loadavg();
  const cores0 = coresGot();
  const one = runSize({ ...spec, threads: 1 }, SIZE, undefined, { keepOutputs: true });
  const many = runSize({ ...spec, threads }, SIZE, undefined, { keepOutputs: true });
  const same =
    JSON.stringify(one.row) === JSON.stringify(many.row) &&
    (one.outputs ?? []).every((o, r) => Buffer.compare(o, many.outputs?.[r] as Uint8Array) === 0);
  const ratios: number[] = [];
  for (let i = 0; i < RUNS; i++) ratios.push(wallMs(spec, 1) / wallMs(spec, threads));
  const [load1] = loadavg();
  const cores1 = coresGot();
  const bandwidth = bandwidthGot();
  const checked = spec.check === "none" ? "" : ", --check";
  return {
    name: `allr 64 MiB × 8 ranks bf16 auto${checked}, --threads 1 ÷ --threads ${threads} (wall)`,
    target,
    unit: "× faster",
    ...spread(ratios),
    note: `rows and bytes ${same ? "the same" : "DIFFER"}; load ${load0?.toFixed(1)} → ${load1?.toFixed(1)} on ${threads} cores; this process got ${cores0.toFixed(1)} → ${cores1.toFixed(1)} of them (two spins against one), and ${bandwidth.toFixed(1)}× one thread's memory bandwidth (two copies against one)`,
  };
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

/** CPU seconds and peak RSS (bytes) of a timing-only all-reduce in a process of its own. */
function timingOnlyRun(
  ranks: number,
  nodes: number,
  size: number,
  algorithm: string,
): { seconds: number; rss: number } {
  const code = `
    import { runSize } from "./src/collectives/index.ts";
    import { archProfile } from "./src/hal/arch-profile.ts";
    const c0 = process.cpuUsage();
    runSize({ profile: archProfile("trn2"), ranks: ${ranks}, nodes: ${nodes}, collective: "allr",
      algorithm: "${algorithm}", dtype: ${Dtype.BFLOAT16}, op: "sum", check: "none", timingOnly: true, dataSeed: 0 }, ${size});
    const c = process.cpuUsage(c0);
    process.stdout.write(JSON.stringify({ seconds: (c.user + c.system) / 1e6, rss: process.resourceUsage().maxRSS * 1024 }));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: new URL("..", import.meta.url),
    encoding: "utf8",
  });
  return JSON.parse(out) as { seconds: number; rss: number };
}

/** A timing-only all-reduce shape: ranks, nodes, bytes, algorithm, and how many runs. */
interface TimingShape {
  readonly ranks: number;
  readonly nodes: number;
  readonly size: number;
  readonly algorithm: string;
  readonly runs?: number;
}

/** Two rows, seconds and peak MB, of timing-only runs of a shape. */
export function timingOnlyRows(shape: TimingShape, targetS: string, targetMb: string): BenchRow[] {
  const { ranks, nodes, size, algorithm } = shape;
  const n = shape.runs ?? RUNS;
  const runs = Array.from({ length: n }, () => timingOnlyRun(ranks, nodes, size, algorithm));
  const bytes = size >= 2 ** 30 ? `${size / 2 ** 30} GiB` : size >= 1024 ? `${size / 1024} KiB` : `${size} B`;
  const name = `timing-only allr ${bytes} × ${ranks} ranks / ${nodes} nodes ${algorithm}`;
  const note = `${n} runs, each its own process; CPU time`;
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

/**
 * Issue 29's timing-only rows: 1 GiB at 1024, 4096 and 16384 ranks, small messages at 4096 ranks
 * (they fold onto a node), and the raised rank cap. Auto at 16384 ranks × 1 GiB picks RDH, folded
 * onto a node by XOR (timing/rdh-image.ts); 64 B over 16384 ranks does not fold (2 granules over 256
 * nodes) and walks its 2 chunks.
 */
function timingOnlySection(): BenchRow[] {
  return [
    ...timingOnlyRows({ ranks: 1024, nodes: 64, size: 2 ** 30, algorithm: "auto" }, "≤ 2", "≤ 300"),
    ...timingOnlyRows({ ranks: 4096, nodes: 256, size: 2 ** 30, algorithm: "auto" }, "≤ 10", "≤ 500"),
    ...timingOnlyRows({ ranks: 4096, nodes: 64, size: 64 << 10, algorithm: "auto" }, "≤ 10", "≤ 1000"),
    ...timingOnlyRows(
      { ranks: 16384, nodes: 256, size: 2 ** 30, algorithm: "kangaring", runs: 2 },
      "≤ 30",
      "≤ 1500",
    ),
    ...timingOnlyRows(
      { ranks: 16384, nodes: 256, size: 64, algorithm: "kangaring", runs: 2 },
      "≤ 30",
      "≤ 1500",
    ),
    ...timingOnlyRows(
      { ranks: 16384, nodes: 256, size: 2 ** 30, algorithm: "auto", runs: 2 },
      "≤ 30",
      "≤ 1500",
    ),
  ];
}

/**
 * The main job's four CPU ratios: auto (kangaring) and ring, unchecked and checked (issue 29's
 * targets), on one thread: process CPU time counts every thread's, so a second thread would add its
 * own cost to the per-packet figure; the threads rows below give the wall-time gain.
 */
function mainJobRows(job: CollectiveRun): BenchRow[] {
  const spec = { ...job, threads: 1 };
  const ring = { ...spec, algorithm: "ring" as const };
  return [
    allReduceRow(spec, "≤ 10"),
    allReduceRow({ ...spec, check: "exact" }, "≤ 15"),
    allReduceRow(ring, "≤ 10"),
    allReduceRow({ ...ring, check: "exact" }, "≤ 15"),
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
  // BENCH_ROWS=main-job: only the main job's CPU ratios (the rest take minutes of processes).
  if (process.env.BENCH_ROWS === "main-job") return mainJobRows(spec);
  // BENCH_ROWS=threads: only the rows of one thread against every core.
  if (process.env.BENCH_ROWS === "threads")
    return [threadsRow(spec, "≥ 1.5"), threadsRow({ ...spec, check: "exact" }, "≥ 1.5")];
  // BENCH_ROWS=timing-only: only the timing-only rows (each its own process).
  if (process.env.BENCH_ROWS === "timing-only") return timingOnlySection();
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
    ...timingOnlySection(),
    ...mainJobRows(spec),
    threadsRow(spec, "≥ 1.5"),
    threadsRow({ ...spec, check: "exact" }, "≥ 1.5"),
    {
      name: "allr 64 MiB × 8 ranks bf16 --check, peak RSS ÷ simulated device bytes",
      target: "≤ 3",
      unit: "× device bytes",
      ...spread([peak / deviceBytes]),
      note: `peak ${(peak / 2 ** 20).toFixed(0)} MiB, device buffers ${deviceBytes >> 20} MiB; own process`,
    },
  ];
}
