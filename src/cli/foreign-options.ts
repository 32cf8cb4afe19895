/**
 * Options that nccom-test and nccl-tests document and a simulation has no use for: nccom-test's MPI,
 * Slurm and host plumbing, both tools' iteration counts, nccl-tests' GPU and launch knobs. Every
 * rank runs in this one process and the model is deterministic, so none of them changes a row. They
 * are accepted, so that a copied command line runs, and named in one header note, so that nothing
 * is dropped silently. Where a short letter means one thing to nccom-test and another to nccl-tests
 * (`-S`, `-u`, `-I`, as `-r`, `-N`, `-t` already), nccom-test's meaning holds and nccl-tests' long
 * spelling still works.
 */
import type { OptionDef, OptionTable } from "./options.js";

const LAUNCH = "nccom-test launcher / host plumbing";
const ITERATIONS = "iteration count";
const NCCL = "nccl-tests GPU / launch knob";

/** A word that is not an option: a host name or address after `--hosts`. */
const NOT_AN_OPTION = /^[^-]/;

/** A switch of this table (hidden from the option list: FOREIGN_HELP names them all). */
function flag(help: string, short?: string) {
  return { type: "boolean", hidden: true, help, ...(short === undefined ? {} : { short }) } as const;
}

/** An option of this table that takes a value. */
function valued(help: string, value: string, short?: string) {
  return { type: "string", value, hidden: true, help, ...(short === undefined ? {} : { short }) } as const;
}

export const FOREIGN_OPTIONS = {
  hosts: { ...valued(LAUNCH, "HOST…", "s"), more: NOT_AN_OPTION },
  "hosts-file": valued(LAUNCH, "FILE"),
  "mpi-log-dir": valued(LAUNCH, "DIR"),
  "slurm-mode": flag(LAUNCH, "S"),
  "slurm-vcpus-per-node": valued(LAUNCH, "N", "u"),
  "slurm-setup-script": valued(LAUNCH, "FILE"),
  "slurm-job-id": valued(LAUNCH, "ID"),
  "slurm-use-head-node-neuron-bench": flag(LAUNCH),
  debug: flag(LAUNCH),
  "vcpu-pin-mode": flag(LAUNCH),
  "data-collector-port": valued(LAUNCH, "PORT"),
  "data-collector-host": valued(LAUNCH, "HOST"),
  iters: valued(ITERATIONS, "N", "n"),
  warmup_iters: valued(ITERATIONS, "N", "w"),
  neff_iters: valued(ITERATIONS, "N", "I"),
  neff_warmup_iters: valued(ITERATIONS, "N", "W"),
  agg_iters: valued(ITERATIONS, "N", "m"),
  run_cycles: valued(ITERATIONS, "N"),
  per_iter_timing: valued(ITERATIONS, "0|1"),
  per_iter_skip: valued(ITERATIONS, "N", "K"),
  root: valued(NCCL, "N"),
  parallel_init: valued(NCCL, "0|1", "p"),
  blocking: valued(NCCL, "0|1", "z"),
  stream_null: valued(NCCL, "0|1", "y"),
  timeout: valued(NCCL, "S", "T"),
  cudagraph: valued(NCCL, "N", "G"),
  report_cputime: valued(NCCL, "0|1", "C"),
  report_timestamps: valued(NCCL, "0|1"),
  average: valued(NCCL, "0..3", "a"),
  local_register: valued(NCCL, "0..4", "R"),
  cta_policy: valued(NCCL, "0..2", "x"),
  device_implementation: valued(NCCL, "N", "D"),
  device_cta_count: valued(NCCL, "N", "V"),
  memory_report: { ...valued(NCCL, "0|1", "M"), aliases: ["memory"] },
  unalign: valued(NCCL, "N"),
} as const satisfies OptionTable;

type ForeignName = keyof typeof FOREIGN_OPTIONS;

/** Environment variables of the launch that the simulation reads nothing from, named when set. */
const FOREIGN_ENV = ["NEURON_RT_ROOT_COMM_ID"] as const;

/** The help paragraph: which spellings are accepted and not applied. */
export const FOREIGN_HELP = [
  "Accepted and not applied (the header names them): nccom-test's -s/--hosts, --hosts-file, --mpi-log-dir,",
  "-S/--slurm-mode, -u/--slurm-vcpus-per-node, --slurm-setup-script, --slurm-job-id,",
  "--slurm-use-head-node-neuron-bench, --debug, --vcpu-pin-mode, --data-collector-port/-host, -n, -w, -I, -W;",
  "nccl-tests' -m -p -z -y -T -G -C -a -R -x -D -V -M -K and --root --run_cycles --report_timestamps",
  "--unalign --per_iter_timing (every rank runs in this one process, and one deterministic run is the time).",
].join("\n");

/** How an option was typed back: its short letter if it has one, with its value. */
function typedBack(name: ForeignName, value: string | boolean): string {
  const def: OptionDef = FOREIGN_OPTIONS[name];
  const spelled = def.short === undefined ? `--${name}` : `-${def.short}`;
  return value === true ? spelled : `${spelled} ${String(value)}`;
}

/**
 * The one header note naming every foreign option given and every launch variable set, or
 * undefined when there are none.
 * @example foreignNote({ iters: "50" }, new Set(["iters"]), {}); // "ignored, … : -n 50"
 */
export function foreignNote(
  values: Readonly<Partial<Record<ForeignName, string | boolean | undefined>>>,
  given: ReadonlySet<string>,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const named: string[] = [];
  for (const name of Object.keys(FOREIGN_OPTIONS) as ForeignName[]) {
    const value = values[name];
    if (given.has(name) && value !== undefined && value !== false) named.push(typedBack(name, value));
  }
  for (const v of FOREIGN_ENV) if (env[v] !== undefined) named.push(`${v}=${env[v]}`);
  if (named.length === 0) return undefined;
  return `ignored, they do not apply to a simulation (every rank in this one process, one deterministic run): ${named.join(" ")}`;
}
