// Every command line of the nccom-test user guide (the SDK 2.32 text: 15 lines) and the nccl-tests
// README's examples, fed as published — `nccom-test` (or `./build/…`) replaced by sdmakit, an
// environment prefix set as the environment, the guide's files written to a temporary folder and
// named by their path there. Each must run: exit 0 and at least one row. In-process, on a host budget
// of 224 MiB ($SDMAKIT_MAX_MEMORY, a machine setting, not a change to the line), so sizes larger than
// that run timing-only with a note, as they would on a small machine.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import { GUIDE_FILES } from "../data/guide-files.js";

const GUIDE = [
  "nccom-test -r 2 allr",
  "nccom-test -r 2 --minbytes 1kb --maxbytes 1gb --stepfactor 4 --datatype fp32 allr",
  "nccom-test -r 32 --minbytes 1kb --maxbytes 1mb --stepfactor 8 --datatype fp32 --check allg",
  "nccom-test -r 8 --custom-src-target-pairs pairs.json permute",
  "nccom-test -r 32 --minbytes 1kb --maxbytes 1mb --stepfactor 8 --datatype fp32 --check allg --show-input-output-size",
  "nccom-test -r 8 --minbytes 1kb --maxbytes 1mb --stepfactor 8 --datatype fp32 --stats avg p25 p50 p90 p99 --iters 1000 allg",
  "nccom-test -r 32 --minbytes 1kb --maxbytes 1mb --stepfactor 8 --datatype fp32 --check allg --report-to-json-file nccom-results.json",
  "nccom-test -r 16 allr -b 4 -e 1gb -f 16 -d fp32 --show-algorithm",
  "nccom-test allgv -r 4 -N 1 -b 2048 -e 2048 -d fp16 --variable-size-op-metadata allgv_metadata.json",
  "nccom-test allg -r 64 -c --streams-json streams_example.json",
  "NEURON_RT_ROOT_COMM_ID=10.1.4.145:45654 nccom-test -r 64 -N 2 -d fp32 allr --hosts 10.1.4.145 10.1.4.138",
  "nccom-test -r 64 -N 2 allr --slurm-mode --slurm-setup-script path/to/my/custom-setup-script.sh",
  "nccom-test -r 64 -N 2 allr --slurm-mode --slurm-job-id 12345",
  "NEURON_RT_ROOT_COMM_ID=10.1.4.145:45654 nccom-test -r 64 -N 2 -b 8 -e 1GB -f 2 -n 50 -w 5 -d fp32 allr --hosts 127.0.0.1 10.1.4.138",
  "NEURON_RT_ROOT_COMM_ID=172.32.137.79:44444 nccom-test -r 2 -N 2 -d fp32 alltoallv -b 1MB -e 1MB --hosts 127.0.0.1 172.32.253.16 --alltoallv-metadata alltoallv_metadata.json",
];

const NCCL_TESTS = [
  "./build/all_reduce_perf -b 8 -e 128M -f 2 -g 8",
  "./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4",
  "./build/all_gather_perf -b 8 -e 128M -f 2 -g 8",
  "./build/alltoall_perf -b 8 -e 128M -f 2 -g 8",
  "./build/sendrecv_perf -b 8 -e 128M -f 2 -g 8 -c 0",
];

const dir = mkdtempSync(join(tmpdir(), "sdmakit-guide-"));
for (const [name, json] of Object.entries(GUIDE_FILES)) writeFileSync(join(dir, name), JSON.stringify(json));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A published line as sdmakit's arguments and environment (file names resolved in `dir`). */
function parse(line: string): { env: Record<string, string>; args: string[] } {
  const words = line.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] as string)) {
    const [k, v] = (words.shift() as string).split("=");
    env[k as string] = v as string;
  }
  const tool = words.shift() as string;
  const perf = tool.startsWith("./build/") ? [tool.slice("./build/".length)] : [];
  const args = words.map((w) => (w in GUIDE_FILES || w.endsWith(".json") ? join(dir, w) : w));
  return { env, args: [...perf, ...args, "--no-progress"] };
}

/**
 * The multistream line checks every step (-c): allr over 4 groups of 16 and allg over 64 side by
 * side, one shared device of ≈ 385 MiB of pages, ≈ 531 MiB in all with its legs and packets. On a
 * smaller budget it is refused at once with that estimate, as any explicitly checked run.
 */
const STREAMS_BUDGET = "640M";

interface LineRun {
  readonly status: number;
  readonly out: string;
  readonly err: string;
}

/** Each line's run, kept: the last test reads the permute and alltoallv lines' tables again. */
const runs = new Map<string, Promise<LineRun>>();

/** A line's run (once per line: a run depends only on the line and the files). */
function runLine(line: string): Promise<LineRun> {
  let run = runs.get(line);
  if (run === undefined) {
    run = runLineNow(line);
    runs.set(line, run);
  }
  return run;
}

async function runLineNow(line: string): Promise<LineRun> {
  const { env, args } = parse(line);
  const saved = { ...process.env };
  Object.assign(process.env, env, {
    SDMAKIT_MAX_MEMORY: line.includes("--streams-json") ? STREAMS_BUDGET : "224M",
  });
  const out: string[] = [];
  const err: string[] = [];
  try {
    const status = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { status, out: out.join(""), err: err.join("") };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** Table rows: lines that start with a size and a count. */
const rows = (out: string) => out.split("\n").filter((l) => /^\s*\d+\s+\d+\s/.test(l));

describe("the nccom-test guide's 15 command lines and nccl-tests' README examples run as typed", () => {
  it("has the guide's 15", () => expect(GUIDE).toHaveLength(15));
  for (const line of [...GUIDE, ...NCCL_TESTS]) {
    it(line, async () => {
      const r = await runLine(line);
      expect(r.err, line).not.toMatch(/unknown (option|command)/);
      expect(r.status, `${line}\n${r.err}`).toBe(0);
      expect(rows(r.out).length, r.out).toBeGreaterThan(0);
    });
  }
  it("the permute and alltoallv lines print what the guide prints in size(B) and count(elems)", async () => {
    const permute = rows((await runLine(GUIDE[3] as string)).out);
    expect(permute.at(-1)).toMatch(/^\s*4194304\s+2097152\s+bf16\s/);
    const a2av = rows((await runLine(GUIDE[14] as string)).out);
    expect(a2av).toHaveLength(1);
    expect(a2av[0]).toMatch(/^\s*1048608\s+262152\s+fp32\s.*\s0$/);
    const report = JSON.parse(readFileSync(join(dir, "nccom-results.json"), "utf8"));
    expect(report.results.length).toBe(4);
  });
});
