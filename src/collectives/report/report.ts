/**
 * nccom-test's report: sizes, bandwidths (GB/s = 10^9 B/s, as nccom-test prints them since SDK 2.21)
 * with the nccl-tests bus factors, and the table it prints (with `--show-algorithm`'s column).
 */
import { UsageError } from "../../bits/errors.js";
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
}

/**
 * nccl-tests' bus bandwidth factor: 2(n−1)/n for all-reduce, (n−1)/n for reduce-scatter and
 * all-gather, 1 for send-recv.
 */
export function busFactor(collective: CollectiveName, ranks: number): number {
  if (collective === "allr") return (2 * (ranks - 1)) / ranks;
  if (collective === "sendrecv") return 1;
  return (ranks - 1) / ranks;
}

const GiB = 1024 ** 3;

/** [C] nccom-test's GB: 10^9 bytes since SDK 2.21 (the 2023 guide printed GiB/s). */
const GB = 1e9;

/** algbw and busbw in GB/s (10^9 B/s) for `size` bytes in `timeNs`. */
export function bandwidths(collective: CollectiveName, ranks: number, size: number, timeNs: number) {
  const algbw = size / GB / (timeNs * 1e-9);
  return { algbw, busbw: algbw * busFactor(collective, ranks) };
}

const UNITS: Readonly<Record<string, number>> = {
  "": 1,
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: GiB,
  gb: GiB,
};

/**
 * A byte size: a number with an optional k / kb / m / mb / g / gb suffix (powers of 1024).
 * @throws UsageError naming the option and the accepted form.
 * @example parseSize("-e", "64MB"); // 67108864
 */
export function parseSize(option: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = m ? UNITS[(m[2] ?? "").toLowerCase()] : undefined;
  if (!m || unit === undefined)
    throw new UsageError(`${option} ${JSON.stringify(text)}: expected bytes like 8, 4kb, 64MB, 1gb`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (!Number.isSafeInteger(bytes)) throw new UsageError(`${option} ${text}: too large`);
  return bytes;
}

/** The sizes of a sweep: min, then ×factor (or +step) while ≤ max. */
export function sweepSizes(
  min: number,
  max: number,
  factor: number | undefined,
  step: number | undefined,
): number[] {
  if (min > max) throw new UsageError(`-b ${min} is larger than -e ${max}`);
  if (factor !== undefined && !(factor > 1)) throw new UsageError(`-f ${factor}: expected a factor > 1`);
  if (step !== undefined && !(step > 0)) throw new UsageError(`-i ${step}: expected a step > 0`);
  const out: number[] = [];
  for (
    let s = min;
    s <= max;
    s = step !== undefined ? s + step : Math.max(s + 1, Math.floor(s * (factor ?? 2)))
  )
    out.push(s);
  return out;
}

const HEADER = [
  "size(B)",
  "count(elems)",
  "type",
  "time(us)",
  "algbw(GB/s)",
  "busbw(GB/s)",
  "algorithm",
  "#wrong",
];
const WIDTHS = [12, 12, 8, 10, 12, 12, 10, 8];

/** The nccom-test table: a header, one line per row, and `Avg bus bandwidth`. */
export function formatTable(rows: readonly ReportRow[]): string {
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(WIDTHS[i] ?? 10)).join(" ");
  const out = [line(HEADER)];
  for (const r of rows) {
    out.push(
      line([
        String(r.size),
        String(r.count),
        r.type,
        r.timeUs.toFixed(2),
        r.algbw.toFixed(2),
        r.busbw.toFixed(2),
        r.algorithm,
        r.wrong < 0 ? "N/A" : String(r.wrong + r.guardErrors),
      ]),
    );
  }
  out.push(`Avg bus bandwidth:    ${averageBusbw(rows).toFixed(4)} GB/s`);
  return `${out.join("\n")}\n`;
}

/** The mean busbw over the rows (0 for none). */
export function averageBusbw(rows: readonly ReportRow[]): number {
  return rows.length === 0 ? 0 : rows.reduce((a, r) => a + r.busbw, 0) / rows.length;
}
