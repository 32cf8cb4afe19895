// `npm run bench`: every bench/*.bench.ts default-exports an async function returning rows (see
// bench/harness.ts: each a median [min–max] over RUNS measurements against a baseline timed in the
// same run; this machine is shared and noisy, so ratios carry across runs, absolute times do not).
// Prints one markdown table; `npm run bench -- --write` also writes it to docs/BENCH.md.
// BENCH_RUNS=n changes the number of measurements a row (default 5); BENCH_ONLY=engine runs one file;
// BENCH_ROWS=main-job (with BENCH_ONLY=collectives) runs only the main job's ratio rows,
// BENCH_ROWS=timing-only only the timing-only rows; BENCH_ROWS=threads only the rows of one thread
// against every core (in collectives and process: in-process warm, and cold processes).
import { readdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { writeOutput } from "../src/cli/output-file.js";
import { type BenchRow, formatRow, RUNS, TABLE_HEAD } from "./harness.js";

const dir = new URL("./", import.meta.url);
const only = process.env.BENCH_ONLY;
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts") && (only === undefined || f.startsWith(only)))
  .sort();
const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  console.log(line);
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
log(`# npm run bench`);
log("");
log(
  `${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ` +
    `${RUNS} measurements a row, load average at start ${load()}.`,
);
log("");
log("Figures are CPU time ÷ a warm in-process copy of the row's input bytes timed in alternation,");
log("each side the best of 3 back-to-back runs (bench/harness.ts), median [min–max]; lower is");
log("better. Targets are issue 13's.");
for (const file of files) {
  const mod = (await import(new URL(file, dir).href)) as { default: () => Promise<BenchRow[]> };
  log("");
  log(`## ${file}`);
  log("");
  log(TABLE_HEAD);
  for (const row of await mod.default()) log(formatRow(row));
}
log("");
log(`Load average at the end: ${load()}.`);
if (process.argv.includes("--write")) {
  writeOutput(new URL("../docs/BENCH.md", import.meta.url), `${lines.join("\n")}\n`);
}
