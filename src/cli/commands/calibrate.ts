/**
 * `sdmakit calibrate REPORT.json… [--out FILE] [--arch A] [--lnc N] [--json]`: fit the timing
 * model's free parameters (launch, per-packet and node message costs) to measured nccom-test runs — their
 * `--report-to-json-file` reports, or sdmakit's own — print each report's error before and after,
 * and write a timing profile that `--timing-profile FILE` (every collective command) reads.
 */
import { UsageError } from "../../bits/errors.js";
import {
  calibrate,
  type MeasuredReport,
  readReport,
  TIMING_PARAMETERS,
  type TimingKey,
} from "../../collectives/index.js";
import { commandHelp } from "../args.js";
import type { Command, Io } from "../command.js";
import { readJsonFile } from "../json-file.js";
import { integerOption, type OptionTable, parseOptions } from "../options.js";
import { writeOutput } from "../output-file.js";

const OPTIONS = {
  out: {
    type: "string",
    value: "FILE",
    default: "timing-profile.json",
    help: "the timing profile to write (replaced if it exists)",
  },
  arch: {
    type: "string",
    value: "ARCH",
    help: "trn1 | trn2 | trn3, for reports that do not say (nccom-test's)",
  },
  lnc: { type: "string", value: "N", help: "1 | 2, for reports that do not say (default the arch's)" },
  json: { type: "boolean", help: "the fit as JSON on stdout" },
} as const satisfies OptionTable;

const USAGE = commandHelp("sdmakit calibrate REPORT.json… [options]", OPTIONS, [
  "Fits the free timing parameters (launch, per-packet cost, node message cost) per arch to the reports' measured times —",
  "each report's error exp(mean |ln(model / measured)|) − 1, their mean minimised — and writes them",
  "as a timing profile; run any collective with --timing-profile FILE to use it.",
  "A report's configuration comes from its config (operation, nworkers, nnodes, datatype, arch, lnc),",
  "else its command line (-r, -N, -d, the operation), else --arch / --lnc.",
]);

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const unit = (k: TimingKey) => TIMING_PARAMETERS.find((p) => p.key === k)?.unit ?? "";

function run(args: readonly string[], io: Io): number {
  const parsed = parseOptions(OPTIONS, args);
  const files = parsed.positionals;
  if (files.length === 0) throw new UsageError("calibrate: expected one or more REPORT.json files");
  const v = parsed.values;
  const defaults = {
    ...(v.arch === undefined ? {} : { arch: v.arch }),
    ...(v.lnc === undefined ? {} : { lnc: integerOption("--lnc", v.lnc, 1, 2) }),
  };
  const reports: MeasuredReport[] = files.map((f) => readReport(readJsonFile("calibrate", f), f, defaults));
  const { fits, profile } = calibrate(reports);
  const out = v.out ?? "timing-profile.json";
  writeOutput(out, `${JSON.stringify(profile, null, 2)}\n`);
  if (v.json === true) {
    io.out(`${JSON.stringify({ fits, profile: out })}\n`);
    return 0;
  }
  for (const fit of fits) {
    io.out(`# ${fit.arch}\n`);
    for (const [k, x] of Object.entries(fit.fitted) as [TimingKey, number][])
      io.out(`${k}: ${(fit.start[k] as number).toPrecision(5)} → ${x.toPrecision(5)} ${unit(k)}\n`);
    const mine = reports.filter((r) => r.arch === fit.arch);
    for (const [i, r] of mine.entries()) {
      const change = `${pct(fit.before[i] as number)} → ${pct(fit.after[i] as number)}`;
      io.out(`${r.name}: ${r.rows.length} rows, error ${change}\n`);
    }
  }
  io.out(`# wrote ${out}: use it with --timing-profile ${out}\n`);
  return 0;
}

export const calibrateCommand: Command = { usage: USAGE, run };
