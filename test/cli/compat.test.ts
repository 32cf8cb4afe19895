// nccom-test and nccl-tests command lines, as their documentation writes them, each parsed to the
// run it means (table-driven; parse only, no run), and the routing main does around them: the op
// word anywhere, the long op names, -h on every command, --version.
import { describe, expect, it } from "vitest";
import { COLLECTIVE_OPTIONS, COMMANDS, collectiveSettings, main, parseOptions } from "../../src/cli/index.js";
import { Dtype } from "../../src/spec/index.js";
import { runInProcess } from "../helpers/cli.js";

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/** The one header note's opening. */
const IGNORED =
  "ignored, they do not apply to a simulation (every rank in this one process, one deterministic run)";

/** The settings of a collective command line (op word removed, as main does), in `env`. */
function settingsOf(line: string, env: Record<string, string> = {}) {
  const words = line.split(/\s+/).filter(Boolean);
  const op = words.find((w) => /^(allr|allg|redsct|sendrecv|all_reduce|all_gather|reduce_scatter)$/.test(w));
  const name =
    ({ all_reduce: "allr", all_gather: "allg", reduce_scatter: "redsct" } as const)[op as "all_reduce"] ??
    (op as "allr");
  const p = parseOptions(
    COLLECTIVE_OPTIONS,
    words.filter((w) => w !== op),
  );
  return { name, ...collectiveSettings(name, p.values, p.given, env) };
}

const geometric = (min: number, max: number, f: number) => {
  const out: number[] = [];
  for (let s = min; s <= max; s *= f) out.push(s);
  return out;
};

describe("documented command lines parse to the intended run", () => {
  it.each([
    // nccom-test.rst
    ["-r 2 allr", { name: "allr", ranks: 2 }, geometric(8, 4 * MiB, 2)],
    [
      "-r 2 --minbytes 1kb --maxbytes 1gb --stepfactor 4 --datatype fp32 allr",
      { name: "allr", ranks: 2, dtype: Dtype.FP32 },
      geometric(KiB, GiB, 4),
    ],
    [
      "-r 32 --minbytes 1kb --maxbytes 1mb --stepfactor 8 --datatype fp32 --check allg",
      { name: "allg", ranks: 32, dtype: Dtype.FP32, check: "exact" },
      geometric(KiB, MiB, 8),
    ],
    [
      "-r 64 -N 2 -b 8 -e 1GB -f 2 -n 50 -w 5 -d fp32 allr",
      { name: "allr", ranks: 64, nodes: 2, dtype: Dtype.FP32 },
      geometric(8, GiB, 2),
    ],
    [
      "-r 8 --minbytes 1kb --maxbytes 1mb --stepfactor 8 --datatype fp32 --stats avg p25 p50 p90 p99 --iters 1000 allg",
      { name: "allg", ranks: 8 },
      geometric(KiB, MiB, 8),
    ],
    [
      "-r 16 allr -b 4 -e 1gb -f 16 -d fp32 --show-algorithm",
      { name: "allr", ranks: 16 },
      geometric(4, GiB, 16),
    ],
    ["-r 2 allr -b 8 -e 16 -i 4 -d fp32", { name: "allr", ranks: 2 }, [8, 12, 16]],
    ["-r 2 allr -b 8 -e 32 -f 2 -d fp32", { name: "allr", ranks: 2 }, [8, 16, 32]],
    [
      "all_reduce -r 4 -c random --seed 7",
      { name: "allr", ranks: 4, check: "reference", dataSeed: 7 },
      geometric(8, 4 * MiB, 2),
    ],
    ["reduce_scatter -r 4 -c all_ones -b 1MB -e 1MB", { name: "redsct", ranks: 4, check: "exact" }, [MiB]],
    [
      "allg -r 4 -d fp8e4 -b 32MiB -e 32MiB --non-interactive",
      { name: "allg", ranks: 4, dtype: Dtype.FP8_E4 },
      [32 * MiB],
    ],
    ["allr -r 2 -d fp8 -f 2kb -e 16kb", { name: "allr", ranks: 2, dtype: Dtype.FP8_E4 }, [8, 16 * KiB]],
    // nccl-tests README: all_reduce_perf -b 8 -e 256M -f 2 -g 8, its long forms, attached values
    ["allr -b 8 -e 256M -f 2 -g 8", { name: "allr", ranks: 8 }, geometric(8, 256 * MiB, 2)],
    [
      "allr --minbytes=8 --maxbytes=128M --stepfactor=2 --ngpus 4 --op max --datatype half --iters 20 --warmup_iters 1",
      { name: "allr", ranks: 4, op: "max", dtype: Dtype.FP16 },
      geometric(8, 128 * MiB, 2),
    ],
    [
      "allr -b8 -e128M -f2 -g4 -dfloat -c 1 -t 1",
      { name: "allr", ranks: 4, dtype: Dtype.FP32, check: "exact" },
      geometric(8, 128 * MiB, 2),
    ],
    [
      "allg -d bfloat16 -b 1K -e 4K -o min",
      { name: "allg", dtype: Dtype.BFLOAT16, op: "min" },
      [KiB, 2 * KiB, 4 * KiB],
    ],
    ["allr -d f8e5m2 -b 8 -e 8", { name: "allr", dtype: Dtype.FP8_E5 }, [8]],
    ["allr -d uint8 -b 8 -e 8 --no-check", { name: "allr", dtype: Dtype.UINT8, check: "none" }, [8]],
  ] as const)("%s", (line, want, sizes) => {
    const s = settingsOf(line);
    const { name, ...run } = want as { name: string } & Record<string, unknown>;
    expect(s.name).toBe(name);
    expect(s.run).toMatchObject({ ranks: 8, nodes: 1, algorithm: "auto", ...run });
    expect(s.sizes).toEqual(sizes);
  });

  it("-n / -w are accepted, ignored, and the header says so", () => {
    expect(settingsOf("allr -n 50 -w 5").notes).toEqual([`${IGNORED}: -n 50 -w 5`]);
  });

  it("-t: nccom-test's statistics as columns; a number is nccl-tests' threads", () => {
    expect(settingsOf("allr -t avg p25 p50 p90 p99 -n 5").columns).toEqual({
      stats: ["avg", "p25", "p50", "p90", "p99"],
      ioSizes: false,
    });
    expect(settingsOf("allr -n 5").columns).toEqual({ ioSizes: false });
    expect(settingsOf("allr -t 2 -g 4").run.ranks).toBe(8);
    expect(() => settingsOf("allr -t p101")).toThrow('-t "p101": expected avg or a percentile p0..p100');
  });

  it("the launchers' and hosts' options and nccl-tests' knobs: accepted, named in one note", () => {
    const launch =
      "allr --hosts 127.0.0.1 10.1.4.138 --hosts-file h --mpi-log-dir d -S -u 4 --slurm-setup-script s.sh " +
      "--slurm-job-id 12345 --slurm-use-head-node-neuron-bench --debug --vcpu-pin-mode " +
      "--data-collector-port 60006 --data-collector-host h0 -I 10 -W 5";
    expect(settingsOf(launch).notes).toEqual([
      `${IGNORED}: -s 127.0.0.1 10.1.4.138 --hosts-file h --mpi-log-dir d -S -u 4 --slurm-setup-script s.sh ` +
        "--slurm-job-id 12345 --slurm-use-head-node-neuron-bench --debug --vcpu-pin-mode " +
        "--data-collector-port 60006 --data-collector-host h0 -I 10 -W 5",
    ]);
    const nccl =
      "allr -m 2 -p 0 -z 1 -y 0 -T 10 -G 0 -C 0 -a 1 -R 0 -x 0 -D 0 -V 16 -M 1 -K 0 --root 0 " +
      "--run_cycles 1 --report_timestamps 0 --unalign 0 --per_iter_timing 0";
    expect(settingsOf(nccl).notes).toHaveLength(1);
    expect(settingsOf(nccl).notes[0]).toMatch(/-m 2 --run_cycles 1 .* -V 16 -M 1 --unalign 0$/);
    // One note for all of them; a run without them has none.
    expect(settingsOf("allr").notes).toEqual([]);
  });

  it("NEURON_RT_ROOT_COMM_ID from a multi-node line is named; NEURON_LOGICAL_NC_CONFIG sets the LNC", () => {
    const env = { NEURON_RT_ROOT_COMM_ID: "10.1.4.145:45654", NEURON_LOGICAL_NC_CONFIG: "1" };
    const s = settingsOf("allr -r 8", env);
    expect(s.notes).toEqual([`${IGNORED}: NEURON_RT_ROOT_COMM_ID=10.1.4.145:45654`]);
    expect(s.run.lnc).toBe(1);
    expect(settingsOf("allr -r 8", {}).run.lnc).toBe(2); // trn2's default
    expect(settingsOf("allr -r 8 --lnc 2", env).run.lnc).toBe(2); // the option wins
    expect(() => settingsOf("allr", { NEURON_LOGICAL_NC_CONFIG: "4" })).toThrow(
      'NEURON_LOGICAL_NC_CONFIG "4": expected 1 | 2',
    );
  });

  it("nccl-tests' -c 0 is no check (also with --timing-only); -c N checks", () => {
    expect(settingsOf("allr -c 0").run.check).toBe("none");
    expect(settingsOf("allr -c 0 --timing-only").run.check).toBe("none");
    expect(settingsOf("allr -c 5").run.check).toBe("exact");
  });

  it("nccl-tests' ranks: --nthreads × -g", () => {
    expect(settingsOf("allr -g 4 --nthreads 2").run.ranks).toBe(8);
    expect(settingsOf("allr --nthreads 2").run.ranks).toBe(2);
    expect(settingsOf("allr -r 4 -g 8").run.ranks).toBe(4); // -r wins
  });

  it("-r's help: a rank is a logical core", () => {
    expect(COLLECTIVE_OPTIONS.nworkers.help).toMatch(/logical NeuronCores/);
    expect(COLLECTIVE_OPTIONS.nworkers.help).not.toMatch(/physical/);
  });
});

describe("main: routing and help", () => {
  const cli = (...args: string[]) => runInProcess({ run: main }, args);
  it.each([
    ["-r", "4", "allr", "-b", "1k", "-e", "1k", "--timing-only"],
    ["-r", "4", "-b8", "-e8", "all_reduce", "--timing-only"],
    ["all_reduce_perf", "-g", "4", "-b", "1k", "-e", "1k", "--timing-only"],
  ])("%j runs all-reduce", async (...args) => {
    const r = await cli(...args);
    expect([r.status, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toMatch(/^# allr ranks=4 /);
    expect(r.stdout).toMatch(/Avg bus bandwidth:\t\d+\.\d{4}GB\/s\n$/);
  });
  it("the table's columns as nccom-test names them: time:avg(us), -t statistics, --show-input-output-size", async () => {
    const header = async (...args: string[]) =>
      (await cli("allg", "-r", "32", "-b", "1kb", "-e", "1kb", "-d", "fp32", "--timing-only", ...args)).stdout
        .split("\n")
        .find((l) => l.includes("size(B)"))
        ?.trim()
        .split(/\s+/);
    const tail = ["algbw(GB/s)", "busbw(GB/s)", "algorithm", "#wrong"];
    expect(await header()).toEqual(["size(B)", "count(elems)", "type", "time:avg(us)", ...tail]);
    expect(await header("-t", "avg", "p50", "p99")).toEqual([
      "size(B)",
      "count(elems)",
      "type",
      "time:avg(us)",
      "time:p50(us)",
      "time:p99(us)",
      ...tail,
    ]);
    const io = await cli(
      "allg",
      "-r",
      "32",
      "-b",
      "1kb",
      "-e",
      "1kb",
      "-d",
      "fp32",
      "--timing-only",
      "--show-input-output-size",
    );
    const [cols, row] = io.stdout.split("\n").filter((l) => /size\(B\)|^\s+\d/.test(l));
    expect(cols?.trim().split(/\s+/).slice(0, 4)).toEqual([
      "size(B)",
      "count(elems)",
      "total_input_size(B)",
      "total_output_size(B)",
    ]);
    // The guide's row: 1 KiB all-gathered over 32 ranks is 32 B in and 1024 B out on each rank.
    expect(row?.trim().split(/\s+/).slice(0, 5)).toEqual(["1024", "256", "32", "1024", "fp32"]);
  });
  it.each(COMMANDS.map((c) => c.name))("%s -h and --help print its help, exit 0", async (name) => {
    for (const flag of ["-h", "--help"]) {
      const r = await cli(name, flag);
      expect([r.status, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).toMatch(new RegExp(`sdmakit ${name}`));
    }
  });
  it("--version prints the package version; an unknown command is one line on stderr, exit 2", async () => {
    const v = await cli("--version");
    expect([v.status, v.stdout]).toEqual([0, "0.1.0\n"]);
    const u = await cli("frobnicate");
    expect([u.status, u.stdout, u.stderr]).toEqual([
      2,
      "",
      'sdmakit: unknown command "frobnicate"; `sdmakit help` lists them\n',
    ]);
  });
});
