/**
 * One collective at one size, end to end: plan → schedule (the time) → unless timing-only: inputs,
 * the device run, the checks. What the CLI, the tests and the bench call.
 */
import { UsageError } from "../bits/errors.js";
import { SHARED_SCRATCH_SLOTS } from "../engine/index.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import type { OverflowPolicy } from "../numerics/index.js";
import { type Dtype, dtypeBytes, dtypeName } from "../spec/dtype.js";
import { countRankGuardErrors, type OutputCheck } from "./check/compare.js";
import { type DataKind, exactApplies, generateInputs } from "./check/inputs.js";
import { type RankBuffers, runReference } from "./check/reference.js";
import { CHECK_TILE, type CheckSpec, checkOutputs } from "./check/verify.js";
import { OUTPUT_FILL } from "./device/buffer-layout.js";
import { checkDeviceRanks, checkHbm, DeviceMachine, deviceLayout } from "./device/device-machine.js";
import { admit, DEFAULT_HOST_BUDGET, estimateHostMemory, type HostBudget } from "./device/host-memory.js";
import { buildPlan, candidateAlgorithms, lazyPlan } from "./plan/build-plan.js";
import { type ExchangeSpec, exchangeUnit, isExchange } from "./plan/exchange.js";
import { ScheduleTooLargeError } from "./plan/leg-estimate.js";
import type { AlgorithmName, CollectiveName, LegKind, Plan, ReduceOp } from "./plan/plan.js";
import type { PlanRequest } from "./plan/plan-request.js";
import { formatBytes } from "./report/format-bytes.js";
import { bandwidths, type ReportRow, reportedSize } from "./report/report.js";
import { availableThreads, startWorkers, threadsAvailable } from "./threads/pool.js";
import { executeOnThreads, splittable } from "./threads/threaded-execute.js";
import { checkOnThreads, writeInputsOnThreads } from "./threads/threaded-run.js";
import {
  type LegWeight,
  type PreparedSchedule,
  prepareWithin,
  type Schedule,
  scheduleCollective,
  scheduleWeight,
  type Timing,
} from "./timing/schedule.js";
import { profileParams, type TimingProfile } from "./timing/timing-profile.js";
import { buildTopology, defaultLnc, type Topology } from "./topology/topology.js";

/** `exact`: nccl-tests data, bits vs the exact result; `reference`: random data, bits vs the scalar reference. */
export type CheckMode = "exact" | "reference" | "none";

export interface CollectiveRun {
  readonly profile: ArchProfile;
  /** Logical NeuronCores, as nccom-test's `-r`. */
  readonly ranks: number;
  readonly nodes: number;
  /**
   * Physical cores per rank (nccom-test's `NEURON_LOGICAL_NC_CONFIG`); default as nccom-test:
   * {@link defaultLnc} (Trn1 1, Trn2 / Trn3 2).
   */
  readonly lnc?: 1 | 2;
  readonly collective: CollectiveName;
  /** `auto`: the algorithm the cost model finds fastest at each size. */
  readonly algorithm: AlgorithmName | "auto";
  readonly dtype: Dtype;
  readonly op: ReduceOp;
  readonly check: CheckMode;
  /** Schedule only: no data moved, no check. */
  readonly timingOnly: boolean;
  /** Stochastic rounding seed; RNE when undefined. */
  readonly srSeed?: number;
  /** Seed of the input data. */
  readonly dataSeed: number;
  /** Build LNC2 pair exchanges as SB2SB legs where the pair allows (default off). */
  readonly sb2sb?: boolean;
  /** MODEL default `nan`, the device's (engine/device.ts). */
  readonly overflow?: OverflowPolicy;
  /** Host memory a functional run may use (host-memory.ts); default DEFAULT_HOST_BUDGET. */
  readonly hostBudget?: HostBudget;
  /** permute's pairs, alltoallv / allgv's metadata (plan/exchange.ts). */
  readonly exchange?: ExchangeSpec;
  /** Timing parameters in place of the shipped ones (timing-profile.ts; `sdmakit calibrate` writes them). */
  readonly timingProfile?: TimingProfile;
  /**
   * Threads a functional run may use (default: the cores this process may use from
   * MIN_DEFAULT_THREADED_INPUT_BYTES of inputs, else one; one below MIN_THREADED_INPUT_BYTES whatever
   * is asked). Above 1, device memory is shared, each rank's inputs are
   * generated, the legs executed (split by rank, at most SHARED_SCRATCH_SLOTS
   * threads: threads/threaded-execute.ts) and the exact check's output tiles checked on worker
   * threads (threads/threaded-run.ts) — the same bytes, the same report. Where the runtime has no
   * worker threads (a browser) the run uses one.
   */
  readonly threads?: number;
}

export interface SizeResult {
  readonly row: ReportRow;
  /**
   * The plan that ran. Timing-only streams its legs and keeps none: `plan.legs` and `schedule` are
   * then built on first read (memory in proportion to the legs — a trace, a test), never by the run.
   */
  readonly plan: Plan;
  readonly schedule: Schedule;
  /** Legs of the plan, by kind (without reading `plan.legs`). */
  readonly legKinds: Readonly<Record<LegKind, number>>;
  /** The check actually used (exact data falls back to the reference where it cannot be exact). */
  readonly check: CheckMode;
  /** Packets the engine executed (functional runs). */
  readonly packets?: number;
  /** Host bytes the run allocated: device pages, the check's buffers (functional runs). */
  readonly hostBytes?: { readonly pages: number; readonly check: number };
  /** Every rank's output, when asked for (`keepOutputs`). */
  readonly outputs?: readonly Uint8Array[];
}

/** What a device run gives back (its memory is released). */
interface DeviceRun extends OutputCheck {
  readonly guardErrors: number;
  readonly packets: number;
  readonly hostBytes: { readonly pages: number; readonly check: number };
  readonly outputs?: readonly Uint8Array[];
}

/**
 * Elements for a byte size: whole elements, a multiple of the ranks where the collective splits
 * its buffer evenly (redsct, allg, the uniform exchanges: exchangeUnit), at least one unit.
 */
export function countForSize(
  run: Pick<CollectiveRun, "collective" | "dtype" | "exchange">,
  ranks: number,
  size: number,
): number {
  const { collective } = run;
  const unit =
    collective === "redsct" || collective === "allg"
      ? ranks
      : isExchange(collective)
        ? exchangeUnit(collective, ranks, run.exchange)
        : 1;
  return Math.max(unit, Math.floor(size / dtypeBytes(run.dtype) / unit) * unit);
}

/** The planner's request for a run, an algorithm and a count. */
function requestOf(run: CollectiveRun, t: Topology, algorithm: AlgorithmName, count: number): PlanRequest {
  return {
    topology: t,
    collective: run.collective,
    algorithm,
    dtype: run.dtype,
    op: run.op,
    count,
    sb2sb: run.sb2sb === true,
    ...(run.exchange === undefined ? {} : { exchange: run.exchange }),
  };
}

/** The request of each algorithm a run may take on a topology (auto's candidates, else its own). */
export function candidateRequests(run: CollectiveRun, t: Topology, count: number): PlanRequest[] {
  const algorithms = run.algorithm === "auto" ? candidateAlgorithms(run.collective) : [run.algorithm];
  return algorithms.map((a) => requestOf(run, t, a, count));
}

/**
 * Timing more than this relative margin above the best so far cannot win: what a lower bound must
 * exceed to prune a candidate (the bound and the schedule round differently).
 */
const PRUNE_MARGIN = 1e-9;

/** A candidate's legs to place; a refused one's +Infinity (weighed last, its refusal said then). */
const legsOf = (w: LegWeight | undefined): number => w?.legs ?? Number.POSITIVE_INFINITY;

/**
 * How a candidate is weighed before it is timed: {@link scheduleWeight}, or a memo's that keeps its
 * legs for the next time (timing/leg-memo.ts: a calibration times each request many times).
 */
export type Weigher = (req: PlanRequest) => LegWeight | undefined;

/**
 * Each candidate request timed without materialising it; the fastest wins (first on a tie). The
 * candidate with the fewest legs to place is prepared and placed first; each other one's pre-pass
 * stops once its lower bound exceeds the best time so far (most stop a few steps in), candidates
 * left are placed from the lowest bound up, one whose bound already exceeds the best time is not
 * placed at all, and a placement stops once what it has left cannot end before the best.
 * With several candidates (`auto`) one that refuses the request (UsageError) is skipped; when none
 * can run, the error names each one's reason.
 * @throws UsageError when no candidate can run.
 */
export function chooseAlgorithm(
  run: CollectiveRun,
  requests: readonly PlanRequest[],
  weigh: Weigher = scheduleWeight,
): { req: PlanRequest; timing: Timing } {
  const sr = { sr: run.srSeed !== undefined };
  const auto = run.algorithm === "auto";
  const candidates: { req: PlanRequest; order: number; prepared: PreparedSchedule }[] = [];
  const refused: string[] = [];
  let best: { req: PlanRequest; order: number; timing: Timing } | undefined;
  const cutoff = () => (best === undefined ? undefined : best.timing.totalNs * (1 + PRUNE_MARGIN));
  // Every candidate is weighed first: one too large to schedule is refused before any is placed.
  const byLegs = requests
    .map((req, order) => ({ req, order, weight: weigh(req) }))
    .sort((a, b) => legsOf(a.weight) - legsOf(b.weight) || a.order - b.order);
  for (const { req, order, weight } of byLegs) {
    let prepared: PreparedSchedule | undefined;
    try {
      prepared = prepareWithin(req, sr, cutoff() ?? Number.POSITIVE_INFINITY, weight);
    } catch (e) {
      // With one candidate its own refusal is the answer (an exchange's field error, as it is).
      // Too large to schedule is no reason to pick another: auto would name the wrong winner.
      if (!auto || requests.length === 1 || !(e instanceof UsageError) || e instanceof ScheduleTooLargeError)
        throw e;
      refused.push(`${req.algorithm}: ${e.message}`);
      continue;
    }
    if (prepared === undefined) continue;
    if (best === undefined) best = { req, order, timing: prepared.place() as Timing };
    else candidates.push({ req, order, prepared });
  }
  candidates.sort((a, b) => a.prepared.boundNs - b.prepared.boundNs || a.order - b.order);
  for (const { req, order, prepared } of candidates) {
    const ns = cutoff();
    if (ns !== undefined && prepared.boundNs > ns) break;
    const timing = prepared.place(ns);
    if (timing === undefined) continue;
    const bestNs = best?.timing.totalNs;
    if (bestNs === undefined || timing.totalNs < bestNs || (timing.totalNs === bestNs && order < best!.order))
      best = { req, order, timing };
  }
  if (best === undefined)
    throw new UsageError(`no algorithm can run this collective (${refused.join("; ")})`);
  return best;
}

/** The run's LNC: as asked, else nccom-test's default for the arch. */
const lncOf = (run: CollectiveRun): 1 | 2 => run.lnc ?? defaultLnc(run.profile);

/** The run's topology, with its timing profile's parameters for its arch. */
export function topologyOf(run: CollectiveRun): Topology {
  const timing = profileParams(run.timingProfile, run.profile.name);
  return buildTopology(run.profile, run.ranks, run.nodes, { lnc: lncOf(run), timing });
}

/** The longest typed array a JS engine makes (V8 in Node 20: 2^32 bytes). */
const MAX_TYPED_ARRAY_BYTES = 2 ** 32;

/**
 * Refuse, before anything is built, a functional run the host or the device cannot hold (its rank
 * count is checked before it is timed: checkDeviceRanks).
 */
function admitRun(
  run: CollectiveRun,
  req: PlanRequest,
  check: CheckMode,
  legs: number,
  packets: number,
): void {
  const layout = deviceLayout(lazyPlan(req), run.profile);
  const what = `a functional ${run.collective} of ${run.ranks} ranks × ${req.count} ${dtypeName(run.dtype)} elements`;
  admit(what, estimateHostMemory(layout, run.profile, check, { legs, packets }), run.hostBudget);
  checkHbm(layout, run.profile);
  const s = layout.plan.sizes;
  const largest = Math.max(s.input, s.output, s.scratch) * dtypeBytes(run.dtype);
  if (check === "reference" && largest > MAX_TYPED_ARRAY_BYTES) {
    throw new UsageError(
      `${what}: the scalar reference holds whole buffers, at most ${formatBytes(MAX_TYPED_ARRAY_BYTES)} (a typed array); ` +
        `these are ${formatBytes(largest)}: use --check-mode exact, --no-check or a smaller size`,
    );
  }
}

/**
 * The check a run will do: exact data falls back to the reference where it cannot be exact. An
 * exchange is checked as copies, bits against their sources, whatever the data: always exact.
 */
export function checkOf(run: CollectiveRun): CheckMode {
  if (isExchange(run.collective)) return run.check === "none" ? "none" : "exact";
  return run.check === "exact" && !exactApplies(run.op, run.dtype, run.ranks) ? "reference" : run.check;
}

/**
 * The data a device run is given: exact data for an exact check, and without a check the data the
 * default check would use (--no-check runs the same collective); random data for an exchange, whose
 * copies are checked as bits whatever they hold and where distinct values show a misplaced block.
 */
export function dataKindOf(run: CollectiveRun, check: CheckMode): DataKind {
  if (isExchange(run.collective)) return "random";
  const exact = check === "exact" || (check === "none" && exactApplies(run.op, run.dtype, run.ranks));
  return exact ? "exact" : "random";
}

/** One size made ready to run: everything decided before a device is built. */
export interface PreparedSize {
  readonly run: CollectiveRun;
  /** The size asked for, in bytes. */
  readonly size: number;
  readonly topology: Topology;
  /** The nccom-test count for the size (countForSize). */
  readonly count: number;
  /** The check the run does (exact data falls back to the reference where it cannot be exact). */
  readonly check: CheckMode;
  /** Each candidate algorithm's request (one unless `auto`), in the order `auto` tries them. */
  readonly candidates: readonly PlanRequest[];
  /** The request that won, and its time. */
  readonly req: PlanRequest;
  readonly timing: Timing;
  /**
   * Why the functional run asked for cannot be held (the device's ranks or HBM, the host budget),
   * when `fallBack` made this size timing-only instead (`run` is then timing-only).
   */
  readonly refusal?: UsageError;
}

/** The run timing-only: the same schedule, no data, no check. */
const timingOnlyOf = (run: CollectiveRun): CollectiveRun => ({ ...run, timingOnly: true, check: "none" });

/** The admission's refusal of a functional run, or undefined when it is admitted. */
function refusalOf(admission: () => void): UsageError | undefined {
  try {
    admission();
    return undefined;
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
}

/**
 * Prepare one size: the topology, the count, the check, the candidates, the algorithm the cost
 * model picks (each candidate's plan emitted once, chooseAlgorithm) and — for a functional run —
 * the one admission (device ranks, HBM, the host budget with the winner's real leg and packet
 * counts). The CLI calls it on a sweep's largest size before printing anything, and runs that
 * size from it. `fallBack`: a functional run the device or host cannot hold is prepared
 * timing-only instead (the same time), with the refusal in `refusal`. `weigh`: how candidates are
 * weighed (chooseAlgorithm).
 * @throws UsageError for a request the topology or planners cannot take, or (unless `fallBack`)
 *   the device or host budget.
 */
export function prepareSize(
  run: CollectiveRun,
  size: number,
  options: { readonly fallBack?: boolean; readonly weigh?: Weigher } = {},
): PreparedSize {
  const topology = topologyOf(run);
  const count = countForSize(run, run.ranks, size);
  const candidates = candidateRequests(run, topology, count);
  const fallBack = (refusal: UsageError | undefined) => {
    if (refusal !== undefined && options.fallBack !== true) throw refusal;
    return refusal;
  };
  const ranksRefusal = run.timingOnly
    ? undefined
    : fallBack(refusalOf(() => checkDeviceRanks(run.ranks, run.profile, lncOf(run))));
  const { req, timing } = chooseAlgorithm(run, candidates, options.weigh);
  const functional = !run.timingOnly && ranksRefusal === undefined;
  const check = functional ? checkOf(run) : "none";
  const legs = Object.values(timing.legKinds).reduce((a, b) => a + b, 0);
  const refusal =
    ranksRefusal ??
    (functional ? fallBack(refusalOf(() => admitRun(run, req, check, legs, timing.packets))) : undefined);
  const prepared = { run, size, topology, count, check, candidates, req, timing };
  return refusal === undefined ? prepared : { ...prepared, run: timingOnlyOf(run), check: "none", refusal };
}

/** What checking a run's outputs needs: the run, its elements a rank (`sizes`), the overflow. */
export function checkSpecOf(run: CollectiveRun, sizes: Plan["sizes"], overflow: OverflowPolicy): CheckSpec {
  return {
    collective: run.collective,
    op: run.op,
    dtype: run.dtype,
    ranks: run.ranks,
    inputCount: sizes.input,
    outputCount: sizes.output,
    overflow,
    exchange: run.exchange,
  };
}

/**
 * The reference run of a run's plan over the inputs the device read, with the device's output fill,
 * overflow and SR seed: what a `reference` check compares the device's outputs with.
 */
export function referenceRun(
  plan: Plan,
  run: CollectiveRun,
  inputs: readonly Uint8Array[],
  overflow: OverflowPolicy,
): RankBuffers[] {
  const seed = run.srSeed === undefined ? {} : { srSeed: run.srSeed };
  return runReference(plan, run.profile, inputs, { fill: OUTPUT_FILL, overflow, ...seed });
}

/** The check of a finished device run, and the bytes it held (the reference's whole buffers). */
function checkOnDevice(
  machine: DeviceMachine,
  run: CollectiveRun,
  check: CheckMode,
  threads: number,
): { checked: OutputCheck; checkBytes: number } {
  const { plan } = machine;
  const overflow = machine.opts.overflow;
  const spec = checkSpecOf(run, plan.sizes, overflow);
  if (check === "exact") {
    const checked =
      threads > 1 && !isExchange(run.collective)
        ? checkOnThreads(machine, spec, threads)
        : checkOutputs(spec, machine.reader(CHECK_TILE));
    return { checked, checkBytes: 0 };
  }
  if (check === "none") return { checked: { wrong: -1, maxAbsErr: 0 }, checkBytes: 0 };
  const inputs = Array.from({ length: run.ranks }, (_, r) => machine.read(r, "input"));
  const ref = referenceRun(plan, run, inputs, overflow);
  let checkBytes = inputs.reduce((n, b) => n + b.length, 0);
  for (const b of ref) checkBytes += b.input.length + b.output.length + b.scratch.length;
  const expected = ref.map((b) => b.output);
  return { checked: checkOutputs(spec, machine.reader(CHECK_TILE), expected), checkBytes };
}

/**
 * Inputs (summed over the ranks) below which a run uses one thread whatever it may use: posting to
 * a worker and its first start cost more than generating a few MiB here.
 */
export const MIN_THREADED_INPUT_BYTES = 8 << 20;

/**
 * Inputs (summed over the ranks) from which a run not told its threads takes the cores: below, a
 * process's worker start-up costs more than the threads save. Measured with whole processes on a
 * quiet 2-core machine, 8-rank bf16 all-reduce, one thread ÷ two in wall time: 4 MiB a rank 0.82,
 * 16 MiB 0.91, 32 MiB 1.08, 64 MiB 1.32 (npm run bench's cold threads row).
 */
export const MIN_DEFAULT_THREADED_INPUT_BYTES = 256 << 20;

/**
 * The threads a run uses where the runtime has worker threads: as asked (from
 * MIN_THREADED_INPUT_BYTES of inputs), else the cores (from MIN_DEFAULT_THREADED_INPUT_BYTES); one
 * otherwise.
 */
export function threadsOf(run: CollectiveRun, plan: Pick<Plan, "sizes">): number {
  const bytes = run.ranks * plan.sizes.input * dtypeBytes(run.dtype);
  const threads = run.threads ?? (bytes >= MIN_DEFAULT_THREADED_INPUT_BYTES ? availableThreads() : 1);
  return threads > 1 && bytes >= MIN_THREADED_INPUT_BYTES && threadsAvailable() ? threads : 1;
}

/** Run the plan on a device whose memory is given back when done (peak = one size, not the sum). */
function runOnDevice(
  run: CollectiveRun,
  plan: Plan,
  check: CheckMode,
  onProgress: ((fraction: number) => void) | undefined,
  keepOutputs: boolean,
): DeviceRun {
  const overflow = run.overflow ?? "nan";
  const seed = run.srSeed === undefined ? {} : { srSeed: run.srSeed };
  const memoryBudget = (run.hostBudget ?? DEFAULT_HOST_BUDGET).bytes;
  const threads = threadsOf(run, plan);
  const machine = new DeviceMachine(plan, run.profile, {
    overflow,
    memoryBudget,
    keepEvents: false,
    sharedMemory: threads > 1,
    ...seed,
  });
  try {
    machine.prefill();
    const kind = dataKindOf(run, check);
    const spec = { kind, dtype: run.dtype, ranks: run.ranks, count: plan.sizes.input, seed: run.dataSeed };
    if (threads > 1) writeInputsOnThreads(machine, spec, threads);
    else {
      const write = (r: number, from: number, b: Uint8Array) => machine.writeInput(r, from, b);
      generateInputs(spec, write, { blocks: true, target: machine.inputTarget() });
    }
    const progress = onProgress && ((done: number) => onProgress(done / plan.legs.length));
    const executing = Math.min(threads, SHARED_SCRATCH_SLOTS, run.ranks);
    if (executing > 1 && splittable(plan)) executeOnThreads(machine, executing, progress);
    else machine.execute(progress);
    const guardErrors = countRankGuardErrors(machine.device.memory, run.ranks, (r) =>
      machine.layout.guards(r),
    );
    const { checked, checkBytes } = checkOnDevice(machine, run, check, threads);
    return {
      ...checked,
      guardErrors,
      packets: machine.packets,
      hostBytes: { pages: machine.pageBytes, check: checkBytes },
      ...(keepOutputs
        ? { outputs: Array.from({ length: run.ranks }, (_, r) => machine.read(r, "output")) }
        : {}),
    };
  } finally {
    machine.release();
  }
}

/**
 * Run one size: {@link prepareSize}, then {@link runPrepared}.
 * @throws UsageError for a request the topology, planner, device or host budget cannot take.
 * @throws DeviceFault when the device faults or stalls.
 */
export function runSize(
  run: CollectiveRun,
  size: number,
  onProgress?: (fraction: number) => void,
  options: { readonly keepOutputs?: boolean } = {},
): SizeResult {
  return runPrepared(prepareSize(run, size), onProgress, options);
}

/**
 * Run a prepared size (admitted already, its time known): unless timing-only, build the plan, run
 * it on a device whose memory is given back before this returns — a result holds no device
 * (`keepOutputs`: copies of the outputs) — and check it.
 * @throws DeviceFault when the device faults or stalls.
 */
export function runPrepared(
  prepared: PreparedSize,
  onProgress?: (fraction: number) => void,
  options: { readonly keepOutputs?: boolean } = {},
): SizeResult {
  const { run, req, timing, check, count } = prepared;
  const reported = reportedSize(run.collective, run.ranks, count, dtypeBytes(run.dtype));
  const sr = { sr: run.srSeed !== undefined };
  const bw = bandwidths(run.collective, run.ranks, reported.size, timing.totalNs);
  const lazy = lazyPlan(req);
  const base = {
    ...reported,
    type: dtypeName(run.dtype),
    algorithm: req.algorithm,
    timeUs: timing.totalNs / 1000,
    ...bw,
    inputBytes: lazy.sizes.input * dtypeBytes(run.dtype),
    outputBytes: lazy.sizes.output * dtypeBytes(run.dtype),
  };
  const legKinds = timing.legKinds;
  // Per-leg times only when read (a trace, a test): the same scheduler, recording.
  let recorded: Schedule | undefined;
  const schedule = () => {
    recorded ??= scheduleCollective(req, { ...sr, record: true }).schedule as Schedule;
    return recorded;
  };
  if (run.timingOnly) {
    return {
      row: { ...base, wrong: -1, maxAbsErr: 0, guardErrors: 0 },
      plan: lazy,
      get schedule() {
        return schedule();
      },
      legKinds,
      check: "none",
    };
  }
  // Workers start loading now, while the plan is built (a cold process's first run waits less).
  const threads = threadsOf(run, lazy);
  if (threads > 1) startWorkers(threads - 1);
  const plan = buildPlan(req);
  const { wrong, maxAbsErr, guardErrors, ...device } = runOnDevice(
    run,
    plan,
    check,
    onProgress,
    options.keepOutputs === true,
  );
  return {
    row: { ...base, wrong, maxAbsErr, guardErrors },
    plan,
    get schedule() {
      return schedule();
    },
    legKinds,
    check,
    ...device,
  };
}
