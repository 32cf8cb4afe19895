/**
 * `sdmakit vectors --check DIR`: re-run a set against this build. Every file's SHA-256 is checked
 * against the manifest; every case's `expect` is recomputed from its `input` and compared field by
 * field; and when the set was made by this same version, the cases are regenerated from the
 * manifest's seed and count and compared whole, so a changed id, pin or input is named too.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../bits/errors.js";
import { parseJsonText } from "../bits/json.js";
import { type Manifest, sha256, sideFiles, VECTORS_FORMAT } from "./generate.js";
import { diffJson, type JsonDifference } from "./json-diff.js";
import { vectorSet } from "./sets/index.js";
import { type Json, type VectorCase, VectorRng, type VectorSet } from "./vector-set.js";

/** One difference: the set, the case (or file / line), the field, and what each side holds. */
export interface Difference {
  readonly set: string;
  readonly id: string;
  readonly field: string;
  readonly message: string;
}

export interface CheckReport {
  readonly cases: number;
  readonly differences: readonly Difference[];
  /** Whether the cases' ids and inputs were regenerated (same sdmakit version as the manifest's). */
  readonly regenerated: boolean;
}

/** Differences reported per set before the rest are summarised in one line. */
export const MAX_DIFFERENCES_PER_SET = 200;

function readText(dir: string, file: string): string {
  try {
    return readFileSync(join(dir, file), "utf8");
  } catch (e) {
    throw new UsageError(
      `--check ${JSON.stringify(dir)}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? e})`,
    );
  }
}

function readManifest(dir: string): Manifest {
  const source = `--check ${JSON.stringify(dir)}: manifest.json`;
  const manifest = parseJsonText(source, readText(dir, "manifest.json")) as Manifest;
  if (manifest?.format !== VECTORS_FORMAT || !Array.isArray(manifest.sets))
    throw new UsageError(`--check ${JSON.stringify(dir)}: manifest.json is not a ${VECTORS_FORMAT} manifest`);
  return manifest;
}

const show = (v: Json | undefined) => (v === undefined ? "(missing)" : JSON.stringify(v));

function fromDiffs(set: string, id: string, diffs: readonly JsonDifference[], here: string): Difference[] {
  return diffs.map((d) => ({
    set,
    id,
    field: d.path,
    message: `${show(d.file)} in the file, ${show(d.here)} ${here}`,
  }));
}

/** The cases of a JSON Lines text; a line that is not a case is a difference. */
function parseCases(set: string, text: string, out: Difference[]): (VectorCase | undefined)[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, i) => {
    try {
      const c = parseJsonText(`line ${i + 1}`, line) as VectorCase;
      if (c !== null && typeof c === "object" && typeof c.id === "string") return c;
      out.push({ set, id: `line ${i + 1}`, field: "id", message: "the line is not a case (no string id)" });
    } catch (e) {
      out.push({ set, id: `line ${i + 1}`, field: "(line)", message: (e as Error).message });
    }
    return undefined;
  });
}

/** Recompute each case's expect. */
function rerun(set: VectorSet, cases: readonly (VectorCase | undefined)[], out: Difference[]): void {
  for (const c of cases) {
    if (c === undefined) continue;
    let here: Json;
    try {
      here = set.run(c.input);
    } catch (e) {
      out.push({
        set: set.name,
        id: c.id,
        field: "input",
        message: `this build cannot run the input: ${(e as Error).message}`,
      });
      continue;
    }
    out.push(...fromDiffs(set.name, c.id, diffJson(c.expect, here, "expect"), "here"));
  }
}

/** Compare each case with the one this build generates at the same line. */
function regenerate(
  set: VectorSet,
  m: Manifest,
  cases: readonly (VectorCase | undefined)[],
  out: Difference[],
): void {
  const inputs = [...set.inputs({ seed: m.seed, count: m.count }, new VectorRng(m.seed))];
  if (inputs.length !== cases.length)
    out.push({
      set: set.name,
      id: "(set)",
      field: "cases",
      message: `${cases.length} cases in the file, ${inputs.length} generated from seed ${m.seed} count ${m.count}`,
    });
  inputs.forEach((input, i) => {
    const c = cases[i];
    if (c === undefined) return;
    const made = { id: input.id, pins: input.pins ?? [], input: input.input };
    const given = { id: c.id, pins: c.pins, input: c.input };
    const diffs = diffJson(given as Json, made as Json, "").map((d) => ({ ...d, path: d.path.slice(1) }));
    out.push(...fromDiffs(set.name, input.id, diffs, `generated from seed ${m.seed}`));
  });
}

/**
 * Check the set in `dir` against this build (`toolVersion`).
 * @throws UsageError when the directory has no readable manifest or a file it lists is missing.
 */
export function checkVectors(dir: string, toolVersion: string): CheckReport {
  const manifest = readManifest(dir);
  const differences: Difference[] = [];
  const regenerated = manifest.tool?.version === toolVersion;
  let total = 0;
  for (const entry of manifest.sets) {
    const set = vectorSet(entry.name);
    if (set === undefined) {
      differences.push({
        set: entry.name,
        id: "(set)",
        field: "name",
        message: "this build has no such set",
      });
      continue;
    }
    const found: Difference[] = [];
    for (const f of entry.files) {
      if (sha256(readText(dir, f.file)) !== f.sha256)
        found.push({
          set: set.name,
          id: f.file,
          field: "sha256",
          message: "the file's SHA-256 is not the manifest's",
        });
    }
    const cases = parseCases(set.name, readText(dir, `${set.name}.jsonl`), found);
    total += cases.length;
    rerun(set, cases, found);
    if (regenerated) {
      regenerate(set, manifest, cases, found);
      for (const [file, text] of sideFiles(set)) {
        if (text !== readText(dir, file))
          found.push({
            set: set.name,
            id: file,
            field: "(file)",
            message: "differs from what this build writes",
          });
      }
    }
    differences.push(...found.slice(0, MAX_DIFFERENCES_PER_SET));
    if (found.length > MAX_DIFFERENCES_PER_SET)
      differences.push({
        set: set.name,
        id: "(set)",
        field: "(more)",
        message: `${found.length - MAX_DIFFERENCES_PER_SET} more differences not listed`,
      });
  }
  return { cases: total, differences, regenerated };
}
