/**
 * The library's front door to collectives: `runCollective` (one size) and `sweep` (a size sweep,
 * yielding each size as it finishes) with every setting defaulted from one table, the one the CLI
 * prints in its header and --help. Neither keeps a size's simulated device once its row is made, so
 * a sweep's memory follows its largest size, not the sum.
 */
import { type ArchProfile, archProfile } from "../hal/arch-profile.js";
import type { Dtype } from "../spec/dtype.js";
import { collectiveDtype } from "./check/dtypes.js";
import { COLLECTIVE_DEFAULTS } from "./defaults.js";
import type { HostBudget } from "./device/host-memory.js";
import { checkCollectiveOptions } from "./option-rules.js";
import type { ExchangeSpec } from "./plan/exchange.js";
import type { AlgorithmName, CollectiveName, LegKind, ReduceOp } from "./plan/plan.js";
import type { GroupOptions } from "./replica-groups.js";
import { type ReportRow, sweepSizes } from "./report/report.js";
import { type CheckMode, type CollectiveRun, runSize } from "./run-collective.js";
import type { StreamResult } from "./run-concurrent.js";
import {
  checkStreams,
  concurrentSteps,
  inField,
  type PreparedStream,
  type StreamOptions,
  streamGroups,
} from "./streams.js";
import { checkTimingProfile, type TimingProfile } from "./timing/timing-profile.js";
import { checkLnc, defaultLnc } from "./topology/topology.js";

/**
 * A collective's settings. With `replicaGroups` or `dataParallelDimension` (nccom-test's
 * `--custom-replica-groups`, `--data-parallel-dimension`) it runs over those groups side by side,
 * its size per group; each group is checked, the row's time is the slowest group's.
 */
export interface CollectiveOptions extends GroupOptions {
  readonly collective: CollectiveName;
  readonly ranks?: number;
  readonly nodes?: number;
  /** An arch name (`trn2`), codename or profile. */
  readonly arch?: string | ArchProfile;
  readonly algorithm?: AlgorithmName | "auto";
  /** A dtype name (`bf16`) or code. */
  readonly dtype?: string | Dtype;
  readonly op?: ReduceOp;
  readonly check?: CheckMode;
  /** Schedule only: times without moving data (no check). */
  readonly timingOnly?: boolean;
  /** Seed of the input data, and of stochastic rounding when `sr` is set. */
  readonly seed?: number;
  readonly sr?: boolean;
  readonly sb2sb?: boolean;
  /** Physical cores per rank (nccom-test's NEURON_LOGICAL_NC_CONFIG); default the arch's (defaultLnc). */
  readonly lnc?: 1 | 2;
  /** Host memory a functional run may use (admission control); default DEFAULT_HOST_BUDGET (4 GiB). */
  readonly hostBudget?: HostBudget;
  /** permute: [source, target] rank pairs (nccom-test's --custom-src-target-pairs); default r → r + 1. */
  readonly pairs?: ExchangeSpec["pairs"];
  /** alltoallv / allgv: per-rank counts and displacements (nccom-test's metadata files); default uniform. */
  readonly metadata?: ExchangeSpec["metadata"];
  /** Timing parameters in place of the shipped ones (a parsed `sdmakit calibrate` profile). */
  readonly timingProfile?: TimingProfile;
  /**
   * Threads a functional run may use, 1..MAX_THREADS (default 1): more split the independent work
   * (each rank's inputs) over worker threads on shared device memory, for the same bytes and report.
   */
  readonly threads?: number;
}

export interface SweepOptions extends CollectiveOptions {
  readonly minBytes?: number;
  readonly maxBytes?: number;
  /** Multiply the size by this each step (default 2 unless `step` is given). */
  readonly factor?: number;
  /** Add this many bytes each step instead. */
  readonly step?: number;
  /**
   * nccom-test `--streams-json`: collectives run at once, each over its groups with its own sizes
   * (streams.ts); the run's settings are each stream's defaults. Each step yields a result per stream.
   */
  readonly streams?: readonly StreamOptions[];
}

/** One size's result, without the device it ran on. */
export interface CollectiveResult {
  readonly row: ReportRow;
  readonly algorithm: AlgorithmName;
  readonly check: CheckMode;
  readonly legKinds: Readonly<Record<LegKind, number>>;
  /** The stream this result is of (multistream runs only). */
  readonly stream?: number;
  /** Multistream `runCollective` only: every stream's result (the fields above are stream 0's). */
  readonly streams?: readonly CollectiveResult[];
}

/**
 * The full run description for `options`, defaults filled in.
 * @throws FieldError for an option the rules refuse (option-rules.ts); UsageError for an unknown
 * arch or a dtype collectives cannot take.
 */
export function collectiveRun(options: CollectiveOptions): CollectiveRun {
  checkCollectiveOptions("collectiveRun", options);
  const d = COLLECTIVE_DEFAULTS;
  const arch = options.arch ?? d.arch;
  const dtype = options.dtype ?? d.dtype;
  const seed = options.seed ?? d.seed;
  const timingOnly = options.timingOnly === true;
  const profile = typeof arch === "string" ? archProfile(arch) : arch;
  return {
    profile,
    lnc: checkLnc(profile, options.lnc ?? defaultLnc(profile)),
    ranks: options.ranks ?? d.ranks,
    nodes: options.nodes ?? d.nodes,
    collective: options.collective,
    algorithm: options.algorithm ?? d.algorithm,
    dtype: typeof dtype === "string" ? collectiveDtype(dtype) : dtype,
    op: options.op ?? d.op,
    check: timingOnly ? "none" : (options.check ?? d.check),
    timingOnly,
    sb2sb: options.sb2sb === true,
    dataSeed: seed,
    ...(options.sr ? { srSeed: seed } : {}),
    ...(options.hostBudget === undefined ? {} : { hostBudget: options.hostBudget }),
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...exchangeOf(options),
    ...(options.timingProfile === undefined
      ? {}
      : { timingProfile: checkTimingProfile(options.timingProfile, "timingProfile") }),
  };
}

/** The run's exchange spec, when the options give pairs or metadata. */
function exchangeOf(options: CollectiveOptions): { exchange?: ExchangeSpec } {
  const { pairs, metadata } = options;
  if (pairs === undefined && metadata === undefined) return {};
  return {
    exchange: { ...(pairs === undefined ? {} : { pairs }), ...(metadata === undefined ? {} : { metadata }) },
  };
}

function resultOf(
  run: CollectiveRun,
  size: number,
  onProgress?: (fraction: number) => void,
): CollectiveResult {
  const r = runSize(run, size, onProgress);
  // Only the row and small facts leave: the plan, schedule and device of this size are garbage now.
  return { row: r.row, algorithm: r.plan.algorithm, check: r.check, legKinds: r.legKinds };
}

/** True when the options ask for groups or streams (run together: run-concurrent.ts). */
function concurrent(options: SweepOptions): boolean {
  return (
    options.streams !== undefined ||
    options.replicaGroups !== undefined ||
    options.dataParallelDimension !== undefined
  );
}

/**
 * The streams of a run with groups or streams: each one's run (the run's settings under its own)
 * and sizes. Without `streams`, the run's collective is the one stream.
 * @throws UsageError naming `streams[k].field` for a stream's bad field.
 */
function prepareStreams(options: SweepOptions): PreparedStream[] {
  const base = collectiveRun(options);
  if (options.streams === undefined)
    return [{ stream: { run: base, groups: streamGroups(base, options) }, sizes: sweepSizesOf(options) }];
  const { streams, ...shared } = options;
  return checkStreams(streams).map((s, k) =>
    inField(`streams[${k}]`, () => {
      const merged = { ...shared, ...s };
      const run = collectiveRun(merged);
      const own = s.replicaGroups !== undefined || s.dataParallelDimension !== undefined;
      return { stream: { run, groups: streamGroups(run, own ? s : options) }, sizes: sweepSizesOf(merged) };
    }),
  );
}

function streamResultOf(r: StreamResult, stream: number | undefined): CollectiveResult {
  const base = { row: r.row, algorithm: r.row.algorithm, check: r.check, legKinds: r.legKinds };
  return stream === undefined ? base : { ...base, stream };
}

/**
 * Run one collective at one size (default 1 MiB). With groups, over them side by side; with
 * streams, every stream once, concurrently, each at its own `minBytes` (default `size`).
 * @throws UsageError for a request the topology or planner cannot take; DeviceFault on a device fault.
 * @example runCollective({ collective: "allr", ranks: 8 }).row.busbw;
 */
export function runCollective(options: SweepOptions & { readonly size?: number }): CollectiveResult {
  checkCollectiveOptions("runCollective", options);
  const size = options.size ?? 1024 * 1024;
  if (!concurrent(options)) return resultOf(collectiveRun(options), size);
  const prepared = prepareStreams({ ...options, minBytes: options.minBytes ?? size }).map((p) => ({
    ...p,
    sizes: p.sizes.slice(0, 1),
  }));
  const results = (concurrentSteps(prepared).next().value as StreamResult[]).map((r, k) =>
    streamResultOf(r, options.streams === undefined ? undefined : k),
  );
  const first = results[0] as CollectiveResult;
  return options.streams === undefined ? first : { ...first, streams: results };
}

/** The sizes `options` sweeps (capped: see sweepSizes). */
export function sweepSizesOf(options: SweepOptions): number[] {
  const d = COLLECTIVE_DEFAULTS;
  const step = options.step;
  return sweepSizes({
    min: options.minBytes ?? d.minBytes,
    max: options.maxBytes ?? d.maxBytes,
    factor: step === undefined ? (options.factor ?? d.factor) : options.factor,
    step,
  });
}

/**
 * Sweep sizes, yielding each size's result as soon as it finishes.
 * @param onProgress the fraction of the current size done
 * @example for (const r of sweep({ collective: "allg", ranks: 4, maxBytes: 4096 })) console.log(r.row);
 */
export function* sweep(
  options: SweepOptions,
  onProgress?: (size: number, fraction: number) => void,
): Generator<CollectiveResult> {
  checkCollectiveOptions("sweep", options);
  if (concurrent(options)) {
    const multi = options.streams !== undefined;
    for (const step of concurrentSteps(prepareStreams(options)))
      for (const [k, r] of step.entries()) yield streamResultOf(r, multi ? k : undefined);
    return;
  }
  const run = collectiveRun(options);
  for (const size of sweepSizesOf(options))
    yield resultOf(run, size, onProgress && ((f) => onProgress(size, f)));
}
