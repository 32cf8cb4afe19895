/**
 * The collective commands' JSON documents. `--report-to-json-file`: nccom-test's `results` with our
 * `config`, plus what a report needs to be replayed and judged — the command line, start and end
 * time, and the status. `-J/--output_file`: nccl-tests' report (util.cu, JSON_FILE_VERSION 2), key
 * for key: version, start_time, args, env, nccl_version, config with devices, results with
 * out_of_place / in_place, out_of_bounds, average_bus_bandwidth, errors, end_time — so a script that
 * reads nccl-tests' JSON reads ours.
 */
import { lstatSync } from "node:fs";
import { UsageError } from "../bits/errors.js";
import type { CollectiveRun, ReportRow } from "../collectives/index.js";
import { VERSION } from "./version.js";

/** What every report says about the run as a whole. */
export interface RunRecord {
  /** The command line after `sdmakit`. */
  readonly argv: readonly string[];
  readonly start: Date;
  readonly end: Date;
  readonly rows: readonly ReportRow[];
}

/** "ok" when every checked element and guard byte is right (exit 0), else "failed" (exit 1). */
export function runStatus(rows: readonly ReportRow[]): "ok" | "failed" {
  return rows.some((r) => r.wrong > 0 || r.guardErrors > 0) ? "failed" : "ok";
}

/** `--report-to-json-file`: the command line, the times and the status around nccom-test's results. */
export function nccomReport(record: RunRecord, config: object, results: readonly object[], avg: number) {
  return {
    args: ["sdmakit", ...record.argv],
    start_time: record.start.toISOString(),
    end_time: record.end.toISOString(),
    status: runStatus(record.rows),
    config,
    results,
    "Avg bus bandwidth(GB/s)": avg,
  };
}

/** [C] nccl-tests' JSON_FILE_VERSION (util.cu). */
const NCCL_JSON_VERSION = 2;

/** nccl-tests' type names (common.cu test_typenames), for the dtypes it has. */
const NCCL_TYPE: Readonly<Record<string, string>> = {
  fp16: "half",
  fp32: "float",
  bf16: "bfloat16",
  fp8_e4: "f8e4m3",
  fp8_e5: "f8e5m2",
};

/** nccl-tests' time stamp, `%Y-%m-%d %H:%M:%S` in local time. */
function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * The environment a report keeps: the tools' own variables only (NEURON_*, NCCL_*), where
 * nccl-tests writes every variable — a report file is shared, and the rest may hold credentials.
 */
function reportEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(([k, v]) => v !== undefined && /^(NEURON|NCCL)_/.test(k))
    .map(([k, v]) => `${k}=${v}`)
    .sort();
}

/** How the sweep steps: nccl-tests' step_factor or step_bytes. */
export type SweepStep = { readonly factor: number } | { readonly bytes: number };

/** One simulated rank as nccl-tests lists a device. */
function deviceOf(run: CollectiveRun, rank: number) {
  const perNode = run.ranks / run.nodes;
  return {
    rank,
    group: 0,
    pid: process.pid,
    hostname: `sdmakit-node${Math.floor(rank / perNode)}`,
    device: rank % perNode,
    device_hex: "simulated",
    device_info: `${run.profile.name} logical NeuronCore (LNC ${run.lnc})`,
  };
}

/** One row as nccl-tests writes it: the model's run is out-of-place (separate input and output). */
function resultOf(run: CollectiveRun, r: ReportRow) {
  const reduces = run.collective === "allr" || run.collective === "redsct";
  return {
    size: r.size,
    count: r.count,
    type: NCCL_TYPE[r.type] ?? r.type,
    redop: reduces ? run.op : "none",
    root: String(-1).padStart(6),
    out_of_place: {
      time: r.timeUs,
      alg_bw: r.algbw,
      bus_bw: r.busbw,
      nwrong: r.wrong < 0 ? null : r.wrong + r.guardErrors,
    },
    in_place: null,
    actual_iterations: 1,
    experiment_name: "",
  };
}

/**
 * `-J/--output_file`: nccl-tests' report of the run, in its key order. Booleans are the strings
 * "true" / "false" as nccl-tests writes them; what has no meaning here says so (nccl_version null,
 * in_place null: the model runs out-of-place only, one deterministic iteration).
 */
export function ncclReport(
  record: RunRecord,
  run: CollectiveRun,
  sizes: readonly number[],
  step: SweepStep,
  env: Readonly<Record<string, string | undefined>>,
) {
  const wrong = record.rows.reduce((n, r) => n + Math.max(0, r.wrong) + r.guardErrors, 0);
  const avg =
    record.rows.length === 0 ? 0 : record.rows.reduce((a, r) => a + r.busbw, 0) / record.rows.length;
  return {
    version: NCCL_JSON_VERSION,
    start_time: stamp(record.start),
    args: ["sdmakit", ...record.argv],
    env: reportEnv(env),
    nccl_version: null,
    sdmakit_version: VERSION,
    config: {
      nthreads: 1,
      ngpus: run.ranks,
      minimum_bytes: sizes[0],
      maximum_bytes: sizes[sizes.length - 1],
      ...("factor" in step ? { step_factor: step.factor } : { step_bytes: step.bytes }),
      warmup_iters: 0,
      iterations: 1,
      aggregated_iterations: 1,
      validation: run.check === "none" ? 0 : 1,
      graph: 0,
      blocking_collectives: "false",
      per_iter_timing: "false",
      parallel_init: "false",
      devices: Array.from({ length: run.ranks }, (_, r) => deviceOf(run, r)),
    },
    results: record.rows.map((r) => resultOf(run, r)),
    out_of_bounds: { count: wrong, okay: wrong === 0 ? "true" : "false" },
    average_bus_bandwidth: { bandwidth: avg, okay: "unchecked" },
    errors: [],
    end_time: stamp(record.end),
  };
}

/** Names `-J` tries after the one given, as nccl-tests does (FILE.0, FILE.1, …), at most. */
const MAX_FREE_NAMES = 1000;

/**
 * nccl-tests' `-J` never replaces a file: the first of FILE, FILE.0, FILE.1, … that does not exist.
 * @throws UsageError when the first MAX_FREE_NAMES + 1 names are all taken.
 */
export function freeOutputName(path: string, exists = (p: string) => lstatExists(p)): string {
  if (!exists(path)) return path;
  for (let i = 0; i < MAX_FREE_NAMES; i++) if (!exists(`${path}.${i}`)) return `${path}.${i}`;
  throw new UsageError(
    `-J ${JSON.stringify(path)}: it and ${path}.0 … ${path}.${MAX_FREE_NAMES - 1} all exist; name another file`,
  );
}

/** Whether anything is at `p` (any other failure: not known here; the output module names it). */
function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
