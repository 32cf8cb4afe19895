// Collective simulator throughput: a 64 MiB 8-rank bf16 all-reduce on Trn2 (Ring), every packet
// built by the runtime and executed by the engine, as bench/harness.ts times it (CPU time ÷ a warm
// copy of the 512 MiB it reduces), with and without the check (exact data, every element).
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
import { type BenchRow, cpuMs, RUNS, ratioRow, spread } from "./harness.js";

const SIZE = 64 << 20;
const RANKS = 8;

/** The 8-rank 64 MiB all-reduce, `check` off or exact, RUNS times against a warm copy of its 512 MiB. */
function allReduceRow(spec: CollectiveRun, target: string): BenchRow {
  let packets = 0;
  let wrong = 0;
  const row = ratioRow(
    `allr 64 MiB × 8 ranks bf16 ring${spec.check === "none" ? "" : ", --check"}`,
    target,
    SIZE * RANKS,
    () => {
      const run = runSize(spec, SIZE);
      packets = run.machine?.events.length ?? 0;
      wrong = run.row.wrong;
    },
    "",
    RUNS,
    0,
  );
  const checked = spec.check === "none" ? "unchecked" : `${wrong} wrong`;
  return { ...row, note: `${packets} packets, ${checked}; ${row.note}` };
}

export default async function bench(): Promise<BenchRow[]> {
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
  const req: PlanRequest = {
    topology: buildTopology(spec.profile, 64, 4),
    collective: "allr",
    algorithm: "ring",
    dtype: Dtype.BFLOAT16,
    op: "sum",
    count: 1 << 29,
  };
  let legs = 0;
  let materialisedNs = 0;
  const materialisedMs = cpuMs(() => {
    const plan = buildPlan(req);
    legs = plan.legs.length;
    materialisedNs = schedulePlan(plan, req.topology, { sr: false }).totalNs;
  });
  let streamedNs = 0;
  const streamedMs = cpuMs(() => {
    streamedNs = scheduleStreamed(req, { sr: false }).totalNs;
  });
  return [
    {
      name: "timing-only allr 1 GiB × 64 ranks / 4 nodes ring, streamed ÷ materialised plan",
      target: "",
      unit: "× materialised",
      ...spread([streamedMs / materialisedMs]),
      note: `${legs} legs; one run; same total time: ${streamedNs === materialisedNs}`,
    },
    allReduceRow(spec, "≤ 20"),
    allReduceRow({ ...spec, check: "exact" }, "≤ 30"),
  ];
}
