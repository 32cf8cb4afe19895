/**
 * `sdmakit allr|allg|redsct|sendrecv`: nccom-test on simulated NeuronCores. One implementation
 * behind four commands: sweep sizes, run each collective on the engine (or only its schedule with
 * --timing-only), check every element, print the nccom-test table or JSON, optionally a Perfetto
 * trace of the largest size.
 */
import { writeFileSync } from "node:fs";
import { freemem } from "node:os";
import { FieldError, UsageError } from "../../bits/index.js";
import {
  type AlgorithmName,
  admitSize,
  averageBusbw,
  type CheckMode,
  type CollectiveName,
  type CollectiveRun,
  checkLnc,
  collectiveDtype,
  defaultLnc,
  formatTable,
  type HostBudget,
  parseSize,
  type ReduceOp,
  type ReportRow,
  runSize,
  type SizeResult,
  sweepSizes,
  traceOf,
} from "../../collectives/index.js";
import { archProfile } from "../../hal/index.js";
import { dtypeName } from "../../spec/index.js";
import { option, parseArgs, toJson } from "../args.js";
import type { Command, Io } from "../command.js";
import { createProgress } from "../progress.js";

const SUMMARY: Readonly<Record<CollectiveName, string>> = {
  allr: "all-reduce over simulated NeuronCores, checked and timed like nccom-test",
  allg: "all-gather over simulated NeuronCores, checked and timed like nccom-test",
  redsct: "reduce-scatter over simulated NeuronCores, checked and timed like nccom-test",
  sendrecv: "send-recv (ring shift) over simulated NeuronCores, checked and timed like nccom-test",
};

/** What --sb2sb did: how many legs of the last size are SB2SB, or why none can be. */
function sb2sbNote(run: CollectiveRun, last: SizeResult | undefined): string {
  if (!run.profile.hasSb2sb) return `off (${run.profile.name} has no SB2SB)`;
  if (run.nodes > 1) return "off (no SB2SB for multi-node workloads)";
  if (run.lnc !== 1) return "off (needs --lnc 1: at LNC 2 the pair is one rank)";
  const kinds = last?.legKinds;
  if (kinds === undefined) return "0/0 legs";
  const all = Object.values(kinds).reduce((a, b) => a + b, 0);
  return `${kinds["sb2sb-copy"] + kinds["sb2sb-reduce"]}/${all} legs`;
}

function usage(name: CollectiveName): string {
  return [
    `sdmakit ${name} [-r ranks] [-N nodes] [-b min] [-e max] [-f factor | -i step] [-n iters] [-w warmup]`,
    "         [-d dtype] [-o sum|max|min|avg] [--arch trn1|trn2|trn3] [--lnc 1|2] [--algo auto|ring|kangaring|mesh]",
    "         [--check | --no-check] [--check-mode exact|reference] [--sr] [--seed N] [--timing-only]",
    "         [--sb2sb] [--trace out.json] [--json] [--max-memory SIZE]",
    "  Defaults: -r 8 -N 1 -b 8 -e 4mb -f 2 -d bf16 -o sum --arch trn2 --algo auto, checked (exact data).",
    "  A rank is a logical NeuronCore as in nccom-test: --lnc defaults to 2 on trn2 / trn3, 1 on trn1.",
    "  Sizes take k/kb/m/mb/g/gb (powers of 1024). The time model is deterministic, so -n / -w change",
    "  nothing (the P50 of identical iterations). --check-mode reference: random data, compared bit for",
    "  bit with a scalar reference of the same order and rounding. Exit 1 on any wrong element or guard byte.",
    "  --sb2sb: LNC2 pair exchanges as SB2SB legs staged through SBUF (Trn2 / Trn3, one node).",
    "  --max-memory SIZE: host memory a functional run may use (default: half the free memory); a run",
    "  estimated above it is refused before it starts (exit 2).",
  ].join("\n");
}

const SPEC = {
  values: [
    "-r",
    "-N",
    "-b",
    "-e",
    "-f",
    "-i",
    "-n",
    "-w",
    "-d",
    "-o",
    "--arch",
    "--algo",
    "--check-mode",
    "--seed",
    "--trace",
    "--lnc",
    "--max-memory",
  ],
  flags: ["--check", "--no-check", "--sr", "--timing-only", "--sb2sb", "--json"],
};

function intOption(text: string | undefined, name: string, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!Number.isInteger(v) || v < min) throw new FieldError("collective", name, text, `an integer ≥ ${min}`);
  return v;
}

function oneOf<T extends string>(
  text: string | undefined,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  if (text === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(text))
    throw new FieldError("collective", name, text, allowed.join("|"));
  return text as T;
}

/** `--max-memory`, or by default half the free memory (a fair share on a shared machine). */
function hostBudget(text: string | undefined): HostBudget {
  if (text !== undefined) return { bytes: parseSize("--max-memory", text), source: "--max-memory" };
  return { bytes: Math.floor(freemem() / 2), source: "half the free memory; set --max-memory" };
}

/** Write the trace file; a path that cannot be written is bad input (exit 2), not a crash. */
function writeTrace(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new UsageError(
      `--trace ${JSON.stringify(path)}: cannot write (${(e as NodeJS.ErrnoException).code ?? e})`,
    );
  }
}

async function run(name: CollectiveName, args: readonly string[], io: Io): Promise<number> {
  const p = parseArgs(args, SPEC);
  if (p.positional.length > 0) throw new UsageError(`unexpected ${p.positional.join(" ")}`);
  if (p.flags.has("--check") && p.flags.has("--no-check"))
    throw new UsageError("--check and --no-check exclude each other");
  const timingOnly = p.flags.has("--timing-only");
  const factorText = option(p, "-f");
  const stepText = option(p, "-i");
  if (factorText !== undefined && stepText !== undefined)
    throw new UsageError("-f and -i exclude each other");
  const seed = intOption(option(p, "--seed"), "--seed", 0, 0);
  if (seed > 0xffffffff) throw new FieldError("collective", "--seed", seed, "0..4294967295");
  const checkMode = oneOf<Exclude<CheckMode, "none">>(
    option(p, "--check-mode"),
    "--check-mode",
    ["exact", "reference"],
    "exact",
  );
  intOption(option(p, "-n"), "-n", 1, 1);
  intOption(option(p, "-w"), "-w", 0, 0);
  const profile = archProfile(option(p, "--arch") ?? "trn2");
  const lncText = option(p, "--lnc");
  const lnc = lncText === undefined ? defaultLnc(profile) : Number(oneOf(lncText, "--lnc", ["1", "2"], "1"));
  const runSpec: CollectiveRun = {
    profile,
    lnc: checkLnc(profile, lnc),
    ranks: intOption(option(p, "-r"), "-r", 8, 1),
    nodes: intOption(option(p, "-N"), "-N", 1, 1),
    collective: name,
    algorithm: oneOf<AlgorithmName | "auto">(
      option(p, "--algo"),
      "--algo",
      ["auto", "ring", "kangaring", "mesh"],
      "auto",
    ),
    dtype: collectiveDtype(option(p, "-d") ?? "bf16"),
    op: oneOf<ReduceOp>(option(p, "-o"), "-o", ["sum", "max", "min", "avg"], "sum"),
    check: p.flags.has("--no-check") ? "none" : checkMode,
    timingOnly,
    sb2sb: p.flags.has("--sb2sb"),
    dataSeed: seed,
    ...(p.flags.has("--sr") ? { srSeed: seed } : {}),
    hostBudget: hostBudget(option(p, "--max-memory")),
  };
  const sizes = sweepSizes(
    parseSize("-b", option(p, "-b") ?? "8"),
    parseSize("-e", option(p, "-e") ?? "4mb"),
    factorText === undefined ? (stepText === undefined ? 2 : undefined) : Number(factorText),
    stepText === undefined ? undefined : parseSize("-i", stepText),
  );
  // Refuse what the host cannot hold before running any size (the largest is the last).
  admitSize(runSpec, sizes[sizes.length - 1] ?? 0);
  const json = p.flags.has("--json");
  // Fail before the run, not after minutes of it, when the trace cannot be written.
  const tracePath = option(p, "--trace");
  if (tracePath !== undefined) writeTrace(tracePath, "");
  const progress = createProgress(io, !json && process.stderr.isTTY === true, () => performance.now());
  const results: SizeResult[] = [];
  for (const [k, size] of sizes.entries()) {
    const label = `${name} ${size} B`;
    progress.update(k / sizes.length, label);
    results.push(runSize(runSpec, size, (f) => progress.update((k + f) / sizes.length, label)));
  }
  progress.done();
  const rows: ReportRow[] = results.map((r) => r.row);
  const last = results[results.length - 1];
  if (tracePath !== undefined && last !== undefined) {
    writeTrace(tracePath, JSON.stringify(traceOf(last.plan, last.schedule, runSpec.profile)));
  }
  if (json) {
    io.out(`${toJson({ rows, avgBusbw: averageBusbw(rows) })}\n`);
  } else {
    const algos = [...new Set(results.map((r) => r.plan.algorithm))].join(",");
    const checks = [...new Set(results.map((r) => r.check))].join(",");
    io.out(
      `# ${name} ranks=${runSpec.ranks} nodes=${runSpec.nodes} arch=${runSpec.profile.name} lnc=${lnc} algo=${algos} ` +
        `dtype=${dtypeName(runSpec.dtype)} op=${runSpec.op} check=${checks}${runSpec.srSeed === undefined ? "" : ` sr seed=${seed}`}` +
        `${runSpec.sb2sb ? ` sb2sb=${sb2sbNote(runSpec, last)}` : ""}\n`,
    );
    io.out(formatTable(rows));
  }
  const bad = rows.filter((r) => r.wrong > 0 || r.guardErrors > 0);
  for (const r of bad)
    io.err(
      `${name}: size ${r.size}: ${r.wrong} wrong element(s), ${r.guardErrors} guard byte(s) overwritten\n`,
    );
  return bad.length > 0 ? 1 : 0;
}

function command(name: CollectiveName): Command {
  return { name, summary: SUMMARY[name], usage: usage(name), run: (args, io) => run(name, args, io) };
}

export const allrCommand: Command = command("allr");
export const allgCommand: Command = command("allg");
export const redsctCommand: Command = command("redsct");
export const sendrecvCommand: Command = command("sendrecv");
