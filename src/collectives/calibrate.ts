/**
 * Calibrating the timing model to measured runs (issue 25): read nccom-test `--report-to-json-file`
 * reports (and sdmakit's own, the same schema), time each row with the model, and fit the free
 * parameters of the registry (topology/timing-params.ts: launch, the per-packet and the node message costs) per arch by
 * minimising the mean over the arch's reports of each report's geomean error,
 * exp(mean |ln(model / measured)|) − 1 — the error the calibration test and docs/TIMING.md use.
 * The fit is a pattern search in log space: from the start, try each parameter × e^±s, keep any
 * move that lowers the error, halve s when none does, stop below 0.4 %.
 */
import { FieldError, UsageError } from "../bits/errors.js";
import { type ArchName, archProfile } from "../hal/arch-profile.js";
import { collectiveDtype } from "./check/dtypes.js";
import type { CollectiveName } from "./plan/plan.js";
import { type MeasuredRow, parseMeasuredReport, reportFieldError } from "./report/measured-report.js";
import { type CollectiveRun, prepareSize, runPrepared, type Weigher } from "./run-collective.js";
import { LegMemo } from "./timing/leg-memo.js";
import { scheduleWeight } from "./timing/schedule.js";
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
import { defaultLnc, type Lnc, lncChoices } from "./topology/topology.js";

/** A measured run, as calibration reads it: every setting known. */
export interface MeasuredReport {
  readonly name: string;
  readonly arch: ArchName;
  readonly lnc: 1 | 2;
  readonly ranks: number;
  readonly nodes: number;
  readonly collective: CollectiveName;
  readonly dtype: string;
  readonly rows: readonly MeasuredRow[];
}

/** What a report does not say, from the command line of `calibrate`. */
export interface ReportDefaults {
  readonly arch?: string;
  readonly lnc?: number;
}

/**
 * A report document (parsed JSON) as a measured run, read by the one report reader
 * (report/measured-report.ts): what the report does not say comes from `defaults`, else nccom-test's
 * own defaults (1 node, uint8, the arch's LNC); the collective, rank count and arch must be said.
 * @throws FieldError naming the report, the field and its value.
 */
export function readReport(doc: unknown, name: string, defaults: ReportDefaults = {}): MeasuredReport {
  const { rows, config } = parseMeasuredReport(doc, name);
  const must = <T>(v: T | undefined, path: string): T => {
    if (v === undefined)
      throw new FieldError(name, path, undefined, {
        allowed: "",
        detail: "missing (not in the config or the command line)",
      });
    return v;
  };
  const profile = archProfile(must(config.arch ?? defaults.arch, "config.arch"));
  const lnc = config.lnc ?? defaults.lnc;
  const lncs: readonly number[] = lncChoices(profile);
  if (lnc !== undefined && !lncs.includes(lnc))
    throw reportFieldError(name, "config.lnc", lnc, `${lncs.join(" or ")} on ${profile.name}`);
  const dtype = config.dtype ?? "uint8";
  try {
    collectiveDtype(dtype);
  } catch (e) {
    throw new FieldError(name, "config.datatype", dtype, {
      allowed: "a collective dtype",
      detail: (e as Error).message,
    });
  }
  return {
    name,
    arch: profile.name,
    lnc: lnc === undefined ? defaultLnc(profile) : (lnc as Lnc),
    ranks: must(config.ranks, "config.nworkers"),
    nodes: config.nodes ?? 1,
    collective: must(config.collective, "config.operation"),
    dtype,
    rows,
  };
}

/** The model's time (µs) for each row of a report, with `params` in place of the shipped ones. */
export function modelTimes(r: MeasuredReport, params: Partial<TimingParams> = {}): number[] {
  return timesWith(r, params, scheduleWeight);
}

/** As {@link modelTimes}, each candidate weighed by `weigh` (a fit's memo: reportErrors). */
function timesWith(r: MeasuredReport, params: Partial<TimingParams>, weigh: Weigher): number[] {
  const run: CollectiveRun = {
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
    timingProfile: profileOf({ [r.arch]: params }),
  };
  return r.rows.map((row) => runPrepared(prepareSize(run, row.size, { weigh })).row.timeUs);
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

/** Where a fit starts, what it moves, and how finely (the steps in log units). */
export interface FitOptions {
  /** Default: the shipped values. */
  readonly start?: Partial<TimingParams>;
  /** Default: every free parameter. */
  readonly keys?: readonly TimingKey[];
  /** Default 0.08 (8 %). */
  readonly firstStep?: number;
  /** The search stops once the step is below this; default 0.004 (0.4 %). */
  readonly minStep?: number;
}

/** What decides a report's model times: its run and its sizes. */
function runKey(r: MeasuredReport): string {
  return JSON.stringify([r.arch, r.lnc, r.ranks, r.nodes, r.collective, r.dtype, r.rows.map((x) => x.size)]);
}

/**
 * The per-report errors of every parameter set tried, each set timed once: reports of the same run
 * at the same sizes (a repeat) share their model times, and the start and the end of a search are
 * sets it has already tried. Each candidate request is planned once for all sets (its legs do not
 * depend on the timing parameters: timing/leg-memo.ts); each set times them anew.
 */
function reportErrors(reports: readonly MeasuredReport[]): (p: Record<string, number>) => number[] {
  const runs = new Map<string, MeasuredReport>();
  for (const r of reports) runs.set(runKey(r), r);
  const tried = new Map<string, number[]>();
  const memo = new LegMemo();
  return (p) => {
    const key = JSON.stringify(p);
    let errors = tried.get(key);
    if (errors === undefined) {
      const times = new Map([...runs].map(([k, r]) => [k, timesWith(r, p, memo.weigh)]));
      errors = reports.map((r) => errorOf(r, times.get(runKey(r)) as number[]));
      tried.set(key, errors);
    }
    return errors;
  };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Fit the free parameters of one arch on its reports (pattern search, see the module note).
 * @throws FieldError when a step is not a number > 0 or the smallest step exceeds the first.
 */
export function fitArch(
  arch: ArchName,
  reports: readonly MeasuredReport[],
  options: FitOptions = {},
): ArchFit {
  const { start = {}, keys = FREE_PARAMETERS, firstStep = FIRST_STEP, minStep = MIN_STEP } = options;
  if (!(firstStep > 0)) throw new FieldError("fitArch", "firstStep", firstStep, "(0, ∞)");
  if (!(minStep > 0 && minStep <= firstStep))
    throw new FieldError("fitArch", "minStep", minStep, `(0, firstStep = ${firstStep}]`);
  const shipped = shippedTiming(arch);
  const startAt: Record<string, number> = Object.fromEntries(keys.map((k) => [k, start[k] ?? shipped[k]]));
  const errors = reportErrors(reports);
  const x = { ...startAt };
  let best = mean(errors(x));
  for (let step = firstStep; step >= minStep; ) {
    let moved = false;
    for (const k of keys) {
      for (const dir of [1, -1]) {
        const trial = { ...x, [k]: (x[k] as number) * Math.exp(dir * step) };
        const c = mean(errors(trial));
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
  return { arch, start: rec(startAt), fitted: rec(x), before: errors(startAt), after: errors(x) };
}

/** The free parameters some of the reports depend on: the node message cost only with 2+ nodes. */
function keysFor(reports: readonly MeasuredReport[]): readonly TimingKey[] {
  const multiNode = reports.some((r) => r.nodes > 1);
  return FREE_PARAMETERS.filter((k) => k !== "nodeMessageNs" || multiNode);
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
  const fits = archs.map((a) => {
    const own = reports.filter((r) => r.arch === a);
    return fitArch(a, own, { ...(start[a] === undefined ? {} : { start: start[a] }), keys: keysFor(own) });
  });
  const profile = profileOf(Object.fromEntries(fits.map((f) => [f.arch, f.fitted])), {
    reports: reports.map((r) => r.name),
    parameters: FREE_PARAMETERS,
    error: "exp(mean |ln(model / measured)|) − 1, per report; fitted on their mean",
  });
  return { fits, profile };
}
