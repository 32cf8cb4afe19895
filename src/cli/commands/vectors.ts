/**
 * `sdmakit vectors [--out DIR] [--set NAME…] [--seed N] [--count N]` writes the conformance vector
 * sets (JSON Lines, a schema per set, manifest.json with SHA-256s); `sdmakit vectors --check DIR`
 * re-runs a set against this build and lists every case that differs, by set, case id and field.
 */
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../bits/index.js";
import { checkVectors } from "../../vectors/check.js";
import { DEFAULT_OPTIONS, generateFiles, MAX_COUNT } from "../../vectors/generate.js";
import { VECTOR_SETS, vectorSet } from "../../vectors/sets/index.js";
import type { VectorSet } from "../../vectors/vector-set.js";
import { commandHelp, toJson } from "../args.js";
import type { Command, Io } from "../command.js";
import { integerOption, type OptionTable, parseOptions } from "../options.js";
import { openOutputs } from "../output-file.js";
import { VERSION } from "../version.js";

const SET_NAMES = VECTOR_SETS.map((s) => s.name);

const OPTIONS = {
  out: {
    type: "string",
    value: "DIR",
    default: "vectors",
    help: "where to write the set (created if missing)",
  },
  set: {
    type: "string",
    value: "NAME…",
    more: /^[a-z0-9]+$/,
    help: `only these sets (${SET_NAMES.join(", ")}); default all`,
  },
  seed: {
    type: "string",
    value: "N",
    default: String(DEFAULT_OPTIONS.seed),
    help: "seed of the random cases, 0..2^32-1",
  },
  count: {
    type: "string",
    value: "N",
    default: String(DEFAULT_OPTIONS.count),
    help: `random cases per group after the edge cases, 0..${MAX_COUNT}`,
  },
  check: {
    type: "string",
    value: "DIR",
    help: "re-run the set in DIR against this build instead of writing",
  },
  json: { type: "boolean", help: "--check: the differences as JSON" },
} as const satisfies OptionTable;

const USAGE = commandHelp(
  "sdmakit vectors [--out DIR] [--set NAME…] [--seed N] [--count N] | --check DIR",
  OPTIONS,
  [
    "Writes <set>.jsonl (one case a line), <set>.schema.json and manifest.json (docs/VECTORS.md).",
    "--check exits 1 when any case differs and names each by set, case id and field.",
  ],
);

function setsOf(text: string | undefined): VectorSet[] {
  if (text === undefined) return [...VECTOR_SETS];
  return text
    .split(/[\s,]+/)
    .filter((n) => n !== "")
    .map((n) => {
      const set = vectorSet(n);
      if (!set) throw new UsageError(`--set ${JSON.stringify(n)}: expected ${SET_NAMES.join(" | ")}`);
      return set;
    });
}

/** @throws UsageError when DIR names something other than a directory, or cannot be made. */
function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UsageError(
      `--out ${JSON.stringify(dir)}: cannot create (${(e as NodeJS.ErrnoException).code ?? e})`,
    );
  }
  if (!statSync(dir).isDirectory()) throw new UsageError(`--out ${JSON.stringify(dir)}: not a directory`);
}

function write(dir: string, files: Map<string, string>, io: Io): void {
  ensureDir(dir);
  // Every target checked before any is written; each lands whole or not at all.
  const texts = [...files.values()];
  const outputs = openOutputs([...files.keys()].map((name) => ({ option: "--out", path: join(dir, name) })));
  try {
    for (const [i, file] of outputs.entries()) {
      file.write(texts[i] as string);
      file.commit();
    }
  } finally {
    for (const file of outputs) file.abandon();
  }
  io.out(`wrote ${files.size} files to ${dir}\n`);
}

function check(dir: string, json: boolean, io: Io): number {
  const report = checkVectors(dir, VERSION);
  if (json) {
    io.out(`${toJson(report, 2)}\n`);
    return report.differences.length === 0 ? 0 : 1;
  }
  for (const d of report.differences) io.out(`${d.set}: ${d.id}: ${d.field}: ${d.message}\n`);
  const how = report.regenerated
    ? "expects and inputs"
    : "expects (inputs not regenerated: another sdmakit made the set)";
  io.out(`${report.cases} cases, ${report.differences.length} differences (${how})\n`);
  return report.differences.length === 0 ? 0 : 1;
}

export const vectorsCommand: Command = {
  usage: USAGE,
  run(args, io) {
    const p = parseOptions(OPTIONS, args);
    if (p.positionals.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(p.positionals[0])}`);
    if (p.values.check !== undefined) {
      for (const o of ["out", "set", "seed", "count"] as const)
        if (p.given.has(o)) throw new UsageError(`--${o} does not apply to --check (the manifest says it)`);
      return check(p.values.check, p.values.json === true, io);
    }
    if (p.values.json === true) throw new UsageError("--json applies to --check");
    const seed = integerOption("--seed", p.values.seed, 0, 0xffffffff);
    const count = integerOption("--count", p.values.count, 0, MAX_COUNT);
    write(p.values.out, generateFiles(setsOf(p.values.set), { seed, count }, VERSION), io);
    return 0;
  },
};
