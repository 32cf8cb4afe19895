/**
 * `sdmakit allr|allg|redsct|sendrecv`: nccom-test on simulated NeuronCores. One implementation
 * behind four commands: sweep sizes, run each collective on the engine (or only its schedule with
 * --timing-only), check every element, and stream the nccom-test table (or JSON Lines) a row as each
 * size finishes. A size's device is dropped before the next size starts, so memory follows the
 * largest size. Optional: the whole report as one JSON file, a Perfetto trace of one size.
 */
import { constants } from "node:os";
import { UsageError } from "../../bits/index.js";
import {
  averageBusbw,
  type CollectiveName,
  type CollectiveRun,
  formatHeader,
  formatRow,
  formatSummary,
  type LegKind,
  MAX_TRACE_EVENTS,
  type PreparedSize,
  planTrace,
  prepareSize,
  type ReportRow,
  runPrepared,
  type TableColumns,
  type TracePlan,
  traceShapeOf,
  writeTrace,
} from "../../collectives/index.js";
import { dtypeName } from "../../spec/index.js";
import { toJson } from "../args.js";
import { type CollectiveSettings, collectiveSettings } from "../collective-options.js";
import { COLLECTIVE_OPTIONS, collectiveHelp } from "../collective-table.js";
import type { Command, Io } from "../command.js";
import { parseOptions } from "../options.js";
import { type OutputFile, openOutputs } from "../output-file.js";
import { createProgress } from "../progress.js";
import { freeOutputName, ncclReport, nccomReport, type RunRecord } from "../report-json.js";
import { concurrentChoice } from "../streams-options.js";
import { admitSweep } from "../sweep-admission.js";
import { VERSION } from "../version.js";
import { COLLECTIVE_COMMANDS } from "./collective-names.js";
import { runConcurrent } from "./multistream.js";

/** The run's settings as the report's `config`. */
export function configOf(name: CollectiveName, run: CollectiveRun, s: CollectiveSettings) {
  return {
    tool: "sdmakit",
    version: VERSION,
    operation: name,
    nworkers: run.ranks,
    nnodes: run.nodes,
    arch: run.profile.name,
    algorithm: run.algorithm,
    datatype: dtypeName(run.dtype),
    op: run.op,
    check: run.check,
    seed: run.dataSeed,
    sr: run.srSeed !== undefined,
    sb2sb: run.sb2sb === true,
    timingOnly: run.timingOnly,
    sizes: s.sizes,
    units: "GB/s (1e9 B/s)",
    lnc: run.lnc,
    notes: s.notes,
  };
}

/** Why --sb2sb cannot apply to this run, or undefined when it can. */
function sb2sbOff(run: CollectiveRun): string | undefined {
  if (!run.profile.hasSb2sb) return `off (${run.profile.name} has no SB2SB)`;
  if (run.nodes > 1) return "off (no SB2SB for multi-node workloads)";
  if (run.lnc !== 1) return "off (needs --lnc 1: at LNC 2 the pair is one rank)";
  return undefined;
}

/** What --sb2sb did at a size: its SB2SB legs of all legs. */
function sb2sbLegs(kinds: Readonly<Record<LegKind, number>> | undefined): string {
  if (kinds === undefined) return "0/0 legs";
  const all = Object.values(kinds).reduce((a, b) => a + b, 0);
  return `${kinds["sb2sb-copy"] + kinds["sb2sb-reduce"]}/${all} legs`;
}

export function headerLine(name: CollectiveName, run: CollectiveRun, s: CollectiveSettings): string {
  const sr = run.srSeed === undefined ? "" : ` sr seed=${run.srSeed}`;
  const sizes = `b=${s.sizes[0]} e=${s.sizes[s.sizes.length - 1]} sizes=${s.sizes.length}`;
  const notes = s.notes.map((n) => `# ${n}\n`).join("");
  return (
    `# ${name} ranks=${run.ranks} nodes=${run.nodes} arch=${run.profile.name} lnc=${run.lnc} algo=${run.algorithm} ` +
    `dtype=${dtypeName(run.dtype)} op=${run.op} check=${run.check}${sr} seed=${run.dataSeed} ${sizes}` +
    `${run.sb2sb ? ` sb2sb=${sb2sbOff(run) ?? "on"}` : ""}\n${notes}`
  );
}

/**
 * One row as JSON: nccom-test's keys (with `--show-input-output-size` its size keys, with `-t` a
 * `time:<stat>(us)` key per statistic beside `time:avg(us)`), then ours; `#wrong` is null when not
 * checked.
 */
export function rowJson(row: ReportRow, algorithm: string, check: string, columns: TableColumns) {
  const checked = row.wrong >= 0;
  const stats = (columns.stats ?? []).filter((s) => s !== "avg");
  return {
    "size(B)": row.size,
    "count(elems)": row.count,
    ...(columns.ioSizes
      ? { "total_input_size(B)": row.inputBytes, "total_output_size(B)": row.outputBytes }
      : {}),
    type: row.type,
    "algbw(GB/s)": row.algbw,
    "busbw(GB/s)": row.busbw,
    "time:avg(us)": row.timeUs,
    ...Object.fromEntries(stats.map((s) => [`time:${s}(us)`, row.timeUs])),
    algorithm,
    check,
    "#wrong": checked ? row.wrong : null,
    guardErrors: row.guardErrors,
    maxAbsErr: checked ? row.maxAbsErr : null,
  };
}

interface Outputs {
  readonly io: Io;
  /** The trace's file and how it is written (planned before the run). */
  readonly trace: { readonly file: OutputFile; readonly plan: TracePlan } | undefined;
  readonly report: OutputFile | undefined;
}

/**
 * MODEL: what a size costs besides its bytes (planning, scheduling, a device built and released), in
 * bytes' worth, so a sweep of many small sizes is not estimated as free.
 */
const PER_SIZE_WORK = 256 * 1024;

/** Let the event loop run: a closed pipe's EPIPE and a signal are seen between sizes. */
const yieldToEvents = () => new Promise<void>((done) => setImmediate(done));

/**
 * Run every size, writing its row (and trace) as it finishes; a size's run is garbage after that.
 * `early`: the sizes prepared already (the early admission: the largest, the traced one). Between
 * sizes the event loop runs, and a signal (io.interrupted) ends the sweep with the rows done.
 */
async function streamSizes(
  name: CollectiveName,
  s: CollectiveSettings,
  config: object,
  out: Outputs,
  early: ReadonlyMap<number, PreparedSize>,
) {
  const mode = s.progress === false ? "off" : process.stderr.isTTY === true ? "tty" : "log";
  const progress = createProgress(out.io, mode, () => performance.now());
  const work = (size: number) => size + PER_SIZE_WORK;
  const totalWork = s.sizes.reduce((a, b) => a + work(b), 0);
  let doneWork = 0;
  const rows: ReportRow[] = [];
  const results: object[] = [];
  let lastKinds: Readonly<Record<LegKind, number>> | undefined;
  let stoppedBy: string | undefined;
  for (const size of s.sizes) {
    await yieldToEvents();
    stoppedBy = out.io.interrupted?.();
    if (stoppedBy !== undefined) break;
    const label = `${name} ${size} B`;
    progress.update(doneWork / totalWork, label);
    const prepared = early.get(size) ?? prepareSize(s.run, size);
    const r = runPrepared(prepared, (f) => progress.update((doneWork + f * work(size)) / totalWork, label));
    doneWork += work(size);
    progress.settled(doneWork / totalWork);
    progress.done();
    rows.push(r.row);
    lastKinds = r.legKinds;
    const json = rowJson(r.row, r.plan.algorithm, r.check, s.columns);
    if (out.report) results.push(json);
    out.io.out(s.json ? `${toJson({ record: "row", ...json })}\n` : formatRow(r.row, s.columns));
    if (out.trace && size === s.trace?.size) {
      const { file, plan } = out.trace;
      const meta = { ...config, tracedSize: r.row.size, timeUs: r.row.timeUs, algorithm: r.plan.algorithm };
      // Streamed from a second placing pass, written as produced: memory is not the trace's.
      writeTrace(
        prepared,
        { sampling: plan.sampling, maxEvents: MAX_TRACE_EVENTS, otherData: meta },
        (text) => file.write(text),
      );
    }
  }
  return { rows, results, lastKinds, stoppedBy };
}

interface Files {
  readonly trace: OutputFile | undefined;
  readonly report: OutputFile | undefined;
  readonly nccl: OutputFile | undefined;
}

/** The run's output files, every target checked before any is created. */
function openFiles(s: CollectiveSettings, ncclPath: string | undefined): Files {
  const named = [
    ...(s.trace ? [{ option: "--trace", path: s.trace.path }] : []),
    ...(s.reportFile === undefined ? [] : [{ option: "--report-to-json-file", path: s.reportFile }]),
    ...(ncclPath === undefined ? [] : [{ option: "-J", path: ncclPath }]),
  ];
  const files = openOutputs(named, { followSymlinks: s.followSymlinks });
  const by = (option: string) => files[named.findIndex((n) => n.option === option)];
  return { trace: by("--trace"), report: by("--report-to-json-file"), nccl: by("-J") };
}

/** Write and commit the JSON reports of a finished run. */
function writeReports(
  files: Files,
  s: CollectiveSettings,
  record: RunRecord,
  config: object,
  results: readonly object[],
) {
  const avg = averageBusbw(record.rows);
  files.report?.write(`${toJson(nccomReport(record, config, results, avg), 2)}\n`);
  files.report?.commit();
  files.nccl?.write(`${toJson(ncclReport(record, s.run, s.sizes, s.step, process.env), 2)}\n`);
  files.nccl?.commit();
}

/**
 * The trace's plan, decided before the run from the traced size's plan (prepared now, into
 * `early`): refused above its bound, or sampled to fit (--trace-sample), with a header note.
 * @throws UsageError with the estimate (planTrace).
 */
function planTracedSize(
  s: CollectiveSettings,
  early: Map<number, PreparedSize>,
): { plan: TracePlan; note: string | undefined } | undefined {
  if (!s.trace) return undefined;
  const known = early.get(s.trace.size);
  const traced = known === undefined ? traceShapeOf(s.run, s.trace.size) : { shape: known, prepared: known };
  if (traced.prepared !== undefined) early.set(s.trace.size, traced.prepared);
  const plan = planTrace(traced.shape, { sample: s.trace.sample });
  const { rankStride, perLeg } = plan.sampling;
  const ranks = rankStride === 1 ? "every rank" : `ranks 0, ${rankStride}, ${2 * rankStride}, …`;
  const note = perLeg
    ? `--trace sampled to fit: a slice per leg, ${ranks} (≈ ${plan.events} events)`
    : undefined;
  return { plan, note };
}

async function run(name: CollectiveName, args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(COLLECTIVE_OPTIONS, args);
  const extra = parsed.positionals.filter(
    (p) => p !== name && !COLLECTIVE_COMMANDS[name].aliases.includes(p),
  );
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.join(" ")}`);
  const start = new Date();
  const parsedSettings = collectiveSettings(name, parsed.values, parsed.given);
  const concurrent = concurrentChoice(parsed.values);
  if (concurrent !== undefined) return runConcurrent(name, parsedSettings, concurrent, io);
  // nccl-tests' -J never replaces a file, and says where it writes (its "# Writing JSON output to").
  const ncclPath = parsedSettings.ncclReportFile && freeOutputName(parsedSettings.ncclReportFile);
  const settings =
    ncclPath === undefined
      ? parsedSettings
      : { ...parsedSettings, notes: [...parsedSettings.notes, `writing JSON output to ${ncclPath}`] };
  // Admission before anything is built or printed: the sweep's largest size decides, and a size
  // the host cannot hold runs timing-only (run from this preparation when its turn comes).
  const admission = admitSweep(settings.run, settings.sizes, settings.explicitCheck);
  // Sizes prepared now are run from their preparation when their turn comes.
  const early = new Map(admission.prepared);
  const tracing = planTracedSize(settings, early);
  const notes = [admission.note, tracing?.note].filter((n): n is string => n !== undefined);
  const s = notes.length === 0 ? settings : { ...settings, notes: [...settings.notes, ...notes] };
  const config = configOf(name, s.run, s);
  // Checked and created now: a bad path fails before the run, and a target is replaced only at the end.
  const files = openFiles(s, ncclPath);
  const { trace, report } = files;
  io.out(
    s.json
      ? `${toJson({ record: "config", ...config })}\n`
      : headerLine(name, s.run, s) + formatHeader(s.columns),
  );
  let done: Awaited<ReturnType<typeof streamSizes>>;
  try {
    const traced = trace && tracing ? { file: trace, plan: tracing.plan } : undefined;
    done = await streamSizes(name, s, config, { io, trace: traced, report }, early);
  } catch (e) {
    trace?.abandon();
    report?.abandon();
    files.nccl?.abandon();
    throw e;
  }
  const { rows, results, lastKinds, stoppedBy } = done;
  const avg = averageBusbw(rows);
  if (stoppedBy !== undefined) {
    // The files stay as they were; the rows done are summed up as usual.
    trace?.abandon();
    report?.abandon();
    files.nccl?.abandon();
    const note = `interrupted by ${stoppedBy} after ${rows.length} of ${s.sizes.length} sizes; no file written`;
    io.out(s.json ? `${toJson({ record: "interrupted", signal: stoppedBy, note })}\n` : `# ${note}\n`);
  }
  if (s.json) io.out(`${toJson({ record: "summary", "Avg bus bandwidth(GB/s)": avg })}\n`);
  else {
    if (s.run.sb2sb && sb2sbOff(s.run) === undefined)
      io.out(`# sb2sb=${sb2sbLegs(lastKinds)} (largest size)\n`);
    io.out(formatSummary(rows));
  }
  if (stoppedBy !== undefined) return 128 + (constants.signals[stoppedBy as NodeJS.Signals] ?? 0);
  writeReports(files, s, { argv: io.argv ?? [name, ...args], start, end: new Date(), rows }, config, results);
  trace?.commit();
  const bad = rows.filter((r) => r.wrong > 0 || r.guardErrors > 0);
  for (const r of bad)
    io.err(
      `${name}: size ${r.size}: ${r.wrong} wrong element(s), ${r.guardErrors} guard byte(s) overwritten\n`,
    );
  return bad.length > 0 ? 1 : 0;
}

/** The command of one collective. */
export function collectiveCommand(name: CollectiveName): Command {
  return {
    usage: collectiveHelp(name),
    run: (args, io) => run(name, args, io),
  };
}

export const allrCommand: Command = collectiveCommand("allr");
export const allgCommand: Command = collectiveCommand("allg");
export const redsctCommand: Command = collectiveCommand("redsct");
export const sendrecvCommand: Command = collectiveCommand("sendrecv");
