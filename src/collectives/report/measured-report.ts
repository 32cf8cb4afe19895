/**
 * A measured report read back: nccom-test's `--report-to-json-file` document (its `results`, one
 * object per size with `size(B)`, `time:avg(us)` — `time(us)` in older tables — and the bandwidth
 * keys, as the nccom-test user guide prints one) or sdmakit's own, which adds a `config`. Compared
 * row by row with the model's rows of the same sizes: the error is the model's time against the
 * measured one. The web page's Run view reads hardware reports through this one reader.
 */
import { FieldError } from "../../bits/errors.js";
import type { ReportRow } from "./report.js";

/** One measured row. */
export interface MeasuredRow {
  readonly size: number;
  readonly timeUs: number;
  readonly busbw?: number;
  readonly algorithm?: string;
}

/** What a report says about its run, where it says it (sdmakit's `config`). */
export interface MeasuredConfig {
  readonly collective?: string;
  readonly ranks?: number;
  readonly nodes?: number;
  readonly dtype?: string;
  readonly arch?: string;
}

export interface HardwareReport {
  readonly rows: readonly MeasuredRow[];
  readonly config: MeasuredConfig;
}

/** One row of the comparison: measured against the model, the error in % of the measured time. */
export interface ComparedRow {
  readonly size: number;
  readonly measuredUs: number;
  readonly modelUs: number;
  /** 100 × (model − measured) / measured. */
  readonly errorPct: number;
  readonly measuredBusbw: number | undefined;
  readonly modelBusbw: number;
}

const CONTEXT = "measured report";
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The time key of a row: `time:avg(us)`, else `time(us)`, else the first `time:…(us)`. */
function timeKey(row: Record<string, unknown>): string | undefined {
  if ("time:avg(us)" in row) return "time:avg(us)";
  if ("time(us)" in row) return "time(us)";
  return Object.keys(row).find((k) => /^time:.+\(us\)$/.test(k));
}

function positive(path: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0)
    throw new FieldError(CONTEXT, path, v, "a number > 0");
  return v;
}

function rowOf(v: unknown, i: number): MeasuredRow {
  const path = `results[${i}]`;
  if (!isObject(v)) throw new FieldError(CONTEXT, path, v, "an object", `${path} is not an object`);
  const size = v["size(B)"];
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)
    throw new FieldError(CONTEXT, `${path}.size(B)`, size, "an integer ≥ 0");
  const key = timeKey(v);
  if (key === undefined)
    throw new FieldError(CONTEXT, `${path}.time:avg(us)`, undefined, "a number > 0", `${path} has no time`);
  const busbw = v["busbw(GB/s)"];
  const algorithm = v.algorithm;
  return {
    size,
    timeUs: positive(`${path}.${key}`, v[key]),
    ...(typeof busbw === "number" && Number.isFinite(busbw) ? { busbw } : {}),
    ...(typeof algorithm === "string" ? { algorithm } : {}),
  };
}

/** sdmakit's own config keys (nccom-test's report may carry none). */
function configOf(v: unknown): MeasuredConfig {
  if (!isObject(v)) return {};
  const text = (k: string) => (typeof v[k] === "string" ? { [k]: v[k] as string } : {});
  const num = (k: string) => (typeof v[k] === "number" ? (v[k] as number) : undefined);
  const ranks = num("nworkers");
  const nodes = num("nnodes");
  const { operation, datatype, arch } = { ...text("operation"), ...text("datatype"), ...text("arch") };
  return {
    ...(operation === undefined ? {} : { collective: operation }),
    ...(ranks === undefined ? {} : { ranks }),
    ...(nodes === undefined ? {} : { nodes }),
    ...(datatype === undefined ? {} : { dtype: datatype }),
    ...(arch === undefined ? {} : { arch }),
  };
}

/**
 * Read a parsed report.
 * @throws FieldError naming the path (`results[2].size(B)`) and what it must be.
 * @example parseMeasuredReport({ results: [{ "size(B)": 1024, "time:avg(us)": 6.19 }] }).rows[0].timeUs; // 6.19
 */
export function parseMeasuredReport(value: unknown): HardwareReport {
  if (!isObject(value) || !Array.isArray(value.results))
    throw new FieldError(CONTEXT, "results", isObject(value) ? value.results : value, "an array of rows");
  if (value.results.length === 0) throw new FieldError(CONTEXT, "results", [], "at least one row");
  return { rows: value.results.map(rowOf), config: configOf(value.config) };
}

/**
 * The measured rows against the model's rows of the same size, in the measured order (a size the
 * model has no row for is left out).
 */
export function compareMeasured(measured: HardwareReport, model: readonly ReportRow[]): ComparedRow[] {
  const bySize = new Map(model.map((r) => [r.size, r]));
  const out: ComparedRow[] = [];
  for (const m of measured.rows) {
    const r = bySize.get(m.size);
    if (r === undefined) continue;
    out.push({
      size: m.size,
      measuredUs: m.timeUs,
      modelUs: r.timeUs,
      errorPct: (100 * (r.timeUs - m.timeUs)) / m.timeUs,
      measuredBusbw: m.busbw,
      modelBusbw: r.busbw,
    });
  }
  return out;
}
