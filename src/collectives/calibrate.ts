/**
 * Calibrating the timing model to measured runs (issue 25): read nccom-test `--report-to-json-file`
 * reports (and sdmakit's own, the same schema), time each row with the model, and fit the free
 * parameters of the registry (topology/timing-params.ts: launch and the DMA ceiling) per arch by
 * minimising the mean over the arch's reports of each report's geomean error,
 * exp(mean |ln(model / measured)|) − 1 — the error the calibration test and docs/TIMING.md use.
 * The fit is a pattern search in log space: from the start, try each parameter × e^±s, keep any
 * move that lowers the error, halve s when none does, stop below 0.4 %.
 */
import { UsageError } from "../bits/errors.js";
import { type ArchName, archProfile } from "../hal/arch-profile.js";
import { collectiveDtype } from "./check/dtypes.js";
import { COLLECTIVES, type CollectiveName } from "./plan/plan.js";
import { runSize } from "./run-collective.js";
import {
  TIMING_PROFILE_FORMAT,
  TIMING_PROFILE_VERSION,
  type TimingProfile,
} from "./timing/timing-profile.js";
import {
  shippedTiming,
  TIMING_PARAMETERS,
  type TimingKey,
  type TimingParams,
} from "./topology/timing-params.js";
import { checkLnc, defaultLnc, MAX_RANKS } from "./topology/topology.js";

/** A measured run, as calibration reads it. */
export interface MeasuredReport {
  readonly name: string;
  readonly arch: ArchName;
  readonly lnc: 1 | 2;
  readonly ranks: number;
  readonly nodes: number;
  readonly collective: CollectiveName;
  readonly dtype: string;
  readonly rows: readonly { readonly size: number; readonly timeUs: number }[];
}

/** What a report does not say, from the command line of `calibrate`. */
export interface ReportDefaults {
  readonly arch?: string;
  readonly lnc?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The value after a flag in a command line (`-r 32`, `--nworkers=32`). */
function argValue(args: readonly string[], flags: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    for (const f of flags) {
      if (a === f) return args[i + 1];
      if (a.startsWith(`${f}=`)) return a.slice(f.length + 1);
    }
  }
  return undefined;
}

/** The collective a command line names (nccom-test's positional operation). */
function argCollective(args: readonly string[]): string | undefined {
  return args.find((a) => (COLLECTIVES as readonly string[]).includes(a));
}

/** A field of the report: its config's, else its command line's, else the default. */
function field(
  name: string,
  cfg: Record<string, unknown>,
  keys: readonly string[],
  fromArgs: string | undefined,
  fallback?: string | number,
): string {
  for (const k of keys) if (cfg[k] !== undefined) return String(cfg[k]);
  if (fromArgs !== undefined) return fromArgs;
  if (fallback !== undefined) return String(fallback);
  throw new UsageError(`${name}: config.${keys[0]} missing (not in the config or the command line)`);
}

function positiveInt(where: string, name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_RANKS)
    throw new UsageError(`${where}: ${name} ${JSON.stringify(text)}: expected an integer 1..${MAX_RANKS}`);
  return n;
}

/** A row's time: nccom-test's `time:avg(us)` (or `time(us)`, or another statistic). */
function rowOf(where: string, k: number, r: unknown) {
  if (!isObject(r)) throw new UsageError(`${where}: results[${k}] ${JSON.stringify(r)}: expected an object`);
  // A report may write its numbers as strings ("1024"); a string that is not a number stays refused.
  const num = (v: unknown) =>
    typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v;
  const size = num(r["size(B)"]);
  const timeKey = ["time:avg(us)", "time(us)", "time:p50(us)"].find((t) => r[t] !== undefined);
  const time = timeKey === undefined ? undefined : num(r[timeKey]);
  if (typeof size !== "number" || !Number.isInteger(size) || size < 1)
    throw new UsageError(`${where}: results[${k}].size(B) ${JSON.stringify(size)}: expected an integer ≥ 1`);
  if (typeof time !== "number" || !(time > 0) || !Number.isFinite(time))
    throw new UsageError(
      `${where}: results[${k}].time:avg(us) ${JSON.stringify(time)}: expected a number > 0`,
    );
  return { size, timeUs: time };
}

/**
 * A report document (parsed JSON) as a measured run: the configuration from its `config`
 * (operation, nworkers, nnodes, datatype, arch, lnc — sdmakit's keys), else its command line
 * (`args`: -r, -N, -d, the operation), else `defaults`; rows from `results`.
 * @throws UsageError naming the report, the field and its value.
 */
export function readReport(doc: unknown, name: string, defaults: ReportDefaults = {}): MeasuredReport {
  if (!isObject(doc))
    throw new UsageError(`${name}: expected a JSON object (a --report-to-json-file report)`);
  const cfg = isObject(doc.config) ? doc.config : {};
  const args = Array.isArray(doc.args) ? doc.args.map(String) : [];
  if (!Array.isArray(doc.results) || doc.results.length === 0)
    throw new UsageError(
      `${name}: results ${JSON.stringify(doc.results)}: expected a non-empty array of rows`,
    );
  const collective = field(name, cfg, ["operation", "collective"], argCollective(args));
  if (!(COLLECTIVES as readonly string[]).includes(collective))
    throw new UsageError(
      `${name}: config.operation ${JSON.stringify(collective)}: expected one of ${COLLECTIVES.join(", ")}`,
    );
  const archName = field(name, cfg, ["arch"], undefined, defaults.arch);
  const profile = archProfile(archName);
  const lncText = field(name, cfg, ["lnc"], argValue(args, ["--lnc"]), defaults.lnc ?? defaultLnc(profile));
  const ranks = positiveInt(
    name,
    "config.nworkers",
    field(name, cfg, ["nworkers", "ranks"], argValue(args, ["-r", "--nworkers"])),
  );
  const nodes = positiveInt(
    name,
    "config.nnodes",
    field(name, cfg, ["nnodes", "nodes"], argValue(args, ["-N", "--nnodes"]), 1),
  );
  const dtype = field(name, cfg, ["datatype", "dtype"], argValue(args, ["-d", "--datatype"]), "uint8");
  collectiveDtype(dtype);
  return {
    name,
    arch: profile.name,
    lnc: checkLnc(profile, Number(lncText)),
    ranks,
    nodes,
    collective: collective as CollectiveName,
    dtype,
    rows: doc.results.map((r, k) => rowOf(name, k, r)),
  };
}

/** The model's time (µs) for each row of a report, with `params` in place of the shipped ones. */
export function modelTimes(r: MeasuredReport, params: Partial<TimingParams> = {}): number[] {
  const timingProfile = profileOf({ [r.arch]: params });
  return r.rows.map(
    (row) =>
      runSize(
        {
          profile: archProfile(r.arch),
          lnc: r.lnc,
          ranks: r.ranks,
          nodes: r.nodes,
          collective: r.collective,
          algorithm: "auto",
          dtype: collectiveDtype(r.dtype),
          op: "sum",
          check: "none",
          timingOnly: true,
          dataSeed: 0,
          timingProfile,
        },
        row.size,
      ).row.timeUs,
  );
}

/** exp(mean |ln(model / measured)|) − 1 over a report's rows. */
export function reportError(r: MeasuredReport, params: Partial<TimingParams> = {}): number {
  return errorOf(r, modelTimes(r, params));
}

function errorOf(r: MeasuredReport, model: readonly number[]): number {
  const sum = r.rows.reduce((a, row, k) => a + Math.abs(Math.log((model[k] as number) / row.timeUs)), 0);
  return Math.exp(sum / r.rows.length) - 1;
}

/** A profile document of per-arch parameters. */
export function profileOf(
  archs: Partial<Record<ArchName, Partial<TimingParams>>>,
  fit?: unknown,
): TimingProfile {
  return {
    format: TIMING_PROFILE_FORMAT,
    version: TIMING_PROFILE_VERSION,
    archs,
    ...(fit === undefined ? {} : { fit }),
  };
}

/** The free parameters (`sdmakit calibrate` fits these). */
export const FREE_PARAMETERS: readonly TimingKey[] = TIMING_PARAMETERS.filter((p) => p.free).map(
  (p) => p.key,
);

export interface ArchFit {
  readonly arch: ArchName;
  readonly start: Readonly<Record<TimingKey, number>>;
  readonly fitted: Readonly<Record<TimingKey, number>>;
  /** Per report (in order): its error before (start) and after the fit. */
  readonly before: readonly number[];
  readonly after: readonly number[];
}

/** The first and the smallest step of the search (log units): 8 %, 0.4 %. */
const FIRST_STEP = 0.08;
const MIN_STEP = 0.004;

/** What decides a report's model times: its run and its sizes. */
function runKey(r: MeasuredReport): string {
  return JSON.stringify([r.arch, r.lnc, r.ranks, r.nodes, r.collective, r.dtype, r.rows.map((x) => x.size)]);
}

/**
 * Fit the free parameters of one arch on its reports (pattern search, see the module note), from
 * `start` (default the shipped values).
 */
export function fitArch(
  arch: ArchName,
  reports: readonly MeasuredReport[],
  start: Partial<TimingParams> = {},
  keys: readonly TimingKey[] = FREE_PARAMETERS,
): ArchFit {
  const shipped = shippedTiming(arch);
  const x: Record<string, number> = Object.fromEntries(keys.map((k) => [k, start[k] ?? shipped[k]]));
  // Reports of the same run at the same sizes (a repeat) are timed once per trial.
  const runs = new Map<string, MeasuredReport>();
  for (const r of reports) runs.set(runKey(r), r);
  const cost = (p: Record<string, number>) => {
    const times = new Map([...runs].map(([key, r]) => [key, modelTimes(r, p)]));
    return reports.reduce((a, r) => a + errorOf(r, times.get(runKey(r)) as number[]), 0) / reports.length;
  };
  const before = reports.map((r) => reportError(r, x));
  let best = before.reduce((a, b) => a + b, 0) / reports.length;
  for (let step = FIRST_STEP; step >= MIN_STEP; ) {
    let moved = false;
    for (const k of keys) {
      for (const dir of [1, -1]) {
        const trial = { ...x, [k]: (x[k] as number) * Math.exp(dir * step) };
        const c = cost(trial);
        if (c < best - 1e-12) {
          best = c;
          Object.assign(x, trial);
          moved = true;
          break;
        }
      }
    }
    if (!moved) step /= 2;
  }
  const rec = (o: Record<string, number>) => o as Readonly<Record<TimingKey, number>>;
  const startRec = Object.fromEntries(keys.map((k) => [k, start[k] ?? shipped[k]]));
  return { arch, start: rec(startRec), fitted: rec(x), before, after: reports.map((r) => reportError(r, x)) };
}

/**
 * Fit every arch the reports cover; the profile holds each arch's fitted free parameters.
 * @throws UsageError when there are no reports.
 */
export function calibrate(
  reports: readonly MeasuredReport[],
  start: Partial<Record<ArchName, Partial<TimingParams>>> = {},
): { readonly fits: readonly ArchFit[]; readonly profile: TimingProfile } {
  if (reports.length === 0) throw new UsageError("calibrate: no reports (expected REPORT.json …)");
  const archs = [...new Set(reports.map((r) => r.arch))];
  const fits = archs.map((a) =>
    fitArch(
      a,
      reports.filter((r) => r.arch === a),
      start[a],
    ),
  );
  const profile = profileOf(Object.fromEntries(fits.map((f) => [f.arch, f.fitted])), {
    reports: reports.map((r) => r.name),
    parameters: FREE_PARAMETERS,
    error: "exp(mean |ln(model / measured)|) − 1, per report; fitted on their mean",
  });
  return { fits, profile };
}
