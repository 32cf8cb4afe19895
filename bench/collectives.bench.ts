// Collective simulator throughput: a 64 MiB 8-rank bf16 all-reduce on Trn2 (Ring), every packet
// built by the runtime and executed by the engine, as a ratio of wall time to a plain TypedArray
// copy of the same bytes (8 ranks × 64 MiB of input) measured in the same run. The check (exact
// data, every element) is timed separately and reported in the note.
// Timing-only at scale: the streamed schedule of a 64-rank, 4-node 1 GiB Ring all-reduce as a ratio
// to materialising the same plan and timing it with schedulePlan (the oracle), in the same run.
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

export default async function bench(): Promise<{ name: string; ratio: number; note: string }[]> {
  const src = new Uint8Array(SIZE * RANKS).fill(1);
  const dst = new Uint8Array(SIZE * RANKS);
  let copyMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    dst.set(src);
    copyMs = Math.min(copyMs, performance.now() - t0);
  }
  const spec: CollectiveRun = {
    profile: archProfile("trn2"),
    ranks: RANKS,
    nodes: 1,
    collective: "allr",
    algorithm: "ring",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    check: "none",
    timingOnly: false,
    dataSeed: 1,
  };
  const t0 = performance.now();
  const run = runSize(spec, SIZE);
  const simMs = performance.now() - t0;
  const t1 = performance.now();
  const checked = runSize({ ...spec, check: "exact" }, SIZE);
  const checkedMs = performance.now() - t1;
  const gib = (SIZE * RANKS) / 1024 ** 3;
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
  return [
    {
      name: `timing-only allr 1 GiB × 64 ranks / 4 nodes ring, streamed (${plan.legs.length} legs)`,
      ratio: streamedMs / materialisedMs,
      note: `vs materialised plan + schedulePlan (${materialisedMs.toFixed(0)} ms); equal time: ${streamed === materialised}`,
    },
    {
      name: `allr 64 MiB × 8 ranks bf16 ring (${run.packets} packets)`,
      ratio: simMs / copyMs,
      note: `vs TypedArray copy of ${(SIZE * RANKS) >> 20} MiB (${copyMs.toFixed(1)} ms); ${(gib / (simMs / 1000)).toFixed(3)} GiB/s simulated; with --check ${(checkedMs / copyMs).toFixed(1)}× (${checked.row.wrong} wrong)`,
    },
  ];
}
