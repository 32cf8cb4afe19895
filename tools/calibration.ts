/**
 * The nccom-test user guide's measurements (test/data/nccom-test-user-guide.json, every example of
 * aws-neuron-sdk tools/neuron-sys-tools/nccom-test.rst with its configuration) against the model:
 * how each table maps onto an sdmakit run, the model's time for each row, and the geomean error.
 * Used by the calibration test (test/collectives/calibration.test.ts) and by tools/timing-doc.ts,
 * which writes docs/TIMING.md and its plots from the same numbers.
 */
import { readFileSync } from "node:fs";
import {
  type CollectiveName,
  collectiveDtype,
  type ExchangeSpec,
  runCollective,
  runSize,
  type StreamOptions,
  type TimingProfile,
} from "../src/collectives/index.js";
import { type ArchName, archProfile } from "../src/hal/arch-profile.js";
import { GUIDE_PAIRS } from "../test/data/guide-files.js";

export interface GuideRow {
  readonly size: number;
  readonly timeUs: number;
  readonly busbw?: number;
}

export interface GuideTable {
  readonly name: string;
  readonly use: string;
  readonly year: number;
  readonly config: {
    readonly nccom_command: string;
    readonly instance: string;
    readonly bandwidth_unit: string;
    /** What nccom-test's --show-algorithm printed, one per row, where the guide shows it. */
    readonly algorithms?: readonly string[];
  };
  readonly rows: readonly GuideRow[];
}

/** How a table runs on sdmakit: the rows it is judged on, and why where it is approximate. */
export interface Mapping {
  readonly arch: ArchName;
  readonly lnc: 1 | 2;
  readonly ranks: number;
  readonly nodes: number;
  readonly collective: CollectiveName;
  readonly dtype: string;
  /** The rows a calibration target is judged on (all when absent). */
  readonly minSize?: number;
  /**
   * Why a table the JSON calls context is a calibration target on its rows ≥ minSize (issue 25: the
   * bandwidth-bound rows of the 2023 all-reduce tables, whose floors belong to the old runtime).
   */
  readonly target?: string;
  /** The rows tools/allr-r16-miss.ts studies, where they are more than the judged ones. */
  readonly studiedFrom?: number;
  /** permute's pairs, allgv / alltoallv's metadata. */
  readonly exchange?: ExchangeSpec;
  /** A multistream run: every stream runs at once; the table is stream `index`, at the row's size. */
  readonly streams?: { readonly list: readonly StreamOptions[]; readonly index: number };
  readonly note: string;
}

/** The guide's multistream example as we read it: all-reduces over 4 groups of 16, all-gathers over 64. */
const GUIDE_STREAMS: readonly StreamOptions[] = [
  { collective: "allr", dtype: "bf16", dataParallelDimension: 16, minBytes: 1024 },
  { collective: "allg", dtype: "fp32", minBytes: 1024 },
];

/** Our reading of each table's configuration (the JSON's own notes give the evidence). */
export const MAPPINGS: Readonly<Record<string, Mapping>> = {
  "sdk23-allr-r2-uint8-32M": {
    arch: "trn1",
    lnc: 1,
    ranks: 2,
    nodes: 1,
    collective: "allr",
    dtype: "uint8",
    note: "2023 runtime",
  },
  "sdk23-allr-r2-fp32": {
    arch: "trn1",
    lnc: 1,
    ranks: 2,
    nodes: 1,
    collective: "allr",
    dtype: "fp32",
    minSize: 64 << 20,
    target: "its bandwidth-bound rows ≥ 64 MiB (the 58 µs floor is the 2023 runtime's)",
    note: "2023 runtime; judged on rows ≥ 64 MiB",
  },
  "sdk23-allg-r32-fp32": {
    arch: "trn1",
    lnc: 1,
    ranks: 32,
    nodes: 1,
    collective: "allg",
    dtype: "fp32",
    note: "2023 runtime",
  },
  "sdk23-allr-r64-N2-fp32": {
    arch: "trn1",
    lnc: 1,
    ranks: 64,
    nodes: 2,
    collective: "allr",
    dtype: "fp32",
    minSize: 64 << 20,
    target: "its bandwidth-bound rows ≥ 64 MiB (the 0.5–1.3 ms floors are the 2023 runtime's)",
    note: "2023 runtime, trn1 vs trn1n not stated (trn1: 8 EFA NICs); judged on rows ≥ 64 MiB",
  },
  "sdk25-allg-r32-fp32-ioSize": {
    arch: "trn1",
    lnc: 1,
    ranks: 32,
    nodes: 1,
    collective: "allg",
    dtype: "fp32",
    note: "trn1.32xlarge inferred",
  },
  "sdk25-allg-r32-fp32-json": {
    arch: "trn1",
    lnc: 1,
    ranks: 32,
    nodes: 1,
    collective: "allg",
    dtype: "fp32",
    note: "a repeat of the run above",
  },
  "sdk26-allg-r8-fp32-stats": {
    arch: "trn2",
    lnc: 2,
    ranks: 8,
    nodes: 1,
    collective: "allg",
    dtype: "fp32",
    note: "trn2.48xlarge assumed: 8 LNC 2 ranks = 2 chips",
  },
  "sdk26-allr-r16-fp32-algo": {
    arch: "trn2",
    lnc: 2,
    ranks: 16,
    nodes: 1,
    collective: "allr",
    dtype: "fp32",
    minSize: 512 << 20,
    studiedFrom: 2 << 20,
    note: "16 LNC 2 ranks = 4 chips; judged on its 512 MiB row (its 2–32 MiB rows: a documented miss)",
  },
  "sdk26-permute-r8-uint8-32M": {
    arch: "trn2",
    lnc: 2,
    ranks: 8,
    nodes: 1,
    collective: "permute",
    dtype: "uint8",
    exchange: { pairs: GUIDE_PAIRS },
    note: "the guide's pairs: two swaps, four self-copies",
  },
  "sdk26-allgv-r4-fp16-2k": {
    arch: "trn2",
    lnc: 2,
    ranks: 4,
    nodes: 1,
    collective: "allgv",
    dtype: "fp16",
    exchange: { metadata: [{ send_counts: [256, 256, 256, 256], send_displs: [0, 0, 0, 0] }] },
    note: "uniform counts, 256 × 4",
  },
  "sdk26-multistream-allr-r16x4-bf16": {
    arch: "trn2",
    lnc: 2,
    ranks: 64,
    nodes: 1,
    collective: "allr",
    dtype: "bf16",
    streams: { list: GUIDE_STREAMS, index: 0 },
    note: "stream 0 of 2: 4 groups of 16 at once, with the 64-rank 1 KiB all-gather",
  },
  "sdk26-multistream-allg-r64-fp32-1k": {
    arch: "trn2",
    lnc: 2,
    ranks: 64,
    nodes: 1,
    collective: "allg",
    dtype: "fp32",
    streams: { list: GUIDE_STREAMS, index: 1 },
    note: "stream 1 of 2, with the 1 KiB all-reduces over 4 groups of 16",
  },
};

/** The guide's tables, as committed test data. */
export function guideTables(): GuideTable[] {
  const url = new URL("../test/data/nccom-test-user-guide.json", import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")).tables as GuideTable[];
}

/** True for the tables the JSON marks as calibration targets, and those a mapping makes one. */
export function isTarget(t: GuideTable): boolean {
  return t.use.startsWith("calibration target") || MAPPINGS[t.name]?.target !== undefined;
}

export interface Compared {
  readonly size: number;
  readonly measuredUs: number;
  readonly modelUs: number;
  /** busbw in GB/s (1e9) from each time (so 2023 GiB/s figures compare alike). */
  readonly measuredBusbw: number;
  readonly modelBusbw: number;
  readonly algorithm: string;
  /** In the rows the table is judged on. */
  readonly judged: boolean;
}

/** The model's row for one size of a mapping (a multistream mapping: its stream's row, run with the others). */
function modelRow(
  m: Mapping,
  dtype: ReturnType<typeof collectiveDtype>,
  size: number,
  timingProfile: TimingProfile | undefined,
) {
  const profiled = timingProfile === undefined ? {} : { timingProfile };
  const shape = {
    arch: m.arch,
    lnc: m.lnc,
    ranks: m.ranks,
    nodes: m.nodes,
    timingOnly: true,
    ...profiled,
  } as const;
  if (m.streams !== undefined) {
    const { list, index } = m.streams;
    const streams = list.map((s, k) => (k === index ? { ...s, minBytes: size } : s));
    const r = runCollective({ ...shape, collective: m.collective, streams });
    return (r.streams?.[index] ?? r).row;
  }
  return runSize(
    {
      profile: archProfile(m.arch),
      lnc: m.lnc,
      ranks: m.ranks,
      nodes: m.nodes,
      collective: m.collective,
      algorithm: "auto",
      dtype,
      op: "sum",
      check: "none",
      timingOnly: true,
      dataSeed: 0,
      ...(m.exchange === undefined ? {} : { exchange: m.exchange }),
      ...profiled,
    },
    size,
  ).row;
}

/**
 * The model's time for every row of a table, run as its mapping (or as `as`, to try another
 * reading), with a timing profile's parameters when given.
 */
export function compare(
  t: GuideTable,
  as: Mapping | undefined = MAPPINGS[t.name],
  timingProfile?: TimingProfile,
): Compared[] {
  const m = as;
  if (m === undefined) throw new Error(`no mapping for ${t.name}`);
  const dtype = collectiveDtype(m.dtype);
  return t.rows.map((row) => {
    const r = modelRow(m, dtype, row.size, timingProfile);
    return {
      size: row.size,
      measuredUs: row.timeUs,
      modelUs: r.timeUs,
      // The model's bus factor and size at the measured time (a stream's factor is its group's).
      measuredBusbw: (r.busbw * r.timeUs) / row.timeUs,
      modelBusbw: r.busbw,
      algorithm: r.algorithm,
      judged: row.size >= (m.minSize ?? 0),
    };
  });
}

/** exp(mean |ln(model / measured)|) − 1 over the judged rows. */
export function geomeanError(rows: readonly Compared[]): number {
  const judged = rows.filter((r) => r.judged);
  const sum = judged.reduce((a, r) => a + Math.abs(Math.log(r.modelUs / r.measuredUs)), 0);
  return Math.exp(sum / judged.length) - 1;
}

/**
 * A guide table as the `--report-to-json-file` document its run would have written (sdmakit's keys
 * for what nccom-test's report does not carry: arch, lnc), its judged rows only — what
 * `sdmakit calibrate` reads.
 */
export function guideReport(t: GuideTable) {
  const m = MAPPINGS[t.name];
  if (m === undefined) throw new Error(`no mapping for ${t.name}`);
  return {
    args: t.config.nccom_command.split(/\s+/),
    config: {
      operation: m.collective,
      nworkers: m.ranks,
      nnodes: m.nodes,
      datatype: m.dtype,
      arch: m.arch,
      lnc: m.lnc,
    },
    results: t.rows
      .filter((r) => r.size >= (m.minSize ?? 0))
      .map((r) => ({ "size(B)": r.size, "time:avg(us)": r.timeUs })),
  };
}
