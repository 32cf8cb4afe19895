/**
 * The collective commands' option table and --help, apart from the code that turns a parse into a
 * run (collective-options.ts): `sdmakit allr -h` loads this module and the few it names, not the
 * collectives layer. So it imports only modules that import nothing heavy: the defaults, the
 * algorithm and op lists, the option machinery (test/cli/lazy-commands.test.ts counts them).
 */
import { COLLECTIVE_DEFAULTS as D } from "../collectives/defaults.js";
import { ALGORITHMS, type CollectiveName, REDUCE_OPS } from "../collectives/plan/plan.js";
import { EXCHANGE_OPTIONS } from "./exchange-options.js";
import { FOREIGN_HELP, FOREIGN_OPTIONS } from "./foreign-options.js";
import { type OptionTable, type OptionValues, optionsHelp } from "./options.js";

/** A statistic of nccom-test's `-t/--stats`: avg or a percentile. */
export const TIME_STAT = /^(avg|p(100|\d{1,2}))$/;

export const COLLECTIVE_OPTIONS = {
  nworkers: {
    type: "string",
    short: "r",
    aliases: ["ranks"],
    value: "N",
    default: String(D.ranks),
    help: "ranks: logical NeuronCores (see --lnc; at LNC 2 a Trn2 chip has 4, so 8 ranks = 2 chips)",
  },
  ngpus: {
    type: "string",
    short: "g",
    value: "N",
    help: "nccl-tests' GPUs per thread: ranks = --nthreads × -g when -r is not given",
  },
  nthreads: {
    type: "string",
    value: "N",
    hidden: true,
    help: "nccl-tests' threads per process (its -t N works too: a number is not a statistic)",
  },
  nnodes: {
    type: "string",
    short: "N",
    value: "N",
    default: String(D.nodes),
    help: "nodes (instances); ranks split evenly",
  },
  minbytes: { type: "string", short: "b", value: "SIZE", default: String(D.minBytes), help: "first size" },
  maxbytes: { type: "string", short: "e", value: "SIZE", default: "4MiB", help: "last size" },
  stepfactor: {
    type: "string",
    short: "f",
    value: "F",
    help: `multiply the size by F each step (default ${D.factor} unless -i)`,
  },
  stepbytes: { type: "string", short: "i", value: "SIZE", help: "add SIZE each step instead" },
  datatype: {
    type: "string",
    short: "d",
    value: "TYPE",
    default: D.dtype,
    help: "uint8 int8 uint16 int16 uint32 int32 uint64 int64 fp16|half bf16|bfloat16 fp32|float fp8|fp8e4|f8e4m3 fp8e5|f8e5m2 fp8e3",
  },
  op: { type: "string", short: "o", value: "OP", default: D.op, help: REDUCE_OPS.join(" | ") },
  arch: { type: "string", value: "ARCH", default: D.arch, help: "trn1 | trn2 | trn3" },
  lnc: {
    type: "string",
    value: "1|2",
    help: "physical cores per rank (default $NEURON_LOGICAL_NC_CONFIG, as nccom-test; else 2 on trn2 / trn3, 1 on trn1)",
  },
  algo: {
    type: "string",
    value: "ALGO",
    default: D.algorithm,
    help: `auto (fastest per size) | ${ALGORITHMS.join(" | ")}`,
  },
  check: {
    type: "string",
    short: "c",
    aliases: ["check-mode"],
    value: "[MODE]",
    default: D.check,
    help: "exact (data whose sum is exact, every bit compared) | reference|random (random data vs a scalar reference) | all_ones (= exact); nccl-tests' -c 0 = no check, -c N = exact",
    optional: { match: /^(exact|reference|random|all_ones|\d+)$/, bare: D.check },
  },
  "no-check": { type: "boolean", help: "do not check (nccom-test's default)" },
  sr: { type: "boolean", help: "stochastic rounding, seeded with --seed" },
  seed: { type: "string", value: "N", default: String(D.seed), help: "seed of the data (and of --sr)" },
  "max-memory": {
    type: "string",
    value: "SIZE",
    help: "host memory a functional run may use (default $SDMAKIT_MAX_MEMORY, else half the free memory); a larger size runs timing-only (refused with an explicit --check)",
  },
  threads: {
    type: "string",
    value: "N",
    help: "threads a functional run uses (default: the cores from 256 MiB of inputs, summed over the ranks, else 1): the inputs, the legs (split by rank, at most 8 threads; a leg waits only for other threads' legs whose bytes it shares) and the exact check run on workers over shared device memory, with the same bytes and rows; on a machine whose cores are busy with other work, more threads can be slower",
  },
  "timing-only": { type: "boolean", help: "only the schedule: the same times, no data moved, not checked" },
  "timing-profile": {
    type: "string",
    value: "FILE",
    help: "timing parameters in place of the shipped ones (the file `sdmakit calibrate` writes)",
  },
  sb2sb: {
    type: "boolean",
    help: "LNC2 pair exchanges as SB2SB legs staged through SBUF (trn2 / trn3, one node)",
  },
  trace: { type: "string", value: "FILE", help: "write a Perfetto trace of one size (see --trace-size)" },
  "trace-size": { type: "string", value: "SIZE", help: "the size to trace (default the largest)" },
  "trace-sample": {
    type: "boolean",
    help: "a trace above its bound is sampled to fit (a slice per leg, a stride of ranks), not refused",
  },
  json: { type: "boolean", help: "JSON Lines on stdout: a config line, one line per size, a summary line" },
  "report-to-json-file": {
    type: "string",
    value: "FILE",
    help: "also write the whole report as one JSON document (nccom-test's schema plus ours)",
  },
  "follow-symlinks": {
    type: "boolean",
    help: "let --trace / --report-to-json-file name a symlink: the file it points to is replaced",
  },
  output_file: {
    type: "string",
    short: "J",
    value: "FILE",
    help: "nccl-tests' JSON report (its schema); as nccl-tests, never replaces a file: FILE.0, FILE.1, … instead",
  },
  progress: { type: "boolean", help: "progress line on stderr (default: when stderr is a terminal)" },
  "no-progress": { type: "boolean", aliases: ["non-interactive"], help: "no progress line" },
  "show-algorithm": { type: "boolean", help: "accepted: the algorithm column is always shown" },
  "show-input-output-size": {
    type: "boolean",
    help: "add each rank's input and output bytes: total_input_size(B), total_output_size(B)",
  },
  stats: {
    type: "string",
    short: "t",
    value: "STAT…",
    more: TIME_STAT,
    help: "time:<STAT>(us) columns: avg, p0..p100 (all the one deterministic time); -t N is nccl-tests' threads",
  },
  "custom-replica-groups": {
    type: "string",
    aliases: ["custom-replica-group"],
    value: "FILE",
    help: 'run over replica groups side by side: JSON [[0,1,…],[…]] or {"replica_groups": …}; -b/-e per group',
  },
  "data-parallel-dimension": {
    type: "string",
    value: "D",
    help: "run over groups of D ranks side by side (group i: ranks i, i + r/D, …: one per node when D = -N)",
  },
  "streams-json": {
    type: "string",
    value: "FILE",
    help: 'several collectives at once, a table each: JSON {"streams": [{"operation": "allr", "datatype": "bf16", "minbytes": "1kb", "replica_groups": …}, …]}',
  },
  ...EXCHANGE_OPTIONS,
  ...FOREIGN_OPTIONS,
} as const satisfies OptionTable;

export type CollectiveValues = OptionValues<typeof COLLECTIVE_OPTIONS>;

/** The collective commands' --help. */
export function collectiveHelp(name: CollectiveName): string {
  return [
    `usage: sdmakit ${name} [options]     (the op word may also come anywhere: sdmakit -r 8 ${name})`,
    "",
    optionsHelp(COLLECTIVE_OPTIONS),
    "",
    FOREIGN_HELP,
    "",
    "Sizes take B, K/KB/KiB, M/MB/MiB, G/GB/GiB (all powers of 1024, as nccom-test); `-b8` and `--minbytes=8` work.",
    "Our defaults differ from nccom-test's (32M, uint8, unchecked) to show the in-DMA reduce on small sizes;",
    "the header line prints every setting used. Exit 1 on any wrong element or guard byte, 2 on bad usage.",
  ].join("\n");
}
