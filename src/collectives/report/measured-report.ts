/**
 * The one reader of a measured report, for `sdmakit calibrate` and the web page's compare: nccom-test's
 * `--report-to-json-file` document (its `results`, one object per size with `size(B)`, `time:avg(us)`
 * — `time(us)` in older tables, or another statistic — and the bandwidth keys, as the nccom-test
 * user guide prints one; numbers may be written as strings) or sdmakit's own, which adds a `config`.
 * What the report says about its run comes from that `config` (sdmakit's keys), else its command line
 * (`args`: the operation, -r, -N, -d, --lnc); what it does not say is left for the caller. Compared
 * row by row with the model's rows of the same sizes: the error is the model's time against the
 * measured one.
 */
import { FieldError } from "../../bits/errors.js";
import { type ArchName, archProfile, PROFILES } from "../../hal/arch-profile.js";
import { COLLECTIVES, type CollectiveName } from "../plan/plan.js";
import { type Lnc, lncChoices, MAX_RANKS } from "../topology/topology.js";
import type { ReportRow } from "./report.js";

/** One measured row. */
export interface MeasuredRow {
  readonly size: number;
  readonly timeUs: number;
  readonly busbw?: number;
  readonly algorithm?: string;
}

/**
 * What a report says about its run, checked (the dtype is a name: the caller checks it is a
 * collective's, which the check room below this one knows).
 */
export interface MeasuredConfig {
  readonly collective?: CollectiveName;
  readonly ranks?: number;
  readonly nodes?: number;
  readonly dtype?: string;
  readonly arch?: ArchName;
  readonly lnc?: Lnc;
}

export interface HardwareReport {
  /** What errors name: the file. */
  readonly name: string;
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

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A refusal naming the report, the field's path, its value and what it must be. */
export function reportFieldError(name: string, path: string, value: unknown, allowed: string): FieldError {
  const shown = typeof value === "string" ? JSON.stringify(value) : String(JSON.stringify(value));
  return new FieldError(name, path, value, { allowed, detail: `${shown}: expected ${allowed}` });
}

/** A number, or a string that is one ("1024"); anything else as it was (refused by the caller). */
const numeric = (v: unknown) =>
  typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v;

/** The time key of a row: `time:avg(us)`, else `time(us)`, else the first `time:…(us)`. */
function timeKey(row: Record<string, unknown>): string | undefined {
  if ("time:avg(us)" in row) return "time:avg(us)";
  if ("time(us)" in row) return "time(us)";
  return Object.keys(row).find((k) => /^time:.+\(us\)$/.test(k));
}

function rowOf(name: string, v: unknown, i: number): MeasuredRow {
  const path = `results[${i}]`;
  if (!isObject(v)) throw reportFieldError(name, path, v, "an object");
  const size = numeric(v["size(B)"]);
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 1)
    throw reportFieldError(name, `${path}.size(B)`, size, "an integer ≥ 1");
  const key = timeKey(v) ?? "time:avg(us)";
  const time = numeric(v[key]);
  if (typeof time !== "number" || !Number.isFinite(time) || time <= 0)
    throw reportFieldError(name, `${path}.${key}`, time, "a number > 0");
  const busbw = numeric(v["busbw(GB/s)"]);
  const algorithm = v.algorithm;
  return {
    size,
    timeUs: time,
    ...(typeof busbw === "number" && Number.isFinite(busbw) ? { busbw } : {}),
    ...(typeof algorithm === "string" ? { algorithm } : {}),
  };
}

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

/** Where a report says each setting: its config keys (sdmakit's first), then its command line's flags. */
const SOURCES = {
  collective: { keys: ["operation", "collective"], flags: [] },
  ranks: { keys: ["nworkers", "ranks"], flags: ["-r", "--nworkers"] },
  nodes: { keys: ["nnodes", "nodes"], flags: ["-N", "--nnodes"] },
  dtype: { keys: ["datatype", "dtype"], flags: ["-d", "--datatype"] },
  arch: { keys: ["arch"], flags: [] },
  lnc: { keys: ["lnc"], flags: ["--lnc"] },
} as const satisfies Record<keyof MeasuredConfig, { keys: readonly string[]; flags: readonly string[] }>;

/** A setting as the report writes it, and the path errors name; undefined when it does not say. */
function said(
  cfg: Record<string, unknown>,
  args: readonly string[],
  setting: keyof MeasuredConfig,
): { text: string; path: string } | undefined {
  const { keys, flags } = SOURCES[setting];
  for (const k of keys) if (cfg[k] !== undefined) return { text: String(cfg[k]), path: `config.${k}` };
  if (setting === "collective") {
    const op = args.find((a) => (COLLECTIVES as readonly string[]).includes(a));
    return op === undefined ? undefined : { text: op, path: "args" };
  }
  const v = argValue(args, flags);
  return v === undefined ? undefined : { text: v, path: `args ${flags[0]}` };
}

function rankCount(name: string, s: { text: string; path: string }): number {
  const n = Number(s.text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_RANKS)
    throw reportFieldError(name, s.path, s.text, `an integer 1..${MAX_RANKS}`);
  return n;
}

/** The report's run settings, each checked where it is given. */
function configOf(name: string, doc: Record<string, unknown>): MeasuredConfig {
  const cfg = isObject(doc.config) ? doc.config : {};
  const args = Array.isArray(doc.args) ? doc.args.map(String) : [];
  const get = (k: keyof MeasuredConfig) => said(cfg, args, k);
  const out: { -readonly [K in keyof MeasuredConfig]: MeasuredConfig[K] } = {};
  const collective = get("collective");
  if (collective !== undefined) {
    if (!(COLLECTIVES as readonly string[]).includes(collective.text))
      throw reportFieldError(name, collective.path, collective.text, `one of ${COLLECTIVES.join(", ")}`);
    out.collective = collective.text as CollectiveName;
  }
  const ranks = get("ranks");
  if (ranks !== undefined) out.ranks = rankCount(name, ranks);
  const nodes = get("nodes");
  if (nodes !== undefined) out.nodes = rankCount(name, nodes);
  const dtype = get("dtype");
  if (dtype !== undefined) out.dtype = dtype.text;
  const arch = get("arch");
  const names = PROFILES.map((p) => p.name);
  if (arch !== undefined) {
    if (!(names as string[]).includes(arch.text))
      throw reportFieldError(name, arch.path, arch.text, `one of ${names.join(", ")}`);
    out.arch = arch.text as ArchName;
  }
  const lnc = get("lnc");
  if (lnc !== undefined) {
    // Which LNCs are allowed depends on the arch; an arch the report does not say allows 1 or 2.
    const allowed = out.arch === undefined ? [1, 2] : lncChoices(archProfile(out.arch));
    if (!(allowed as number[]).includes(Number(lnc.text)))
      throw reportFieldError(
        name,
        lnc.path,
        lnc.text,
        `${allowed.join(" or ")}${out.arch ? ` on ${out.arch}` : ""}`,
      );
    out.lnc = Number(lnc.text) as Lnc;
  }
  return out;
}

/**
 * Read a parsed report.
 * @param name what errors name (the file).
 * @throws FieldError naming the report, the path (`results[2].size(B)`, `config.nworkers`), the value
 * and what it must be.
 * @example parseMeasuredReport({ results: [{ "size(B)": 1024, "time:avg(us)": 6.19 }] }).rows[0].timeUs; // 6.19
 */
export function parseMeasuredReport(value: unknown, name = "measured report"): HardwareReport {
  if (!isObject(value))
    throw reportFieldError(name, "the document", value, "a JSON object (a --report-to-json-file report)");
  if (!Array.isArray(value.results) || value.results.length === 0)
    throw reportFieldError(name, "results", value.results, "a non-empty array of rows");
  const rows = value.results.map((r, i) => rowOf(name, r, i));
  return { name, rows, config: configOf(name, value) };
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
