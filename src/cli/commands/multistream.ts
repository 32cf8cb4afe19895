/**
 * The collective commands with replica groups or streams (`--custom-replica-groups`,
 * `--data-parallel-dimension`, `--streams-json`): the library's sweep over groups side by side, or
 * over several collectives at once, printed as nccom-test does — a table per stream, each with its
 * Avg bus bandwidth. Rows of a multistream run are printed when the sweep ends (a stream's block is
 * whole); `--json` streams them as JSON Lines with the stream's index.
 */
import { UsageError } from "../../bits/index.js";
import {
  averageBusbw,
  type CollectiveName,
  type CollectiveResult,
  formatHeader,
  formatRow,
  formatSummary,
  groupsOf,
  type ReportRow,
  type StreamOptions,
  type SweepOptions,
  sweep,
} from "../../collectives/index.js";
import { dtypeName } from "../../spec/index.js";
import { toJson } from "../args.js";
import type { CollectiveSettings } from "../collective-options.js";
import type { Io } from "../command.js";
import { openOutputs } from "../output-file.js";
import type { ConcurrentChoice } from "../streams-options.js";
import { configOf, headerLine, rowJson } from "./collective.js";

/** The library's sweep options for the command line's run and its groups / streams. */
function sweepOptions(s: CollectiveSettings, c: ConcurrentChoice): SweepOptions {
  const { run } = s;
  return {
    collective: run.collective,
    ranks: run.ranks,
    nodes: run.nodes,
    arch: run.profile,
    algorithm: run.algorithm,
    dtype: run.dtype,
    op: run.op,
    check: run.check,
    timingOnly: run.timingOnly,
    seed: run.dataSeed,
    sr: run.srSeed !== undefined,
    sb2sb: run.sb2sb === true,
    ...(run.lnc === undefined ? {} : { lnc: run.lnc }),
    ...(run.hostBudget === undefined ? {} : { hostBudget: run.hostBudget }),
    ...s.sweep,
    ...c,
  };
}

/** One header line of a stream: what it runs, over which groups. */
function streamLine(k: number, o: SweepOptions, st: StreamOptions | undefined, ranks: number): string {
  const groups = groupsOf(ranks, st?.replicaGroups || st?.dataParallelDimension ? st : o);
  const over =
    groups === undefined ? `${ranks} ranks` : `${groups.length} groups × ${groups[0]?.length} ranks`;
  const dtype = st?.dtype ?? o.dtype;
  const name = typeof dtype === "number" ? dtypeName(dtype) : String(dtype);
  const what = st === undefined ? o.collective : `${st.collective} dtype=${name} op=${st.op ?? o.op}`;
  return `# stream ${k}: ${what} over ${over}, side by side (time: the slowest group's; busbw: a group's bus factor)\n`;
}

/**
 * Run the command's sweep over groups or streams and print it (exit 1 on a wrong element).
 * @throws UsageError for --trace (one collective's trace only) or a bad group or stream.
 */
export function runConcurrent(
  name: CollectiveName,
  s: CollectiveSettings,
  c: ConcurrentChoice,
  io: Io,
): number {
  if (s.trace) throw new UsageError("--trace with replica groups or streams: trace one collective at a time");
  const options = sweepOptions(s, c);
  const config = { ...configOf(name, s.run, s), ...c };
  const count = c.streams?.length ?? 1;
  const files = openOutputs(
    s.reportFile === undefined ? [] : [{ option: "--report-to-json-file", path: s.reportFile }],
    {
      followSymlinks: s.followSymlinks,
    },
  );
  const report = files[0];
  const rows: ReportRow[][] = Array.from({ length: count }, () => []);
  const results: object[] = [];
  if (s.json) io.out(`${toJson({ record: "config", ...config })}\n`);
  try {
    for (const r of sweep(options) as Iterable<CollectiveResult>) {
      const k = r.stream ?? 0;
      (rows[k] as ReportRow[]).push(r.row);
      const json = {
        ...(c.streams === undefined ? {} : { stream: k }),
        ...rowJson(r.row, r.algorithm, r.check, s.columns),
      };
      results.push(json);
      if (s.json) io.out(`${toJson({ record: "row", ...json })}\n`);
    }
  } catch (e) {
    report?.abandon();
    throw e;
  }
  const averages = rows.map((r) => averageBusbw(r));
  if (s.json) io.out(`${toJson({ record: "summary", "Avg bus bandwidth(GB/s)": averages })}\n`);
  else {
    io.out(headerLine(name, s.run, s));
    rows.forEach((streamRows, k) => {
      io.out(streamLine(k, options, c.streams?.[k], s.run.ranks) + formatHeader(s.columns));
      for (const row of streamRows) io.out(formatRow(row, s.columns));
      io.out(formatSummary(streamRows));
    });
  }
  if (report) {
    report.write(`${toJson({ config, results, "Avg bus bandwidth(GB/s)": averages }, 2)}\n`);
    report.commit();
  }
  const bad = rows.flatMap((r, k) =>
    r.filter((x) => x.wrong > 0 || x.guardErrors > 0).map((x) => [k, x] as const),
  );
  for (const [k, r] of bad)
    io.err(
      `${name}: stream ${k} size ${r.size}: ${r.wrong} wrong element(s), ${r.guardErrors} guard byte(s) overwritten\n`,
    );
  return bad.length > 0 ? 1 : 0;
}
