// Collective simulator throughput, the main job: `sdmakit allr -r 8 -d bf16 -b 64mb -e 64mb` (auto
// algorithm), every packet built by the runtime and executed by the engine, as a ratio of wall time
// to a warm in-process TypedArray copy of the 512 MiB it reduces (8 ranks × 64 MiB), pair by pair
// (copy, run, copy, run …; median and min–max of the per-pair ratios) after one warm-up run — the
// device arenas are reused across runs, as a size sweep reuses them. `--no-check` and checked rows,
// and the checked run's peak RSS in a process of its own against the simulated device bytes.
// Timing-only at scale: the streamed schedule of a 64-rank, 4-node 1 GiB Ring all-reduce as a ratio
// to materialising the same plan and timing it with schedulePlan (the oracle), in the same run.

import { execFileSync } from "node:child_process";
import {
  buildPlan,
  buildTopology,
  type CollectiveRun,
  runSize,
  schedulePlan,
  scheduleStreamed,
} from "../src/collectives/index.js";
import type { PlanRequest } from "../src/collectives/plan-request.js";
import { archProfile } from "../src/hal/arch-profile.js";
import { Dtype } from "../src/spec/dtype.js";

const SIZE = 64 << 20;
const RANKS = 8;
/** Pairs per main-job row (BENCH_MAIN_RUNS to change; each run is seconds to tens of seconds). */
const RUNS = Number(process.env.BENCH_MAIN_RUNS ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

/**
 * Per-pair ratios of `run` to a warm copy of `src` into `dst` (the best of three copies just before
 * it: on this shared VM a lone copy after a run that churned memory measured up to 25× a warm one),
 * after one warm-up of each.
 */
function pairedRatios(
  src: Uint8Array,
  dst: Uint8Array,
  run: () => void,
): { ratios: number[]; copyMs: number[]; runMs: number[] } {
  const time = (fn: () => void) => {
    const t0 = performance.now();
    fn();
    return performance.now() - t0;
  };
  dst.set(src);
  run();
  const ratios: number[] = [];
  const copyMs: number[] = [];
  const runMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c = Math.min(...[0, 1, 2].map(() => time(() => dst.set(src))));
    const t = time(run);
    copyMs.push(c);
    runMs.push(t);
    ratios.push(t / c);
  }
  return { ratios, copyMs, runMs };
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

export default async function bench(): Promise<{ name: string; ratio: number; note: string }[]> {
  const src = new Uint8Array(SIZE * RANKS).fill(1);
  const dst = new Uint8Array(SIZE * RANKS);
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
  let packets = 0;
  let wrong = 0;
  const plain = pairedRatios(src, dst, () => {
    packets = runSize(spec, SIZE).packets ?? 0;
  });
  const checked = pairedRatios(src, dst, () => {
    wrong += runSize({ ...spec, check: "exact" }, SIZE).row.wrong;
  });
  const peak = checkedPeakRss();
  const inputBytes = SIZE * RANKS;
  const deviceBytes = 3 * inputBytes; // input, output and scratch of every rank (allr)
  const req: PlanRequest = {
    topology: buildTopology(spec.profile, 64, 4),
    collective: "allr",
    algorithm: "ring",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    count: 1 << 29,
  };
  const m0 = performance.now();
  const plan = buildPlan(req);
  const materialised = schedulePlan(plan, req.topology, { sr: false }).totalNs;
  const materialisedMs = performance.now() - m0;
  const s0 = performance.now();
  const streamed = scheduleStreamed(req, { sr: false }).totalNs;
  const streamedMs = performance.now() - s0;
  const copy = `warm copy of ${inputBytes >> 20} MiB ${median(plain.copyMs).toFixed(1)} ms`;
  return [
    {
      name: `timing-only allr 1 GiB × 64 ranks / 4 nodes ring, streamed (${plan.legs.length} legs)`,
      ratio: streamedMs / materialisedMs,
      note: `vs materialised plan + schedulePlan (${materialisedMs.toFixed(0)} ms); equal time: ${streamed === materialised}`,
    },
    {
      name: `allr 64 MiB × 8 ranks bf16 auto --no-check (${packets} packets)`,
      ratio: median(plain.ratios),
      note: `vs ${copy}; run ${median(plain.runMs).toFixed(0)} ms; ${RUNS} pairs, min–max ${spread(plain.ratios)}; target ≤ 20×`,
    },
    {
      name: "allr 64 MiB × 8 ranks bf16 auto, checked (exact data)",
      ratio: median(checked.ratios),
      note: `vs ${copy}; run ${median(checked.runMs).toFixed(0)} ms; ${RUNS} pairs, min–max ${spread(checked.ratios)}; ${wrong} wrong; target ≤ 30×`,
    },
    {
      name: "checked run's peak RSS / simulated device bytes",
      ratio: peak / deviceBytes,
      note: `${(peak / 2 ** 20).toFixed(0)} MiB in its own process; device buffers ${deviceBytes >> 20} MiB (${(peak / inputBytes).toFixed(2)}× the ${inputBytes >> 20} MiB of inputs); target ≤ 3×`,
    },
  ];
}
