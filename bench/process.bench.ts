// Whole processes, as a user runs the built CLI (`npm run build` first): each run is a process of
// its own, timed in wall time (a cold process's first touch of its pages and its JIT warm-up are
// what a user waits for), in alternation so that every kind of run sees the same load.
// - `sdmakit --version` ÷ `node -e 0`, and its absolute wall time (issue 29: ≤ 0.15 s).
// - The cold main job, `sdmakit allr -r 8 -d bf16 -b 64mb -e 64mb` (Ring, unchecked and checked):
//   (wall of the run − wall of the same command at 8 bytes) ÷ a warm 512 MiB copy timed in a node
//   process of its own in the same round, the way the performance review measured it.
// - The default job (auto, checked) in a cold process on one thread ÷ on every core (issue 29).
// - A streamed `--trace` (issue 27): the peak RSS of a process writing a large trace (≈ 2 M events)
//   ÷ that of one writing a small one (≈ 7 k): memory independent of the trace's length is ≈ 1.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchRow, RUNS, spread } from "./harness.js";

const BIN = fileURLToPath(new URL("../bin/sdmakit.js", import.meta.url));

/** Wall seconds of one process. @throws Error when it exits non-zero. */
function wallS(args: readonly string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 24 });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return s;
}

/** Milliseconds of a warm 512 MiB copy (best of 3), in a process of its own. */
function warmCopyMs(bytes: number): number {
  const code = `const a = new Uint8Array(${bytes}).fill(7), b = new Uint8Array(${bytes}).fill(1);
    let best = Infinity; for (let i = 0; i < 4; i++) { const t = performance.now(); b.set(a); if (i > 0) best = Math.min(best, performance.now() - t); }
    process.stdout.write(String(best));`;
  return Number(spawnSync(process.execPath, ["-e", code], { encoding: "utf8" }).stdout);
}

function versionRows(): BenchRow[] {
  const ratios: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const bare = wallS(["-e", "0"]);
    const v = wallS([BIN, "--version"]);
    if (i === 0) continue; // the first pair warms the file cache
    ratios.push(v / bare);
    version.push(v);
  }
  const name = "sdmakit --version";
  return [
    {
      name: `${name} ÷ node -e 0`,
      target: "",
      unit: "× node -e 0",
      ...spread(ratios),
      note: "wall time, pairs",
    },
    { name: `${name}, wall`, target: "≤ 0.15", unit: "s", ...spread(version), note: `${RUNS} runs` },
  ];
}

const MAIN_JOB = ["allr", "-r", "8", "-d", "bf16", "--algo", "ring"];

function mainJobRows(): BenchRow[] {
  const bytes = 8 * (64 << 20);
  const kinds = { unchecked: ["--no-check"], checked: ["--check"] };
  const ratios: Record<keyof typeof kinds, number[]> = { unchecked: [], checked: [] };
  const walls: Record<keyof typeof kinds, number[]> = { unchecked: [], checked: [] };
  const copies: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const copyS = warmCopyMs(bytes) / 1000;
    copies.push(copyS * 1000);
    const tiny = wallS([BIN, ...MAIN_JOB, "-b", "8", "-e", "8", "--no-check"]);
    for (const [kind, extra] of Object.entries(kinds) as [keyof typeof kinds, string[]][]) {
      const wall = wallS([BIN, ...MAIN_JOB, "-b", "64mb", "-e", "64mb", ...extra]);
      walls[kind].push(wall);
      ratios[kind].push((wall - tiny) / copyS);
    }
  }
  const copyNote = `warm copy of 512 MiB ${spread(copies).median.toFixed(1)} ms`;
  return (Object.keys(kinds) as (keyof typeof kinds)[]).map((kind) => ({
    name: `cold process: sdmakit allr -r 8 bf16 64 MiB ring${kind === "checked" ? ", --check" : " --no-check"}`,
    target: "",
    unit: "× copy",
    ...spread(ratios[kind]),
    note: `(wall − wall at 8 B) ÷ warm copy; wall ${spread(walls[kind]).median.toFixed(2)} s; ${copyNote}; ${RUNS} rounds`,
  }));
}

/**
 * The default job as a user runs it (`sdmakit allr -r 8 -d bf16 -b 64mb -e 64mb`, auto, checked), a
 * cold process on one thread ÷ on the cores this machine has, in alternation; the load average
 * before and after in the note (on a loaded 2-core host there is no core to spare).
 */
function coldThreadsRow(): BenchRow {
  const cores = availableParallelism();
  const job = ["allr", "-r", "8", "-d", "bf16", "-b", "64mb", "-e", "64mb"];
  const [load0] = loadavg();
  const ratios: number[] = [];
  const walls: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const one = wallS([BIN, ...job, "--threads", "1"]);
    const many = wallS([BIN, ...job, "--threads", String(cores)]);
    ratios.push(one / many);
    walls.push(many);
  }
  const [load1] = loadavg();
  return {
    name: `cold process: sdmakit allr -r 8 bf16 64 MiB auto, --threads 1 ÷ --threads ${cores} (wall)`,
    target: "≥ 1.5",
    unit: "× faster",
    ...spread(ratios),
    note: `wall on ${cores} threads ${spread(walls).median.toFixed(2)} s; ${RUNS} pairs; load ${load0?.toFixed(1)} → ${load1?.toFixed(1)}`,
  };
}

const CLI_INDEX = new URL("../dist/cli/index.js", import.meta.url).href;

/** Peak RSS (bytes) of a process that runs the CLI's `main(args)` once (the built CLI, in process). */
function cliPeakRss(args: readonly string[]): number {
  const code = `import { main } from ${JSON.stringify(CLI_INDEX)};
    const status = await main(${JSON.stringify(args)}, { out: () => {}, err: (t) => process.stderr.write(t) });
    if (status !== 0) throw new Error("exit " + status);
    process.stdout.write(String(process.resourceUsage().maxRSS * 1024));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return Number(r.stdout.trim());
}

/** Runs per trace size: a large trace takes seconds to write. */
const TRACE_RUNS = 3;

export function streamedTraceRows(): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), "sdmakit-bench-trace-"));
  const file = join(dir, "t.json");
  const traced = (size: string) => {
    const args = [
      ..."allr --timing-only -r 8 --algo ring".split(" "),
      "-b",
      size,
      "-e",
      size,
      "--trace",
      file,
    ];
    const rss = cliPeakRss(args);
    return { rss, bytes: statSync(file).size };
  };
  const ratios: number[] = [];
  const peaks: number[] = [];
  let bytes = { small: 0, large: 0 };
  try {
    for (let i = 0; i < TRACE_RUNS; i++) {
      const small = traced("1mb");
      const large = traced("1gb");
      ratios.push(large.rss / small.rss);
      peaks.push(large.rss / 1e6);
      bytes = { small: small.bytes, large: large.bytes };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  return [
    {
      name: "streamed --trace, allr 8 ranks ring: peak RSS at 1 GiB ÷ at 1 MiB",
      target: "≤ 1.5",
      unit: "× small trace's RSS",
      ...spread(ratios),
      note: `trace files ${mb(bytes.large)} vs ${mb(bytes.small)}; peak ${spread(peaks).median.toFixed(0)} MB; ${TRACE_RUNS} pairs, own processes`,
    },
  ];
}

export default async function bench(): Promise<BenchRow[]> {
  // BENCH_ROWS=threads: only the threads row (each process takes seconds).
  if (process.env.BENCH_ROWS === "threads") return [coldThreadsRow()];
  return [...versionRows(), ...mainJobRows(), coldThreadsRow(), ...streamedTraceRows()];
}
