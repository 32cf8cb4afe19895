/**
 * nccom-test's report: sizes, bandwidths (GB/s = 10^9 B/s, as nccom-test prints them since SDK 2.21)
 * with the nccl-tests bus factors, and the table it prints (with `--show-algorithm`'s column).
 */
import { UsageError } from "../../bits/errors.js";
import { metadataBytes } from "../plan/exchange.js";
import type { AlgorithmName, CollectiveName } from "../plan/plan.js";

/** One row of the report. */
export interface ReportRow {
  readonly size: number;
  readonly count: number;
  readonly type: string;
  /** The algorithm that ran at this size (the cost model's pick under `auto`). */
  readonly algorithm: AlgorithmName;
  readonly timeUs: number;
  readonly algbw: number;
  readonly busbw: number;
  /** Wrong elements (-1: not checked). */
  readonly wrong: number;
  readonly maxAbsErr: number;
  /** Guard bytes overwritten (a kind of error of its own). */
  readonly guardErrors: number;
  /** Each rank's input bytes (nccom-test's total_input_size(B)). */
  readonly inputBytes: number;
  /** Each rank's output bytes (total_output_size(B)). */
  readonly outputBytes: number;
}

/**
 * nccom-test's bus bandwidth factor (nccl-tests' where both have the collective): 2(n−1)/n for
 * all-reduce, 1 for send-recv and permute, (n−1)/n for the rest (reduce-scatter, the all-gathers,
 * the all-to-alls).
 */
export function busFactor(collective: CollectiveName, ranks: number): number {
  if (collective === "allr") return (2 * (ranks - 1)) / ranks;
  if (collective === "sendrecv" || collective === "permute") return 1;
  return (ranks - 1) / ranks;
}

/**
 * A row's size(B) and count(elems) for `count` elements per rank of `elemBytes` each: the data, and
 * for alltoallv its metadata too (MODEL, fitted on the guide's one alltoallv example: -b 1MB of fp32
 * on 2 ranks prints 1048608 B = 1 MiB + 4 rows × 2 ranks × 4 B, and 262152 elements).
 */
export function reportedSize(collective: CollectiveName, ranks: number, count: number, elemBytes: number) {
  const size = count * elemBytes + metadataBytes(collective, ranks);
  return { size, count: size / elemBytes };
}

/** [C] nccom-test's GB: 10^9 bytes since SDK 2.21 (the 2023 guide printed GiB/s). */
const GB = 1e9;

/** algbw and busbw in GB/s (10^9 B/s) for `size` bytes in `timeNs`. */
export function bandwidths(collective: CollectiveName, ranks: number, size: number, timeNs: number) {
  const algbw = size / GB / (timeNs * 1e-9);
  return { algbw, busbw: algbw * busFactor(collective, ranks) };
}

/** The most sizes one sweep runs: past it a sweep is a typo (`-i 1`), not a measurement. */
export const MAX_SWEEP_SIZES = 1000;
/** The most bytes one sweep's sizes add up to (a full run moves and checks every one). */
export const MAX_SWEEP_BYTES = 2 ** 40;

/** What a sweep's messages call its four settings (the library's option names by default). */
export interface SweepLabels {
  readonly min: string;
  readonly max: string;
  readonly factor: string;
  readonly step: string;
}

const SWEEP_OPTION_NAMES: SweepLabels = { min: "minBytes", max: "maxBytes", factor: "factor", step: "step" };

/** A sweep's range: from `min` to `max` bytes, ×`factor` or +`step` each time (not both). */
export interface SweepRange {
  readonly min: number;
  readonly max: number;
  readonly factor?: number | undefined;
  readonly step?: number | undefined;
}

/**
 * The sizes of a sweep: min, then ×factor (or +step) while ≤ max. `labels`: what the messages call
 * the settings (a front end passes its own: the CLI its flags).
 * @throws UsageError for an empty range, a factor ≤ 1, a step ≤ 0, both, or a sweep past
 *   MAX_SWEEP_SIZES sizes or MAX_SWEEP_BYTES bytes in all.
 * @example sweepSizes({ min: 8, max: 64, factor: 2 }); // [8, 16, 32, 64]
 */
export function sweepSizes(range: SweepRange, labels: SweepLabels = SWEEP_OPTION_NAMES): number[] {
  const { min, max, factor, step } = range;
  const L = labels;
  if (!(min >= 1)) throw new UsageError(`${L.min} ${min}: expected at least 1 byte`);
  if (min > max) throw new UsageError(`${L.min} ${min} is larger than ${L.max} ${max}`);
  if (factor !== undefined && step !== undefined)
    throw new UsageError(`${L.factor} and ${L.step} exclude each other`);
  if (factor !== undefined && !(factor > 1 && Number.isFinite(factor)))
    throw new UsageError(`${L.factor} ${factor}: expected a factor > 1`);
  if (step !== undefined && !(step >= 1)) throw new UsageError(`${L.step} ${step}: expected a step > 0`);
  const out: number[] = [];
  let total = 0;
  for (
    let s = min;
    s <= max;
    s = step !== undefined ? s + step : Math.max(s + 1, Math.floor(s * (factor ?? 2)))
  ) {
    out.push(s);
    total += s;
    if (out.length > MAX_SWEEP_SIZES || total > MAX_SWEEP_BYTES) {
      const what =
        out.length > MAX_SWEEP_SIZES ? `more than ${MAX_SWEEP_SIZES} sizes` : "more than 1 TiB in all";
      const by = step !== undefined ? `${L.step} ${step}` : `${L.factor} ${factor ?? 2}`;
      throw new UsageError(
        `${L.min} ${min} ${L.max} ${max} ${by}: ${what}; use a larger ${L.factor} or ${L.step}, or a narrower ${L.min}..${L.max}`,
      );
    }
  }
  return out;
}

/** A `time:<stat>(us)` column of nccom-test's `-t/--stats`: the average or a percentile. */
export type TimeStat = "avg" | `p${number}`;

/** The columns nccom-test adds on request. */
export interface TableColumns {
  /** `-t/--stats`: one `time:<stat>(us)` column each, in order (default: avg alone). */
  readonly stats?: readonly TimeStat[];
  /** `--show-input-output-size`: each rank's input and output bytes, after count(elems). */
  readonly ioSizes?: boolean;
}

interface Column {
  readonly name: string;
  readonly width: number;
  readonly cell: (r: ReportRow) => string;
}

const column = (name: string, width: number, cell: (r: ReportRow) => string): Column => ({
  name,
  width,
  cell,
});

/**
 * The table's columns. Every `time:<stat>` is the one modelled time: the model is deterministic,
 * so its average and every percentile agree.
 */
function columnsOf(c: TableColumns): Column[] {
  return [
    column("size(B)", 12, (r) => String(r.size)),
    column("count(elems)", 12, (r) => String(r.count)),
    ...(c.ioSizes
      ? [
          column("total_input_size(B)", 19, (r) => String(r.inputBytes)),
          column("total_output_size(B)", 20, (r) => String(r.outputBytes)),
        ]
      : []),
    column("type", 8, (r) => r.type),
    ...(c.stats ?? ["avg"]).map((stat) => column(`time:${stat}(us)`, 12, (r) => r.timeUs.toFixed(2))),
    column("algbw(GB/s)", 12, (r) => r.algbw.toFixed(2)),
    column("busbw(GB/s)", 12, (r) => r.busbw.toFixed(2)),
    column("algorithm", 10, (r) => r.algorithm),
    column("#wrong", 8, (r) => (r.wrong < 0 ? "N/A" : String(r.wrong + r.guardErrors))),
  ];
}

const line = (cols: readonly Column[], cells: (c: Column) => string) =>
  `${cols.map((c) => cells(c).padStart(c.width)).join(" ")}\n`;

/** The table's column header line (nccom-test's names: `time:avg(us)` as it prints it since SDK 2.2x). */
export function formatHeader(columns: TableColumns = {}): string {
  return line(columnsOf(columns), (c) => c.name);
}

/** One row of the table, printed as its size finishes. */
export function formatRow(r: ReportRow, columns: TableColumns = {}): string {
  return line(columnsOf(columns), (c) => c.cell(r));
}

/** The summary line exactly as nccom-test prints it (`Avg bus bandwidth:\t40.6901GB/s`). */
export function formatSummary(rows: readonly ReportRow[]): string {
  return `Avg bus bandwidth:\t${averageBusbw(rows).toFixed(4)}GB/s\n`;
}

/** The nccom-test table: a header, one line per row, and `Avg bus bandwidth`. */
export function formatTable(rows: readonly ReportRow[], columns: TableColumns = {}): string {
  return formatHeader(columns) + rows.map((r) => formatRow(r, columns)).join("") + formatSummary(rows);
}

/** The mean busbw over the rows (0 for none). */
export function averageBusbw(rows: readonly ReportRow[]): number {
  return rows.length === 0 ? 0 : rows.reduce((a, r) => a + r.busbw, 0) / rows.length;
}
