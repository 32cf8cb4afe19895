/**
 * `collectiveSettings` turns a parse of the collective commands' options (collective-table.ts) into
 * the run, its sizes and the output choices.
 */

import { freemem } from "node:os";
import { didYouMean } from "../bits/did-you-mean.js";
import { UsageError } from "../bits/errors.js";
import {
  ALGORITHMS,
  type AlgorithmName,
  COLLECTIVE_DEFAULTS,
  COLLECTIVE_DTYPES,
  type CollectiveName,
  type CollectiveRun,
  checkTimingProfile,
  collectiveDtype,
  collectiveRun,
  type HostBudget,
  MAX_RANKS,
  MAX_THREADS,
  REDUCE_OPS,
  type ReduceOp,
  sweepSizes,
  type TableColumns,
  type TimeStat,
  type TimingProfile,
} from "../collectives/index.js";
import { DTYPE_ALIASES, type Dtype, dtypeBytes, dtypeName } from "../spec/index.js";
import { type CollectiveValues, TIME_STAT } from "./collective-table.js";
import { exchangeChoice } from "./exchange-options.js";
import { foreignNote } from "./foreign-options.js";
import { readJsonFile } from "./json-file.js";
import { choiceOption, integerOption } from "./options.js";
import type { SweepStep } from "./report-json.js";
import { parseSize } from "./sizes.js";

/** `--timing-profile FILE`: the profile, checked (errors name the file and the field). */
export function timingProfileOf(path: string | undefined): { timingProfile?: TimingProfile } {
  if (path === undefined) return {};
  return {
    timingProfile: checkTimingProfile(readJsonFile("--timing-profile", path), `--timing-profile ${path}`),
  };
}

const D = COLLECTIVE_DEFAULTS;

/** nccom-test's and nccl-tests' dtype names, for the names ours does not take as is. */
const TOOL_DTYPE_NAMES: Readonly<Record<string, string>> = {
  half: "fp16",
  float: "fp32",
  fp8: "fp8_e4",
  fp8e4: "fp8_e4",
  f8e4m3: "fp8_e4",
  fp8e5: "fp8_e5",
  f8e5m2: "fp8_e5",
  fp8e3: "fp8_e3",
};
const CHECK_MODES: Readonly<Record<string, CollectiveRun["check"]>> = {
  exact: "exact",
  all_ones: "exact",
  reference: "reference",
  random: "reference",
};

export interface CollectiveSettings {
  readonly run: CollectiveRun;
  readonly sizes: readonly number[];
  readonly json: boolean;
  readonly reportFile: string | undefined;
  /** nccl-tests' `-J` file as given (the run picks a free name: report-json.ts). */
  readonly ncclReportFile: string | undefined;
  /** How the sweep steps (nccl-tests' report names it). */
  readonly step: SweepStep;
  /** Output paths may be symlinks (their targets are written). */
  readonly followSymlinks: boolean;
  /** `sample`: a trace above its bound is sampled to fit (--trace-sample), not refused. */
  readonly trace: { readonly path: string; readonly size: number; readonly sample: boolean } | undefined;
  /** undefined: on when stderr is a terminal. */
  readonly progress: boolean | undefined;
  /** Header notes (options accepted and ignored). */
  readonly notes: readonly string[];
  /** The table's optional columns (`-t/--stats`, `--show-input-output-size`). */
  readonly columns: TableColumns;
  /** The check was asked for (not our default): a size too large to check refuses the sweep. */
  readonly explicitCheck: boolean;
  /** The sweep as given (-b, -e, -f or -i): what streams without sizes of their own take. */
  readonly sweep: {
    readonly minBytes: number;
    readonly maxBytes: number;
    readonly factor?: number;
    readonly step?: number;
  };
}

/** nccl-tests' `-c N`: N check iterations, 0 = no check. */
const ITERATION_COUNT = /^\d+$/;

function checkOf(v: CollectiveValues, given: ReadonlySet<string>): CollectiveRun["check"] {
  const text = v.check;
  const off =
    v["no-check"] === true || (given.has("check") && ITERATION_COUNT.test(text) && Number(text) === 0);
  if (v["no-check"] && given.has("check")) throw new UsageError("--check and --no-check exclude each other");
  if (off) return "none";
  const mode = ITERATION_COUNT.test(text) ? D.check : CHECK_MODES[text];
  if (mode === undefined)
    throw new UsageError(`--check ${JSON.stringify(text)}: expected exact | reference | random | all_ones`);
  if (v["timing-only"] && given.has("check"))
    throw new UsageError(`--check ${text} and --timing-only exclude each other (timing-only moves no data)`);
  return mode;
}

/** A factor: a number > 1, with size units as nccom-test's doc shows (`-f 2kb`). */
export function factorOf(text: string): number {
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Number(text);
  try {
    return parseSize("-f", text);
  } catch {
    throw new UsageError(`-f ${JSON.stringify(text)}: expected a factor > 1, like 2 or 4`);
  }
}

/** The dtype of `-d`, by our name or either tool's. */
export function dtypeOf(text: string): Dtype {
  const lower = text.toLowerCase();
  try {
    return collectiveDtype(TOOL_DTYPE_NAMES[lower] ?? lower);
  } catch {
    const why = lower === "double" || lower === "fp64" ? " (the CCE has no fp64)" : "";
    const names = [...COLLECTIVE_DTYPES.map(dtypeName), ...Object.keys(TOOL_DTYPE_NAMES), ...DTYPE_ALIASES];
    throw new UsageError(
      `-d ${JSON.stringify(text)}${why}: expected ${COLLECTIVE_DTYPES.map(dtypeName).join(", ")} or ${[...Object.keys(TOOL_DTYPE_NAMES), ...DTYPE_ALIASES].join(", ")}${didYouMean(lower, names)}`,
    );
  }
}

/** nccl-tests' threads per process: `--nthreads`, or its `-t N` (a number is not a statistic). */
function threadsOf(v: CollectiveValues): string | undefined {
  if (v.stats === undefined || !ITERATION_COUNT.test(v.stats)) return v.nthreads;
  if (v.nthreads !== undefined) throw new UsageError(`-t ${v.stats} and --nthreads ${v.nthreads}: give one`);
  return v.stats;
}

/** `-t/--stats`: nccom-test's statistics, one column each (undefined: avg alone, or -t was threads). */
function statsOf(text: string | undefined): readonly TimeStat[] | undefined {
  if (text === undefined || ITERATION_COUNT.test(text)) return undefined;
  const words = text.split(" ");
  const bad = words.find((w) => !TIME_STAT.test(w));
  if (bad !== undefined)
    throw new UsageError(
      `-t ${JSON.stringify(bad)}: expected avg or a percentile p0..p100 (nccom-test's --stats), or a number (nccl-tests' threads)`,
    );
  return words as TimeStat[];
}

/** `-r`; without it nccl-tests' ranks, threads × GPUs (its processes come from the launcher). */
function ranksOf(v: CollectiveValues, given: ReadonlySet<string>): number {
  const threadsText = threadsOf(v);
  if (given.has("nworkers") || (v.ngpus === undefined && threadsText === undefined))
    return integerOption("-r", v.nworkers, 1, MAX_RANKS);
  const gpus = v.ngpus === undefined ? 1 : integerOption("-g", v.ngpus, 1, MAX_RANKS);
  const threads = threadsText === undefined ? 1 : integerOption("--nthreads", threadsText, 1, MAX_RANKS);
  if (gpus * threads > MAX_RANKS)
    throw new UsageError(`--nthreads ${threads} × -g ${gpus}: expected at most ${MAX_RANKS} ranks`);
  return gpus * threads;
}

/** nccom-test's environment variable of the LNC (a logical core is this many physical ones). */
const LNC_ENV = "NEURON_LOGICAL_NC_CONFIG";

/** `--lnc`, else `$NEURON_LOGICAL_NC_CONFIG` as nccom-test reads it, else the arch's default. */
function lncOf(text: string | undefined, env: Readonly<Record<string, string | undefined>>) {
  const from = text !== undefined ? "--lnc" : env[LNC_ENV] !== undefined ? LNC_ENV : undefined;
  if (from === undefined) return {};
  const lnc = choiceOption<"1" | "2">(from, (text ?? env[LNC_ENV]) as string, ["1", "2"]);
  return { lnc: lnc === "1" ? (1 as const) : (2 as const) };
}

/** The environment variable that sets the host budget where the command line does not. */
const MAX_MEMORY_ENV = "SDMAKIT_MAX_MEMORY";

/**
 * `--max-memory`, else $SDMAKIT_MAX_MEMORY (a machine's own limit, for every command line it runs),
 * else half the free memory (a fair share on a shared machine).
 */
function hostBudget(text: string | undefined, env: Readonly<Record<string, string | undefined>>): HostBudget {
  if (text !== undefined) return { bytes: parseSize("--max-memory", text), source: "--max-memory" };
  const fromEnv = env[MAX_MEMORY_ENV];
  if (fromEnv !== undefined) return { bytes: parseSize(MAX_MEMORY_ENV, fromEnv), source: MAX_MEMORY_ENV };
  return { bytes: Math.floor(freemem() / 2), source: "half the free memory; set --max-memory" };
}

/** The sweep's sizes from -b/-e/-f/-i, each at least one element of `dtype`. */
function sweepOf(v: CollectiveValues, dtype: Dtype) {
  const min = parseSize("-b", v.minbytes);
  const max = parseSize("-e", v.maxbytes);
  const unit = dtypeBytes(dtype);
  for (const [opt, bytes, text] of [
    ["-b", min, v.minbytes],
    ["-e", max, v.maxbytes],
  ] as const)
    if (bytes < unit)
      throw new UsageError(
        `${opt} ${JSON.stringify(text)}: expected at least one element (${unit} bytes of ${dtypeName(dtype)})`,
      );
  const step = v.stepbytes === undefined ? undefined : parseSize("-i", v.stepbytes);
  const factor =
    v.stepfactor === undefined ? (step === undefined ? D.factor : undefined) : factorOf(v.stepfactor);
  if (v.stepfactor !== undefined && step !== undefined) throw new UsageError("-f and -i exclude each other");
  const sizes = sweepSizes({ min, max, factor, step }, { min: "-b", max: "-e", factor: "-f", step: "-i" });
  return { sizes, min, max, step, factor };
}

/**
 * The run, sizes and output choices of a parse.
 * @throws UsageError naming the option and echoing its value.
 */
export function collectiveSettings(
  collective: CollectiveName,
  v: CollectiveValues,
  given: ReadonlySet<string>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): CollectiveSettings {
  const timingOnly = v["timing-only"] === true;
  const run = collectiveRun({
    collective,
    ranks: ranksOf(v, given),
    nodes: integerOption("-N", v.nnodes, 1, MAX_RANKS),
    arch: v.arch,
    algorithm: choiceOption<AlgorithmName | "auto">("--algo", v.algo, ["auto", ...ALGORITHMS]),
    dtype: dtypeOf(v.datatype),
    op: choiceOption<ReduceOp>("-o", v.op, REDUCE_OPS),
    check: checkOf(v, given),
    timingOnly,
    seed: integerOption("--seed", v.seed, 0, 0xffffffff),
    sr: v.sr === true,
    sb2sb: v.sb2sb === true,
    ...lncOf(v.lnc, env),
    hostBudget: hostBudget(v["max-memory"], env),
    ...(v.threads === undefined ? {} : { threads: integerOption("--threads", v.threads, 1, MAX_THREADS) }),
    ...exchangeChoice(collective, v),
    ...timingProfileOf(v["timing-profile"]),
  });
  const { sizes, min, max, step, factor } = sweepOf(v, run.dtype);
  const traceSize = v["trace-size"] === undefined ? undefined : parseSize("--trace-size", v["trace-size"]);
  if (traceSize !== undefined && !sizes.includes(traceSize))
    throw new UsageError(
      `--trace-size ${JSON.stringify(v["trace-size"])}: not one of the sweep's sizes (${sizes.join(", ")})`,
    );
  if (v["trace-sample"] === true && v.trace === undefined)
    throw new UsageError("--trace-sample samples the trace of --trace FILE; give --trace too");
  if (v.progress && v["no-progress"]) throw new UsageError("--progress and --no-progress exclude each other");
  for (const [option, text, min] of [
    ["-n", v.iters, 1],
    ["-w", v.warmup_iters, 0],
    ["-I", v.neff_iters, 1],
    ["-W", v.neff_warmup_iters, 0],
  ] as const)
    if (text !== undefined) integerOption(option, text, min, 1e9);
  const note = foreignNote(v, given, env);
  const stats = statsOf(v.stats);
  return {
    run,
    sizes,
    json: v.json === true,
    reportFile: v["report-to-json-file"],
    ncclReportFile: v.output_file,
    step: step === undefined ? { factor: factor as number } : { bytes: step },
    followSymlinks: v["follow-symlinks"] === true,
    trace:
      v.trace === undefined
        ? undefined
        : {
            path: v.trace,
            size: traceSize ?? (sizes[sizes.length - 1] as number),
            sample: v["trace-sample"] === true,
          },
    progress: v.progress ? true : v["no-progress"] ? false : undefined,
    notes: note === undefined ? [] : [note],
    columns: {
      ...(stats === undefined ? {} : { stats }),
      ioSizes: v["show-input-output-size"] === true,
    },
    explicitCheck: given.has("check") && run.check !== "none",
    sweep: {
      minBytes: min,
      maxBytes: max,
      ...(factor === undefined ? {} : { factor }),
      ...(step === undefined ? {} : { step }),
    },
  };
}
