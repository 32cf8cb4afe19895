/**
 * A vector set as files: `<set>.jsonl` (one case a line), `<set>.schema.json`, the set's attachments,
 * and `manifest.json` (tool version, seed, count, the seed notes, cases per set and the SHA-256 of
 * every file). Same seed and count, same bytes: nothing here reads a clock or the machine.
 */
import { createHash } from "node:crypto";
import { setSchema } from "./envelope-schema.js";
import { caseOf, type GenerateOptions, type Json, VectorRng, type VectorSet } from "./vector-set.js";

/** The format of the files (a breaking change to the envelope or the manifest bumps it). */
export const VECTORS_FORMAT = "sdmakit-vectors/1";

/** The seed notes the facts come from (../shared/seeds: 000 CCE reduce, 002 S3D3, 003 per-arch SDMA). */
export const SEED_NOTES = ["000_2fa0a98988c4ef13", "002_ec834db50a05dbaf", "003_169eb94d36b72f71"] as const;

/** The defaults of `sdmakit vectors` and of the committed golden set. */
export const DEFAULT_OPTIONS: GenerateOptions = { seed: 1, count: 2 };

/** Largest `--count` (random cases per group): the biggest set grows by ~1 MB per unit. */
export const MAX_COUNT = 64;

export interface ManifestSet {
  readonly name: string;
  readonly cases: number;
  readonly files: readonly { readonly file: string; readonly bytes: number; readonly sha256: string }[];
}

export interface Manifest {
  readonly format: string;
  readonly tool: { readonly name: "sdmakit"; readonly version: string };
  readonly seed: number;
  readonly count: number;
  readonly seedNotes: readonly string[];
  readonly sets: readonly ManifestSet[];
}

/** Pretty JSON with a final newline (what every .json file of a set holds). */
export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The cases of one set, as its JSON Lines text. @throws Error naming a duplicate case id. */
export function setLines(set: VectorSet, options: GenerateOptions): { text: string; cases: number } {
  const rng = new VectorRng(options.seed);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const input of set.inputs(options, rng)) {
    if (seen.has(input.id)) throw new Error(`vectors ${set.name}: case id ${input.id} twice`);
    seen.add(input.id);
    lines.push(JSON.stringify(caseOf(set, input)));
  }
  return { text: lines.map((l) => `${l}\n`).join(""), cases: lines.length };
}

/** The files a set ships beside its cases: its schema and its attachments. */
export function sideFiles(set: VectorSet): Map<string, string> {
  const files = new Map<string, string>([[`${set.name}.schema.json`, jsonFile(setSchema(set))]]);
  for (const [name, value] of Object.entries(set.attachments?.() ?? {}))
    files.set(name, jsonFile(value as Json));
  return files;
}

/** Every file of the sets, by name, manifest last; `toolVersion` is the sdmakit that made them. */
export function generateFiles(
  sets: readonly VectorSet[],
  options: GenerateOptions,
  toolVersion: string,
): Map<string, string> {
  const files = new Map<string, string>();
  const manifestSets: ManifestSet[] = [];
  for (const set of sets) {
    const { text, cases } = setLines(set, options);
    const own = new Map<string, string>([[`${set.name}.jsonl`, text], ...sideFiles(set)]);
    for (const [name, t] of own) files.set(name, t);
    manifestSets.push({
      name: set.name,
      cases,
      files: [...own].map(([file, t]) => ({ file, bytes: Buffer.byteLength(t), sha256: sha256(t) })),
    });
  }
  const manifest: Manifest = {
    format: VECTORS_FORMAT,
    tool: { name: "sdmakit", version: toolVersion },
    seed: options.seed,
    count: options.count,
    seedNotes: [...SEED_NOTES],
    sets: manifestSets,
  };
  files.set("manifest.json", jsonFile(manifest));
  return files;
}
