/**
 * One collective at one size, end to end: plan → schedule (the time) → unless timing-only: inputs,
 * the device run, the checks. What the CLI, the tests and the bench call.
 */
import { UsageError } from "../bits/errors.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import type { OverflowPolicy } from "../numerics/index.js";
import { type Dtype, dtypeBytes, dtypeName } from "../spec/dtype.js";
import { exactResult } from "./check/exact-result.js";
import { exactApplies, makeInputs } from "./check/inputs.js";
import { runReference } from "./check/reference.js";
import { countGuardErrors, countWrong, encodeExact, maxAbsError } from "./check/verify.js";
import { OUTPUT_FILL } from "./device/buffer-layout.js";
import { DeviceMachine } from "./device/device-machine.js";
import { buildPlan, lazyPlan } from "./plan/build-plan.js";
import type { AlgorithmName, CollectiveName, LegKind, Plan, ReduceOp } from "./plan/plan.js";
import type { PlanRequest } from "./plan/plan-request.js";
import { bandwidths, type ReportRow } from "./report/report.js";
import { type Schedule, scheduleCollective, type Timing } from "./timing/schedule.js";
import { buildTopology, defaultLnc, type Topology } from "./timing/topology.js";

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
  readonly machine?: DeviceMachine;
}

const ALGORITHMS: readonly AlgorithmName[] = ["ring", "kangaring", "mesh"];

/** Elements for a byte size: whole elements, a multiple of the ranks for redsct / allg, at least one unit. */
export function countForSize(collective: CollectiveName, ranks: number, dt: Dtype, size: number): number {
  const unit = collective === "redsct" || collective === "allg" ? ranks : 1;
  return Math.max(unit, Math.floor(size / dtypeBytes(dt) / unit) * unit);
}

/**
 * The request of each candidate algorithm, timed without materialising it; the fastest wins (first
 * on a tie). Under `auto` a candidate that refuses the request (UsageError) is skipped; when none can
 * run, the error names each one's reason.
 * @throws UsageError when no candidate can run.
 */
function chooseAlgorithm(
  run: CollectiveRun,
  t: Topology,
  count: number,
): { req: PlanRequest; timing: Timing } {
  const sr = { sr: run.srSeed !== undefined };
  const auto = run.algorithm === "auto";
  const algos = !auto ? [run.algorithm] : run.collective === "sendrecv" ? ["ring" as const] : ALGORITHMS;
  let best: { req: PlanRequest; timing: Timing } | undefined;
  const refused: string[] = [];
  for (const algorithm of algos) {
    const req: PlanRequest = {
      topology: t,
      collective: run.collective,
      algorithm,
      dtype: run.dtype,
      op: run.op,
      count,
      sb2sb: run.sb2sb === true,
    };
    let timing: Timing;
    try {
      timing = scheduleCollective(req, sr);
    } catch (e) {
      if (!auto || !(e instanceof UsageError)) throw e;
      refused.push(`${algorithm}: ${e.message}`);
      continue;
    }
    if (best === undefined || timing.totalNs < best.timing.totalNs) best = { req, timing };
  }
  if (best === undefined)
    throw new UsageError(`no algorithm can run this collective (${refused.join("; ")})`);
  return best;
}

/** Map ranks' arrays, encoding an array shared by several ranks once. */
function encodeOnce(arrays: readonly Float64Array[], encode: (a: Float64Array) => Uint8Array): Uint8Array[] {
  const done = new Map<Float64Array, Uint8Array>();
  return arrays.map((a) => {
    let e = done.get(a);
    if (e === undefined) {
      e = encode(a);
      done.set(a, e);
    }
    return e;
  });
}

/**
 * The inputs' bytes and, when checked, the exact result — computed before the run so the decoded
 * inputs (4 bytes an element per rank) are garbage by the time the device holds its buffers.
 */
function prepareInputs(
  run: CollectiveRun,
  check: CheckMode,
  count: number,
): { bytes: readonly Uint8Array[]; exact: Float64Array[] | undefined } {
  const made = makeInputs(check === "exact" ? "exact" : "random", run.dtype, run.ranks, count, run.dataSeed);
  const exact = check === "none" ? undefined : exactResult(run.collective, run.op, made.values);
  return { bytes: made.bytes, exact };
}

/**
 * Run one size.
 * @throws UsageError for a request the topology, planner or device cannot take.
 * @throws DeviceFault when the device faults or stalls.
 */
export function runSize(
  run: CollectiveRun,
  size: number,
  onProgress?: (fraction: number) => void,
): SizeResult {
  const t = buildTopology(run.profile, run.ranks, run.nodes, run.lnc ?? defaultLnc(run.profile));
  const count = countForSize(run.collective, run.ranks, run.dtype, size);
  const bytes = count * dtypeBytes(run.dtype);
  const sr = { sr: run.srSeed !== undefined };
  const { req, timing } = chooseAlgorithm(run, t, count);
  const bw = bandwidths(run.collective, run.ranks, bytes, timing.totalNs);
  const base = {
    size: bytes,
    count,
    type: dtypeName(run.dtype),
    algorithm: req.algorithm,
    timeUs: timing.totalNs / 1000,
    ...bw,
  };
  const legKinds = timing.legKinds;
  // Per-leg times only when read (a trace, a test): the same scheduler, recording.
  let recorded: Schedule | undefined;
  const result = (plan: Plan, row: ReportRow, check: CheckMode, machine?: DeviceMachine): SizeResult => ({
    row,
    plan,
    get schedule() {
      recorded ??= scheduleCollective(req, { ...sr, record: true }).schedule as Schedule;
      return recorded;
    },
    legKinds,
    check,
    ...(machine === undefined ? {} : { machine }),
  });
  if (run.timingOnly)
    return result(lazyPlan(req), { ...base, wrong: -1, maxAbsErr: 0, guardErrors: 0 }, "none");
  const plan = buildPlan(req);
  const overflow = run.overflow ?? "nan";
  const check: CheckMode =
    run.check === "exact" && !exactApplies(run.op, run.dtype, run.ranks) ? "reference" : run.check;
  const inputs = prepareInputs(run, check, plan.sizes.input);
  const seed = run.srSeed === undefined ? {} : { srSeed: run.srSeed };
  const machine = new DeviceMachine(plan, run.profile, { overflow, ...seed });
  machine.load(inputs.bytes);
  machine.execute(onProgress && ((done) => onProgress(done / plan.legs.length)));
  let guardErrors = 0;
  for (let r = 0; r < run.ranks; r++) {
    for (const g of machine.layout.guards(r))
      guardErrors += countGuardErrors(machine.device.memory.read(g.addr, g.bytes));
  }
  const exact = inputs.exact;
  if (check === "none" || exact === undefined)
    return result(plan, { ...base, wrong: -1, maxAbsErr: 0, guardErrors }, check, machine);
  const expected =
    check === "exact"
      ? encodeOnce(exact, (e) => encodeExact(run.dtype, e, overflow))
      : runReference(plan, run.profile, inputs.bytes, { fill: OUTPUT_FILL, overflow, ...seed }).map(
          (b) => b.output,
        );
  let wrong = 0;
  let maxAbsErr = 0;
  // An output equal to what was expected has that expectation's error: ranks sharing one (allr,
  // allg) decode it once.
  const errorOfExpected = new Map<Uint8Array, { exact: Float64Array; err: number }>();
  for (let r = 0; r < run.ranks; r++) {
    const out = machine.read(r, "output");
    const want = expected[r]!;
    const w = countWrong(out, want, run.dtype);
    wrong += w;
    let known = w === 0 ? errorOfExpected.get(want) : undefined;
    if (known === undefined || known.exact !== exact[r]) {
      known = { exact: exact[r]!, err: maxAbsError(out, run.dtype, exact[r]!) };
      if (w === 0) errorOfExpected.set(want, known);
    }
    maxAbsErr = Math.max(maxAbsErr, known.err);
  }
  return result(plan, { ...base, wrong, maxAbsErr, guardErrors }, check, machine);
}
