/**
 * One step of collectives that run at once — the replica groups of one collective, the streams of
 * a multistream run — end to end: each group's algorithm picked as it would be alone on its ranks,
 * every group of every stream timed together by the one scheduler (timing/concurrent-schedule.ts),
 * then, unless timing-only, all of them run on one simulated device and each group checked
 * (device/concurrent-machine.ts). A stream's row is what nccom-test prints for it: its size per
 * group, its slowest group's time, bandwidths with the group's bus factor.
 */
import { dtypeBytes, dtypeName } from "../spec/dtype.js";
import { countRankGuardErrors, type OutputCheck } from "./check/compare.js";
import { generateInputs } from "./check/inputs.js";
import { CHECK_TILE, checkOutputs } from "./check/verify.js";
import { placeGroups, SharedDevice } from "./device/concurrent-machine.js";
import {
  admit,
  DEFAULT_HOST_BUDGET,
  estimateSharedHostMemory,
  type HostEstimate,
} from "./device/host-memory.js";
import { buildPlan, lazyPlan } from "./plan/build-plan.js";
import { LEG_KINDS, type LegKind, noLegKinds } from "./plan/plan.js";
import { bufferSizes, type PlanRequest } from "./plan/plan-request.js";
import { bandwidths, type ReportRow, reportedSize } from "./report/report.js";
import {
  type CheckMode,
  type CollectiveRun,
  candidateRequests,
  checkOf,
  checkSpecOf,
  chooseAlgorithm,
  countForSize,
  dataKindOf,
  referenceRun,
  topologyOf,
} from "./run-collective.js";
import { type ConcurrentMember, groupTopology, scheduleConcurrent } from "./timing/concurrent-schedule.js";

/** One stream: a collective (its run's collective, dtype, op, algorithm) over groups of the run's ranks. */
export interface StreamRun {
  /** The run: ranks, nodes, arch, LNC, check, seeds are the run's; collective, dtype, op, algorithm the stream's. */
  readonly run: CollectiveRun;
  /** The groups it runs over, side by side (all the run's ranks as one group when it has none). */
  readonly groups: readonly (readonly number[])[];
}

/** A stream's row at one step, and what produced it. */
export interface StreamResult {
  readonly row: ReportRow;
  readonly check: CheckMode;
  /** Each group's time in µs, in group order. */
  readonly groupTimesUs: readonly number[];
  /** Legs of all its groups, by kind. */
  readonly legKinds: Readonly<Record<LegKind, number>>;
  /** Host bytes of the shared device's pages the step allocated (functional runs). */
  readonly pageBytes?: number;
}

/** A stream's run as one of its groups sees it (the group's rank count: what its check counts on). */
export function groupRun(stream: StreamRun, group: readonly number[]): CollectiveRun {
  return { ...stream.run, ranks: group.length, nodes: 1 };
}

/** What one group's check found. */
interface MemberCheck extends OutputCheck {
  readonly guardErrors: number;
}

/** Check group `g`'s outputs and guards on the shared device, as a run of its own checks them. */
function checkGroup(d: SharedDevice, g: number, run: CollectiveRun, req: PlanRequest): MemberCheck {
  const guardErrors = countRankGuardErrors(d.device.memory, run.ranks, (r) => d.guards(g, r));
  const check = checkOf(run);
  if (check === "none") return { wrong: -1, maxAbsErr: 0, guardErrors };
  const overflow = d.device.overflow;
  const spec = checkSpecOf(run, bufferSizes(req), overflow);
  const reader = d.reader(g, CHECK_TILE);
  if (check === "exact") return { ...checkOutputs(spec, reader), guardErrors };
  const inputs = Array.from({ length: run.ranks }, (_, r) => d.read(g, r, "input"));
  const ref = referenceRun(buildPlan(req), run, inputs, overflow);
  return {
    ...checkOutputs(
      spec,
      reader,
      ref.map((b) => b.output),
    ),
    guardErrors,
  };
}

/**
 * Run every group of every stream on one device and check each (per member, in member order).
 * @throws UsageError when the device cannot hold them; DeviceFault on a fault or stall.
 */
function runConcurrentOnDevice(
  streams: readonly StreamRun[],
  planned: Planned,
): { checks: MemberCheck[]; pageBytes: number } {
  const first = (streams[0] as StreamRun).run;
  const { members, streamOf } = planned;
  const groups = members.map((m, i) => ({
    plan: buildPlan(m.req),
    ranks: m.ranks,
    stream: streamOf[i] as number,
  }));
  const overflow = first.overflow ?? "nan";
  const memoryBudget = (first.hostBudget ?? DEFAULT_HOST_BUDGET).bytes;
  const opts = { srSeed: first.srSeed, overflow, memoryBudget };
  const d = new SharedDevice(first.profile, first.lnc ?? 1, groups, first.ranks, streams.length, opts);
  const runs = members.map((m, i) => groupRun(streams[streamOf[i] as number] as StreamRun, m.ranks));
  try {
    d.prefill();
    runs.forEach((run, g) => {
      const write = (r: number, from: number, b: Uint8Array) => d.writeInput(g, r, from, b);
      const input = bufferSizes((members[g] as ConcurrentMember).req).input;
      const kind = dataKindOf(run, checkOf(run));
      generateInputs({ kind, dtype: run.dtype, ranks: run.ranks, count: input, seed: run.dataSeed }, write, {
        blocks: true,
      });
    });
    d.execute();
    const checks = runs.map((run, g) => checkGroup(d, g, run, (members[g] as ConcurrentMember).req));
    return { checks, pageBytes: d.pageBytes };
  } finally {
    d.release();
  }
}

interface Planned {
  readonly members: ConcurrentMember[];
  /** Per member: its stream. */
  readonly streamOf: number[];
}

/** The host memory of a step's device run (`legs`, `packets`: their counts, 0 where not known yet). */
function estimateOf(
  streams: readonly StreamRun[],
  planned: Planned,
  legs: number,
  packets: number,
): HostEstimate {
  const first = (streams[0] as StreamRun).run;
  const lnc = first.lnc ?? 1;
  const { members, streamOf } = planned;
  const groups = members.map((m, i) => ({
    plan: lazyPlan(m.req),
    ranks: m.ranks,
    stream: streamOf[i] as number,
  }));
  const sr = first.srSeed !== undefined;
  const placed = placeGroups(first.profile, lnc, groups, first.ranks, streams.length, sr);
  const checks = members.map((m, i) =>
    checkOf(groupRun(streams[streamOf[i] as number] as StreamRun, m.ranks)),
  );
  const withChecks = placed.map((p, i) => ({ ...p, check: checks[i] as CheckMode }));
  return estimateSharedHostMemory(withChecks, first.profile, lnc, { legs, packets });
}

/** Refuse a step's device run over the host budget, before anything is allocated. */
function admitStep(streams: readonly StreamRun[], planned: Planned, legs: number, packets: number): void {
  const first = (streams[0] as StreamRun).run;
  const n = streams.length;
  const what =
    `a functional run of ${n} stream${n === 1 ? "" : "s"} (${planned.members.length} groups) ` +
    `on ${first.ranks} ranks`;
  admit(what, estimateOf(streams, planned, legs, packets), first.hostBudget);
}

/**
 * The host memory a functional step at these sizes takes (its plans' legs not counted).
 * @example concurrentHostEstimate(streams, [1024, 1024]).totalBytes;
 */
export function concurrentHostEstimate(
  streams: readonly StreamRun[],
  sizes: readonly number[],
): HostEstimate {
  return estimateOf(streams, planMembers(streams, sizes), 0, 0);
}

/**
 * Refuse a functional step at these sizes that the host budget cannot hold (a sweep asks it of its
 * largest step before it runs any; each step is admitted again with its legs and packets counted).
 * Timing-only runs build no buffer: always admitted.
 * @throws UsageError naming the estimate and the budget.
 */
export function admitConcurrentSize(
  streams: readonly StreamRun[],
  sizes: readonly number[],
  chosen?: ChosenRequests,
): void {
  if ((streams[0] as StreamRun).run.timingOnly) return;
  admitStep(streams, planMembers(streams, sizes, chosen), 0, 0);
}

/**
 * The requests `auto` chose for the same streams, by stream, group and size: a sweep asks the
 * same ones again (its admission asks the last step's first; a stream whose sizes end sooner stays
 * at its last), and the choice depends on nothing else — in the guide's multistream line, 15 of
 * its 60 choices, each planning and timing every candidate on 16 or 64 ranks.
 */
export type ChosenRequests = Map<string, PlanRequest>;

/** Every group of every stream planned alone (its algorithm as `auto` picks it on its ranks). */
function planMembers(
  streams: readonly StreamRun[],
  sizes: readonly number[],
  chosen?: ChosenRequests,
): Planned {
  const first = (streams[0] as StreamRun).run;
  const t = topologyOf(first);
  const members: ConcurrentMember[] = [];
  const streamOf: number[] = [];
  streams.forEach((s, k) => {
    s.groups.forEach((g, i) => {
      const key = `${k} ${i} ${sizes[k]}`;
      let req = chosen?.get(key);
      if (req === undefined) {
        const run = groupRun(s, g);
        const count = countForSize(run, g.length, sizes[k] as number);
        req = chooseAlgorithm(run, candidateRequests(run, groupTopology(t, g), count)).req;
        chosen?.set(key, req);
      }
      members.push({ req, ranks: g });
      streamOf.push(k);
    });
  });
  return { members, streamOf };
}

/** A stream's row from its members' times (and checks). */
function streamRow(
  stream: StreamRun,
  reqs: readonly PlanRequest[],
  ns: readonly number[],
  checked: readonly { wrong: number; maxAbsErr: number; guardErrors: number }[] | undefined,
): ReportRow {
  const { run } = stream;
  const req = reqs[0] as PlanRequest;
  const n = req.topology.ranks;
  const eb = dtypeBytes(run.dtype);
  const slowest = ns.indexOf(Math.max(...ns));
  const timeNs = ns[slowest] as number;
  const sizes = bufferSizes(req);
  const wrong = checked === undefined ? -1 : checked.reduce((a, c) => a + c.wrong, 0);
  const reported = reportedSize(run.collective, n, req.count, eb);
  return {
    ...reported,
    type: dtypeName(run.dtype),
    algorithm: (reqs[slowest] as PlanRequest).algorithm,
    timeUs: timeNs / 1000,
    ...bandwidths(run.collective, n, reported.size, timeNs),
    wrong,
    maxAbsErr: checked === undefined ? 0 : Math.max(...checked.map((c) => c.maxAbsErr)),
    guardErrors: checked === undefined ? 0 : checked.reduce((a, c) => a + c.guardErrors, 0),
    inputBytes: sizes.input * eb,
    outputBytes: sizes.output * eb,
  };
}

/**
 * Run one step of concurrent streams, stream k at `sizes[k]` bytes (per group, as a collective of
 * the group's ranks counts it). Every stream's run has the same ranks, nodes, arch, LNC, check and
 * timing-only choice.
 * @throws UsageError for a request a topology, planner, the device or the host cannot take.
 * @throws DeviceFault when the device faults or stalls.
 */
export function runConcurrentSize(
  streams: readonly StreamRun[],
  sizes: readonly number[],
  chosen?: ChosenRequests,
): StreamResult[] {
  const { members, streamOf } = planMembers(streams, sizes, chosen);
  const first = (streams[0] as StreamRun).run;
  const timing = scheduleConcurrent(topologyOf(first), members, { sr: first.srSeed !== undefined });
  let device: ReturnType<typeof runConcurrentOnDevice> | undefined;
  if (!first.timingOnly) {
    const legs = timing.legKinds.reduce(
      (sum, kinds) => sum + Object.values(kinds).reduce((a, b) => a + b, 0),
      0,
    );
    const packets = Math.ceil(timing.descriptors.reduce((a, b) => a + b, 0) / 2);
    admitStep(streams, { members, streamOf }, legs, packets);
    device = runConcurrentOnDevice(streams, { members, streamOf });
  }
  const checked = device?.checks;
  return streams.map((s, k) => {
    const mine = streamOf.flatMap((sk, i) => (sk === k ? [i] : []));
    const ns = mine.map((i) => timing.totalNs[i] as number);
    const reqs = mine.map((i) => (members[i] as ConcurrentMember).req);
    const row = streamRow(
      s,
      reqs,
      ns,
      checked && mine.map((i) => checked[i] as { wrong: number; maxAbsErr: number; guardErrors: number }),
    );
    const check = first.timingOnly ? "none" : checkOf(groupRun(s, s.groups[0] as number[]));
    const legKinds = noLegKinds();
    for (const i of mine) {
      const kinds = timing.legKinds[i] as Readonly<Record<LegKind, number>>;
      for (const kind of LEG_KINDS) legKinds[kind] += kinds[kind];
    }
    const result = { row, check, groupTimesUs: ns.map((x) => x / 1000), legKinds };
    return device === undefined ? result : { ...result, pageBytes: device.pageBytes };
  });
}
